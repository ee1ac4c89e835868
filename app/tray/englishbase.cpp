// The English base translation: the singular and plural forms of the English texts (a source
// text such as "%n peer(s)" needs claude-peers_en.qm to read "1 peer" / "2 peers"). Installed from
// QCoreApplication's constructor in every program that links the tray code, tests included, so
// English is right without anyone remembering to load it; a later, localised translator is
// searched first. Built as an object library (a static library's unreferenced start-up function
// would be dropped by the linker), hence only Qt calls here.
#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTranslator>

namespace App {

namespace {

Q_LOGGING_CATEGORY(lcI18n, "peers.tray.i18n", QtInfoMsg)

void installEnglishBase()
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (!translator->load(QStringLiteral(":/i18n/claude-peers_en.qm"))) {
        qCWarning(lcI18n) << "the embedded English texts (:/i18n/claude-peers_en.qm) are missing;"
                          << "counts read \"(s)\". Rebuild the tray.";
        delete translator;
        return;
    }
    QCoreApplication::installTranslator(translator);
}

Q_COREAPP_STARTUP_FUNCTION(installEnglishBase)

} // namespace

} // namespace App
