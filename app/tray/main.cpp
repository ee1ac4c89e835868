// claude-peers-tray: hosts the broker in-process at login, with a tray icon and a Peers window.
#include "app/brokerhost/brokercomposition.h"
#include "app/tray/brokerhost.h"
#include "app/tray/firstrunwizard.h"
#include "app/tray/singleinstance.h"
#include "app/tray/translations.h"
#include "app/tray/traycomposition.h"
#include "app/tray/trayicons.h"
#include "app/tray/traylogging.h"
#include "broker/brokerserver.h"
#include "common/location.h"
#include "common/unixsignalnotifier.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QLocale>
#include <QStandardPaths>

#include <csignal>
#include <cstring>

namespace {

// `--no-gui`: the same broker in-process, with no widgets and no display (a QCoreApplication:
// no QGuiApplication is needed), for SSH sessions and servers; stops on SIGTERM/SIGINT and on
// an authenticated POST /shutdown, re-reads token and config on SIGHUP.
int runHeadless(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("claude-peers-tray"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PEERS_VERSION));
    Broker::UnixSignalNotifier::ignoreSigPipe();
    App::BrokerHost host(Broker::Settings::load(Broker::Location::fromEnvironment()));
    host.runOnBrokerThread([](Broker::BrokerServer &server) { App::composeBroker(server); });
    Broker::UnixSignalNotifier signals({SIGTERM, SIGINT, SIGHUP});
    QObject::connect(&signals, &Broker::UnixSignalNotifier::signalReceived, &app, [&host](int signalNumber) {
        if (signalNumber == SIGHUP) {
            host.reload();
            return;
        }
        host.stop();
        QCoreApplication::exit(0);
    });
    QObject::connect(&host, &App::BrokerHost::shutdownRequested, &app, [&host] {
        host.stop();
        QCoreApplication::exit(0);
    });
    // A headless tray has nothing to show of a broker it does not host: it leaves.
    QObject::connect(&host, &App::BrokerHost::handedOver, &app, [] { QCoreApplication::exit(0); });
    QObject::connect(&host, &App::BrokerHost::stateChanged, &app, [&host] {
        if (host.state() == App::BrokerHost::State::Failed) {
            qCCritical(App::lcUi).noquote() << host.lastError().message;
            QCoreApplication::exit(1);
        }
    });
    host.start();
    return QCoreApplication::exec();
}

} // namespace

int main(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--no-gui") == 0)
            return runHeadless(argc, argv);
    }
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
    const QCommandLineOption windowed(
        QStringLiteral("windowed"), QApplication::translate("main", "No tray icon: the window is the app."));
    const QCommandLineOption noGui(
        QStringLiteral("no-gui"),
        QApplication::translate("main", "Host the broker without any window or icon (a headless broker)."));
    const QCommandLineOption firstRun(QStringLiteral("first-run"),
                                      QApplication::translate("main", "Show the first-run wizard again."));
    const QCommandLineOption wait(
        QStringLiteral("wait"),
        QApplication::translate("main",
                                "When no system tray is there at start, wait for one to appear (e.g. "
                                "a panel that starts after the app at login) instead of showing the "
                                "window. The broker runs meanwhile."));
    parser.addOptions({windowed, wait, noGui, firstRun});
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
    composition.setWindowed(parser.isSet(windowed));
    composition.setWaitForTray(parser.isSet(wait));
    composition.start();
    // Once per user; never on the offscreen platform (tests, CI) unless asked for.
    if (parser.isSet(firstRun) ||
        (!App::FirstRunWizard::hasRun() && QGuiApplication::platformName() != QLatin1String("offscreen")))
        composition.showFirstRunWizard();
    return QApplication::exec();
}
