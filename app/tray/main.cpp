// claude-peers-tray: hosts the broker in-process at login, with a tray icon and a Peers window.
#include "brokerserver.h"
#include "location.h"
#include "traycomposition.h"
#include "trayicons.h"
#include "unixsignalnotifier.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("claude-peers-tray"));
    QApplication::setApplicationDisplayName(QStringLiteral("claude-peers"));
    QApplication::setApplicationVersion(QStringLiteral(PEERS_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("claude-peers-tray"));
    QApplication::setQuitOnLastWindowClosed(false); // the tray, not a window, is the app
    QApplication::setWindowIcon(App::applicationIcon());

    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("claude-peers"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main",
                                "Tray app of claude-peers: hosts the local broker and shows its peers.\n"
                                "Environment: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);

    Broker::UnixSignalNotifier::ignoreSigPipe();
    App::TrayComposition composition(Broker::Settings::load(Broker::Location::fromEnvironment()));
    composition.start();
    return QApplication::exec();
}
