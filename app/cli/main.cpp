// claude-peers: the command-line client of the local broker. Thin: the commands live in the
// Peers::cli library (commandtable.cpp lists them).
#include "app/cli/command.h"
#include "app/cli/context.h"
#include "common/unixsignalnotifier.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <unistd.h>

int main(int argc, char *argv[])
{
    // `claude-peers peers | head -1` must not kill us with SIGPIPE mid-write.
    std::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("claude-peers"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PEERS_VERSION));

    QFile out;
    QFile err;
    out.open(stdout, QIODevice::WriteOnly);
    err.open(stderr, QIODevice::WriteOnly);

    Cli::Context context(QProcessEnvironment::systemEnvironment(), &out, &err, QDir::currentPath());
    context.setErrIsTerminal(::isatty(STDERR_FILENO) == 1);
    QObject::connect(&context, &Cli::Context::finished, &app, [](int code) { QCoreApplication::exit(code); });
    // Ctrl-C ends the command through the loop, so that its requests' connections close and the
    // broker cancels what it was doing for them (a session wait).
    Broker::UnixSignalNotifier stopSignals({SIGINT, SIGTERM});
    QObject::connect(&stopSignals, &Broker::UnixSignalNotifier::signalReceived, &context,
                     [&context] { context.interrupt(); });
    const QStringList arguments = app.arguments().mid(1);
    // Started from the running loop, so that exit() from a command that ends at once counts.
    QTimer::singleShot(0, &context, [&context, arguments] { Cli::dispatch(context, arguments); });
    return app.exec();
}
