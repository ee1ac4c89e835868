// claude-peers: the command-line client of the local broker. Thin: the commands live in the
// Peers::cli library (commandtable.cpp lists them).
#include "command.h"
#include "context.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTimer>

#include <csignal>
#include <cstdio>

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
    QObject::connect(&context, &Cli::Context::finished, &app, [](int code) { QCoreApplication::exit(code); });
    const QStringList arguments = app.arguments().mid(1);
    // Started from the running loop, so that exit() from a command that ends at once counts.
    QTimer::singleShot(0, &context, [&context, arguments] { Cli::dispatch(context, arguments); });
    return app.exec();
}
