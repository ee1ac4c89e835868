# Brings the claude-peers_*.ts files of TS_DIR up to date with the tray's sources. The one lupdate
# command: run on translations/ by the `update_translations` target, and on a temp copy by
# tests/i18n (which fails when the copy then differs from the committed file).
#   cmake -DLUPDATE=<lupdate> -DSOURCE_DIR=<app/tray> -DTS_DIR=<dir> [-DINCLUDE_DIR=<root>] -P …/update.cmake
# INCLUDE_DIR is where includes are found (the repository root: they are written from it); without
# it lupdate cannot see a class's Q_OBJECT in its header and files its tr() under no context.
# The directory is scanned recursively (pages/, notifications/ included). English is the source
# language: its file holds only the messages with a count, for their singular and plural forms.
foreach(var LUPDATE SOURCE_DIR TS_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "update.cmake needs -D${var}=…")
    endif()
endforeach()
if(NOT DEFINED INCLUDE_DIR)
    set(INCLUDE_DIR ${SOURCE_DIR})
endif()
file(GLOB ts_files ${TS_DIR}/claude-peers_*.ts)
if(NOT ts_files)
    message(FATAL_ERROR "no claude-peers_*.ts in ${TS_DIR}")
endif()
foreach(ts IN LISTS ts_files)
    set(only)
    if(ts MATCHES "_en\\.ts$")
        set(only -pluralonly)
    endif()
    execute_process(COMMAND ${LUPDATE} -silent -no-obsolete -locations none ${only} -I ${INCLUDE_DIR}
                            ${SOURCE_DIR} -ts ${ts}
                    RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "lupdate failed on ${ts}: ${status}")
    endif()
endforeach()
