// peers-hook-bench: how long `claude-peers hook <event>` holds up Claude Code, measured from
// outside as Claude Code sees it: from spawning the process (hook JSON written to its stdin)
// to its exit. Three cases: a running broker (the state is stored), no broker on the port
// (connection refused), and a hung broker (accepts, never answers: the 250 ms budget). Starts
// its own broker in a temporary HOME on a free port; prints JSON on stdout (p50/p99 in ms).
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

void note(const QString &text)
{
    std::fprintf(stderr, "peers-hook-bench: %s\n", qPrintable(text));
}

quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

// One HTTP/1.1 request on a fresh connection; the status and the body.
std::pair<int, QByteArray> http(quint16 port, const QByteArray &method, const QByteArray &path,
                                const QByteArray &body = {}, const QByteArray &token = {})
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(1000))
        return {0, {}};
    QByteArray request = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (!token.isEmpty())
        request += "Authorization: Bearer " + token + "\r\n";
    request +=
        "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    s.write(request + body);
    QByteArray answer;
    while (s.waitForReadyRead(2000))
        answer += s.readAll();
    const qsizetype split = answer.indexOf("\r\n\r\n");
    return {answer.mid(9, 3).toInt(), split < 0 ? QByteArray() : answer.mid(split + 4)};
}

struct Stats
{
    static QJsonObject of(QList<double> v)
    {
        if (v.isEmpty())
            return {};
        std::sort(v.begin(), v.end());
        const auto at = [&](double q) {
            return v.at(qBound<qsizetype>(0, qsizetype(std::ceil(q * v.size())) - 1, v.size() - 1));
        };
        const auto r = [](double x) { return std::round(x * 100.0) / 100.0; };
        return {{QStringLiteral("runs"), v.size()},
                {QStringLiteral("p50_ms"), r(at(0.5))},
                {QStringLiteral("p99_ms"), r(at(0.99))},
                {QStringLiteral("min_ms"), r(v.constFirst())},
                {QStringLiteral("max_ms"), r(v.constLast())}};
    }
};

