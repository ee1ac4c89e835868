// peers-bench: measures a running broker through its public HTTP API only.
// Usage: see bench/README.md or `peers-bench --help`.

#include "bench/benchrunner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QUrl>

#include <cstdio>

namespace {

bool positiveInt(const QCommandLineParser &parser, const QCommandLineOption &option, int minimum, int &out)
{
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    const int value = parser.value(option).toInt(&ok);
    if (!ok || value < minimum) {
        std::fprintf(stderr, "peers-bench: --%s must be an integer >= %d\n",
                     qPrintable(option.names().constFirst()), minimum);
        return false;
    }
    out = value;
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("peers-bench"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Benchmarks a running claude-peers broker through its HTTP API: store->push latency, message "
        "throughput and idle RSS. JSON on stdout, a summary on stderr."));
    parser.addHelpOption();
    // No default: the bench registers peers, which must never land in a user's real broker.
    const QCommandLineOption urlOption(QStringLiteral("url"), QStringLiteral("Broker base URL (required)."),
                                       QStringLiteral("url"));
    const QCommandLineOption tokenOption(QStringLiteral("token-file"),
                                         QStringLiteral("The broker's token file."), QStringLiteral("path"));
    const QCommandLineOption sendersOption(
        QStringLiteral("senders"), QStringLiteral("Sending peers (default 64)."), QStringLiteral("n"));
    const QCommandLineOption receiversOption(
        QStringLiteral("receivers"), QStringLiteral("Receiving peers (default 16)."), QStringLiteral("n"));
    const QCommandLineOption messagesOption(
        QStringLiteral("messages"), QStringLiteral("Messages in each throughput run (default 40000)."),
        QStringLiteral("n"));
    const QCommandLineOption samplesOption(QStringLiteral("latency-samples"),
                                           QStringLiteral("Sequential latency samples (default 2000)."),
                                           QStringLiteral("n"));
    const QCommandLineOption windowOption(
        QStringLiteral("window"),
        QStringLiteral("Requests in flight per sender in the headline run (default 1: not pipelined)."),
        QStringLiteral("n"));
    const QCommandLineOption pipelinedOption(
        QStringLiteral("pipelined-window"),
        QStringLiteral(
            "Requests in flight per sender in the second, pipelined run (default 64; 0: no such run)."),
        QStringLiteral("n"));
    const QCommandLineOption pidOption(
        QStringLiteral("broker-pid"), QStringLiteral("Broker pid for RSS (default: \"pid\" of GET /health)."),
        QStringLiteral("pid"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout"),
                                           QStringLiteral("Give up after this many seconds (default 300)."),
                                           QStringLiteral("s"));
    const QCommandLineOption jsonOption(
        QStringLiteral("json"), QStringLiteral("Only the JSON result on stdout (no summary on stderr)."));
    parser.addOptions({urlOption, tokenOption, sendersOption, receiversOption, messagesOption, samplesOption,
                       windowOption, pipelinedOption, pidOption, timeoutOption, jsonOption});
    parser.process(app);

    Bench::Options options;
    if (!parser.isSet(urlOption)) {
        std::fprintf(stderr, "peers-bench: --url is required (e.g. http://127.0.0.1:PORT)\n");
        return 2;
    }
    const QUrl url(parser.value(urlOption));
    if (!url.isValid() || url.scheme() != QLatin1String("http") || url.host().isEmpty() || url.port() <= 0) {
        std::fprintf(stderr, "peers-bench: --url must look like http://127.0.0.1:PORT\n");
        return 2;
    }
    options.host = url.host();
    options.port = quint16(url.port());
    if (!parser.isSet(tokenOption)) {
        std::fprintf(stderr, "peers-bench: --token-file is required\n");
        return 2;
    }
    QFile tokenFile(parser.value(tokenOption));
    if (!tokenFile.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "peers-bench: cannot read the token file %s\n",
                     qPrintable(tokenFile.fileName()));
        return 2;
    }
    options.token = tokenFile.readAll().trimmed();
    if (options.token.isEmpty()) {
        std::fprintf(stderr, "peers-bench: the token file is empty\n");
        return 2;
    }
    int pid = 0;
    if (!positiveInt(parser, sendersOption, 1, options.senders) ||
        !positiveInt(parser, receiversOption, 1, options.receivers) ||
        !positiveInt(parser, messagesOption, 0, options.messages) ||
        !positiveInt(parser, samplesOption, 0, options.latencySamples) ||
        !positiveInt(parser, windowOption, 1, options.window) ||
        !positiveInt(parser, pipelinedOption, 0, options.pipelinedWindow) ||
        !positiveInt(parser, pidOption, 1, pid) || !positiveInt(parser, timeoutOption, 1, options.timeoutS))
        return 2;
    options.brokerPid = pid;
    const bool jsonOnly = parser.isSet(jsonOption);
    if (jsonOnly)
        qSetMessagePattern(QStringLiteral("%{if-critical}%{message}%{endif}"));

    Bench::Runner runner(options);
    QObject::connect(&runner, &Bench::Runner::finished, &app, [&](int exitCode) {
        if (!jsonOnly)
            std::fprintf(stderr, "%s\n", qPrintable(runner.summary()));
        const QByteArray json = QJsonDocument(runner.result()).toJson(QJsonDocument::Indented);
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fflush(stdout);
        app.exit(exitCode);
    });
    runner.start();
    return app.exec();
}
