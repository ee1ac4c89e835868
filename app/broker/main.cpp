// claude-peers-broker: composition root of the headless broker.
#include "brokercomposition.h"
#include "brokerserver.h"
#include "location.h"
#include "unixsignalnotifier.h"

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
        "Signals: SIGHUP re-reads the token and the config file; SIGTERM/SIGINT stop cleanly."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);

    Broker::UnixSignalNotifier signalNotifier({SIGHUP, SIGTERM, SIGINT});
    Broker::BrokerServer server(Broker::Settings::load(Broker::Location::fromEnvironment()));
    App::composeBroker(server); // keychain and modules, as the tray

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
    return app.exec();
}
