# One INTERFACE target carries the settings every target of the project shares
# (the qBittorrent CommonConfig pattern): link Peers::buildconfig and nothing else is needed.
add_library(peers_buildconfig INTERFACE)
add_library(Peers::buildconfig ALIAS peers_buildconfig)

# Every include is written from the repository root ("common/wire.h", "broker/internal/store.h"),
# so a reader sees where a header lives and no folder adds a search path of its own.
target_include_directories(peers_buildconfig INTERFACE ${PROJECT_SOURCE_DIR})

target_compile_features(peers_buildconfig INTERFACE cxx_std_23)
target_compile_definitions(peers_buildconfig INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_KEYWORDS
    QT_USE_QSTRINGBUILDER
    QT_NO_URL_CAST_FROM_STRING
    PEERS_VERSION="${PROJECT_VERSION}")
target_compile_options(peers_buildconfig INTERFACE -Wall -Wextra -Wpedantic)
if(PEERS_WERROR)
    target_compile_options(peers_buildconfig INTERFACE -Werror)
    # CI keeps Q_ASSERT live in release-type builds too.
    target_compile_definitions(peers_buildconfig INTERFACE QT_FORCE_ASSERTS)
endif()
set(CMAKE_CXX_EXTENSIONS OFF)

# Sanitizers for every target (make test-asan: address,undefined; the fuzz build adds them too).
# Any finding aborts the process, so a test or fuzz target with one fails.
set(PEERS_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list for every target, e.g. address,undefined")
if(PEERS_SANITIZE)
    add_compile_options(-fsanitize=${PEERS_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
    add_link_options(-fsanitize=${PEERS_SANITIZE})
endif()

# Precompiled Qt and standard headers for the libraries with many sources: parsing them is about
# half of a source's compile time (make test's build time, docs/decisions.md). Each library
# builds its own, so a target's own definitions keep it valid. Not in the fuzz build (clang).
option(PEERS_PCH "Precompile the Qt and standard headers of the larger libraries" ON)
function(peers_precompile_headers target)
    if(NOT PEERS_PCH OR PEERS_FUZZ)
        return()
    endif()
    target_precompile_headers(${target} PRIVATE
        <QByteArray> <QDateTime> <QDir> <QFile> <QFileInfo> <QHash> <QJsonArray> <QJsonDocument>
        <QJsonObject> <QJsonValue> <QList> <QObject> <QSet> <QString> <QStringList> <QTimer>
        <algorithm> <expected> <functional> <memory> <optional> ${ARGN})
endfunction()
