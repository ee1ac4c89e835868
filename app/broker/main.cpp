// claude-peers-broker: composition root of the headless broker.
#include "app/brokerhost/brokercomposition.h"
#include "broker/brokerserver.h"
#include "common/location.h"
#include "common/unixsignalnotifier.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <csignal>
#include <cstdio>

int main(int argc, char *argv[])
{
    // Before anything can write to a socket or to a stderr pipe whose reader went away.
    Broker::UnixSignalNotifier::ignoreSigPipe();

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("claude-peers-broker"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PEERS_VERSION));
    qSetMessagePattern(
        QStringLiteral("[%{time yyyy-MM-ddThh:mm:ss.zzz}] [CPM-broker] "
                       "%{if-warning}warning: %{endif}%{if-critical}error: %{endif}%{message}"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The claude-peers broker without a GUI: peer registry and message queue on "
        "127.0.0.1:$CLAUDE_PEERS_PORT (default 7899).\n\n"
        "The local token is kept in the OS keychain where one answers, and written to the token "
        "file for helpers and the CLI; CLAUDE_PEERS_TOKEN (a file path) makes that file the source "
        "of truth.\n\n"
        "Environment: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN, "
        "CLAUDE_PEERS_RATE_LIMIT, CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS.\n"
        "Signals: SIGHUP re-reads the token and the config file; SIGTERM/SIGINT stop cleanly.\n\n"
        "Hand-over: a broker already serving this port and database (headless or the tray) is asked "
        "for its listening sockets over the hand-over socket in $XDG_RUNTIME_DIR; it finishes its "
        "connections, closes the database and exits, and no client sees a refused connection "
        "(`claude-peers restart` uses it). Sockets passed by systemd (LISTEN_FDS) are adopted."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption noTakeOver(
        QStringLiteral("no-take-over"),
        QStringLiteral("Do not take over from a running broker: exit with code 2 when one holds the "
                       "database or the port (what a helper starting a missing broker wants)."));
    parser.addOption(noTakeOver);
    parser.process(app);

    Broker::UnixSignalNotifier signalNotifier({SIGHUP, SIGTERM, SIGINT});
    Broker::BrokerServer server(Broker::Settings::load(Broker::Location::fromEnvironment()));
    App::composeBroker(server); // keychain and modules, as the tray
    server.setTakeOver(!parser.isSet(noTakeOver));

    auto started = server.start();
    if (!started) {
        std::fprintf(stderr, "claude-peers-broker: %s\n", qUtf8Printable(started.error().message));
        const Broker::ErrorKind kind = started.error().kind;
        return (kind == Broker::ErrorKind::Locked || kind == Broker::ErrorKind::PortInUse) ? 2 : 1;
    }

    QObject::connect(&signalNotifier, &Broker::UnixSignalNotifier::signalReceived, &server,
                     [&](int signalNumber) {
                         if (signalNumber == SIGHUP) {
                             server.reload();
                             return;
                         }
                         server.stop();
                         QCoreApplication::exit(0);
                     });
    QObject::connect(&server, &Broker::BrokerServer::shutdownRequested, &server, [&] {
        server.stop();
        QCoreApplication::exit(0);
    });
    // A successor has our sockets and our database is closed: nothing left to do here.
    QObject::connect(&server, &Broker::BrokerServer::handedOver, &server, [] { QCoreApplication::exit(0); });
    return app.exec();
}