// Spawn → exit of one hook run, in ms; -1 when it failed (a non-zero exit, stdout not empty).
double runHook(const QString &cli, const QProcessEnvironment &env, const QString &event,
               const QByteArray &json)
{
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    p.start(cli, {QStringLiteral("hook"), event});
    if (!p.waitForStarted(5000))
        return -1;
    p.write(json);
    p.closeWriteChannel();
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    const double ms = double(t.nsecsElapsed()) / 1e6;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0 || !p.readAllStandardOutput().isEmpty())
        return -1;
    return ms;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Time from spawn to exit of `claude-peers hook`."));
    parser.addHelpOption();
    QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Runs per case (default 200)."),
                                  QStringLiteral("n"), QStringLiteral("200"));
    QCommandLineOption cliOption(QStringLiteral("cli"), QStringLiteral("The claude-peers binary."),
                                 QStringLiteral("path"), QStringLiteral(PEERS_BENCH_CLI_EXE));
    QCommandLineOption brokerOption(QStringLiteral("broker"),
                                    QStringLiteral("The claude-peers-broker binary."), QStringLiteral("path"),
                                    QStringLiteral(PEERS_BENCH_BROKER_EXE));
    parser.addOptions({runsOption, cliOption, brokerOption});
    parser.process(app);
    const int runs = std::max(1, parser.value(runsOption).toInt());

    QTemporaryDir home;
    const quint16 port = freePort();
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(port));
    env.insert(QStringLiteral("CLAUDE_PEERS_DB"), home.path() + QStringLiteral("/.claude-peers.db"));
    env.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), home.path() + QStringLiteral("/.claude-peers-token"));
    env.insert(QStringLiteral("CLAUDE_PEERS_RATE_LIMIT"), QStringLiteral("0"));

    QProcess broker;
    broker.setProcessEnvironment(env);
    broker.setStandardOutputFile(QProcess::nullDevice());
    broker.setStandardErrorFile(home.path() + QStringLiteral("/broker.log"));
    broker.start(parser.value(brokerOption), {});
    bool up = false;
    for (int i = 0; i < 500 && !up; ++i) {
        up = http(port, "GET", "/health").first == 200;
        if (!up)
            QThread::msleep(20);
    }
    if (!up) {
        note(QStringLiteral("the broker did not start"));
        return 1;
    }
    QFile tokenFile(home.path() + QStringLiteral("/.claude-peers-token"));
    tokenFile.open(QIODevice::ReadOnly);
    const QByteArray token = tokenFile.readAll().trimmed();

    // The session: a live child of ours, as Claude Code is the parent of its helper and its hooks.
    QProcess session;
    session.start(QStringLiteral("/bin/sleep"), {QStringLiteral("3600")});
    session.waitForStarted();
    const QJsonObject registration {{QStringLiteral("pid"), session.processId()},
                                    {QStringLiteral("cwd"), QStringLiteral("/work/bench")},
                                    {QStringLiteral("client"), QStringLiteral("claude-code")}};
    const auto registered =
        http(port, "POST", "/register", QJsonDocument(registration).toJson(QJsonDocument::Compact), token);
    const QString id =
        QJsonDocument::fromJson(registered.second).object().value(QStringLiteral("id")).toString();
    if (id.isEmpty()) {
        note(QStringLiteral("registration failed: ") + QString::fromUtf8(registered.second));
        return 1;
    }

    const QString cli = parser.value(cliOption);
    const auto json = [](const char *event) {
        return QJsonDocument(QJsonObject {{QStringLiteral("session_id"), QStringLiteral("bench")},
                                          {QStringLiteral("cwd"), QStringLiteral("/work/bench")},
                                          {QStringLiteral("hook_event_name"), QLatin1String(event)},
                                          {QStringLiteral("message"), QStringLiteral("Claude needs you")}})
            .toJson(QJsonDocument::Compact);
    };
    int failures = 0;
    const auto measure = [&](const QProcessEnvironment &e) {
        QList<double> times;
        for (int i = 0; i < runs; ++i) {
            const char *event = i % 2 == 0 ? "UserPromptSubmit" : "Stop";
            const double ms = runHook(cli, e, QLatin1String(event), json(event));
            if (ms < 0)
                ++failures;
            else
                times << ms;
        }
        return Stats::of(times);
    };

    QJsonObject result;
    result.insert(QStringLiteral("broker_running"), measure(env));
    // The last state arrived (runs alternate; the last one is Stop when runs is even).
    const auto listed = http(port, "POST", "/list-peers", R"({"scope":"machine","cwd":"/"})", token);
    QString lastState;
    for (const QJsonValue &row : QJsonDocument::fromJson(listed.second).array()) {
        if (row.toObject().value(QStringLiteral("id")).toString() == id)
            lastState = row.toObject().value(QStringLiteral("attention")).toString();
    }
    result.insert(QStringLiteral("stored_state_after_runs"), lastState);

    QProcessEnvironment down = env;
    down.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(freePort()));
    result.insert(QStringLiteral("broker_down"), measure(down));

    QTcpServer silent; // accepts (through the kernel's backlog) and never answers
    silent.listen(QHostAddress::LocalHost, 0);
    QProcessEnvironment hung = env;
    hung.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(silent.serverPort()));
    const int hungRuns = std::min(runs, 20); // each one waits out the budget
    QList<double> hungTimes;
    for (int i = 0; i < hungRuns; ++i) {
        const double ms = runHook(cli, hung, QStringLiteral("Stop"), json("Stop"));
        if (ms < 0)
            ++failures;
        else
            hungTimes << ms;
    }
    result.insert(QStringLiteral("broker_hung"), Stats::of(hungTimes));
    result.insert(QStringLiteral("failed_runs"), failures);

    session.kill();
    session.waitForFinished();
    broker.terminate();
    if (!broker.waitForFinished(5000)) {
        broker.kill();
        broker.waitForFinished();
    }
    std::fprintf(stdout, "%s", QJsonDocument(result).toJson(QJsonDocument::Indented).constData());
    return failures == 0 ? 0 : 1;
}
