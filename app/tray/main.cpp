// claude-peers-tray: hosts the broker in-process at login, with a tray icon and a Peers window.
#include "brokerserver.h"
#include "location.h"
#include "singleinstance.h"
#include "translations.h"
#include "traycomposition.h"
#include "trayicons.h"
#include "traylogging.h"
#include "unixsignalnotifier.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLocale>
#include <QStandardPaths>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("claude-peers-tray"));
    QApplication::setApplicationDisplayName(QStringLiteral("claude-peers"));
    QApplication::setApplicationVersion(QStringLiteral(PEERS_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("claude-peers-tray"));
    QApplication::setQuitOnLastWindowClosed(false); // the tray, not a window, is the app
    QApplication::setWindowIcon(App::applicationIcon());

    App::installTranslations(QLocale());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main",
                                "Tray app of claude-peers: hosts the local broker and shows its peers.\n"
                                "Environment: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);

    Broker::UnixSignalNotifier::ignoreSigPipe();
    Broker::Settings settings = Broker::Settings::load(Broker::Location::fromEnvironment());
    // A second start (a click in the menu, autostart after a manual start) shows the running
    // tray's window instead of taking its broker over.
    App::SingleInstance instance(QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation),
                                 settings.location.port);
    const auto role = instance.claim();
    if (!role) {
        qCCritical(App::lcUi).noquote() << role.error().message;
        return 1;
    }
    if (*role == App::SingleInstance::Role::Secondary) {
        qCInfo(App::lcUi) << "claude-peers-tray already runs; asked it to show its window";
        return 0;
    }
    App::TrayComposition composition(std::move(settings));
    QObject::connect(&instance, &App::SingleInstance::raiseRequested, &composition,
                     &App::TrayComposition::showWindow);
    composition.start();
    return QApplication::exec();
}
