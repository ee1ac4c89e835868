// peers-helper-bench: figures of the MCP helper (issue 3 §6) measured from outside, through
// stdio and the public HTTP API only. It starts its own broker in a temporary HOME on a free
// port (rate limit off) and prints JSON on stdout:
//   latency    send_message tools/call written to helper A → notifications/claude/channel
//              read from helper B (≥ 1000 sequential messages; p50/p99)
//   initialize helper start (fork) → initialize answer, broker up (warm) and no broker at all
//              (cold: the helper starts one); "ready" = first tool answered (registered)
//   idle       CPU seconds per hour and RSS of N idle, registered helpers over a window
#include "bench/helper/helperprocess.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Config
{
    QString mcp = QStringLiteral(PEERS_BENCH_MCP_EXE);
    QString broker = QStringLiteral(PEERS_BENCH_BROKER_EXE);
    int messages = 1000;
    int warmup = 20;
    int initRuns = 20;
    int coldRuns = 5;
    int helpers = 10;
    int idleSeconds = 60;
};

void note(const QString &text)
{
    std::fprintf(stderr, "peers-helper-bench: %s\n", qPrintable(text));
}

quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

bool healthOk(quint16 port)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(300))
        return false;
    s.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    if (!s.waitForBytesWritten(300))
        return false;
    QByteArray answer;
    while (s.waitForReadyRead(500))
        answer += s.readAll();
    return answer.startsWith("HTTP/1.1 200");
}

QString peerIdForTty(const QString &tty)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(tty.toUtf8(), QCryptographicHash::Sha256).toHex().left(8));
}

struct Stats
{
    double p50 = 0, p99 = 0, mean = 0, max = 0, min = 0;
    static Stats of(QList<double> v)
    {
        Stats s;
        if (v.isEmpty())
            return s;
        std::sort(v.begin(), v.end());
        const auto at = [&](double q) {
            return v.at(qBound<qsizetype>(0, qsizetype(std::ceil(q * v.size())) - 1, v.size() - 1));
        };
        s.p50 = at(0.50);
        s.p99 = at(0.99);
        s.max = v.constLast();
        s.min = v.constFirst();
        double sum = 0;
        for (double x : v)
            sum += x;
        s.mean = sum / v.size();
        return s;
    }
    QJsonObject json(const QString &unit = QStringLiteral("ms")) const
    {
        auto r = [](double x) { return std::round(x * 1000.0) / 1000.0; };
        return QJsonObject {{QStringLiteral("p50_") + unit, r(p50)},
                            {QStringLiteral("p99_") + unit, r(p99)},
                            {QStringLiteral("mean_") + unit, r(mean)},
                            {QStringLiteral("min_") + unit, r(min)},
                            {QStringLiteral("max_") + unit, r(max)}};
    }
};

double ms(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

// A private HOME: port, token, database; the broker of this home.
class Home
{
public:
    Home() : m_port(freePort()) { }
    ~Home() { stopBroker(); }

    QString path() const { return m_dir.path(); }
    quint16 port() const { return m_port; }
    QStringList env(const QString &tty, bool brokerOnPath, const Config &c) const
    {
        QString path = QStringLiteral("/usr/bin:/bin");
        if (brokerOnPath)
            path = QFileInfo(c.broker).absolutePath() + QLatin1Char(':') + path;
        return {QStringLiteral("HOME=") + m_dir.path(),
                QStringLiteral("PATH=") + path,
                QStringLiteral("CLAUDE_PEERS_PORT=%1").arg(m_port),
                QStringLiteral("CLAUDE_PEERS_DB=") + dbPath(),
                QStringLiteral("CLAUDE_PEERS_TOKEN=") + m_dir.path() + QStringLiteral("/.claude-peers-token"),
                QStringLiteral("CLAUDE_PEERS_RATE_LIMIT=0"),
                QStringLiteral("CLAUDE_PEERS_STARTUP_HELLO=0"),
                QStringLiteral("CLAUDE_PEERS_TTY=") + tty};
    }
    QString dbPath() const { return m_dir.path() + QStringLiteral("/.claude-peers.db"); }

    bool startBroker(const Config &c)
    {
        m_broker = std::make_unique<HelperProcess>();
        if (!m_broker->start(c.broker, env(QString(), false, c), m_dir.path(),
                             m_dir.path() + QStringLiteral("/broker.log")))
            return false;
        for (int i = 0; i < 300; ++i) {
            if (healthOk(m_port))
                return true;
            QThread::msleep(20);
        }
        QFile log(m_dir.path() + QStringLiteral("/broker.log"));
        if (log.open(QIODevice::ReadOnly))
            note(QStringLiteral("broker did not start: ") +
                 QString::fromLocal8Bit(log.readAll().right(2000)));
        return false;
    }
    HelperProcess *broker() const { return m_broker.get(); }
    void stopBroker()
    {
        m_broker.reset();
        // A broker a helper started is not our child: stop it by its pid file.
        QFile pidFile(dbPath() + QStringLiteral(".pid"));
        if (pidFile.open(QIODevice::ReadOnly)) {
            const pid_t pid = pid_t(pidFile.readAll().trimmed().toLongLong());
            if (pid > 0 && ::kill(pid, SIGTERM) == 0) {
                for (int i = 0; i < 250 && ::kill(pid, 0) == 0; ++i)
                    QThread::msleep(20);
            }
        }
        for (int i = 0; i < 250 && healthOk(m_port); ++i)
            QThread::msleep(20);
    }

private:
    QTemporaryDir m_dir;
    quint16 m_port;
    std::unique_ptr<HelperProcess> m_broker;
};

// A client that shows channel pushes: the helper acknowledges each push, the path measured.
QJsonObject initializeParams()
{
    const QJsonObject channels {
        {QStringLiteral("experimental"), QJsonObject {{QStringLiteral("claude/channel"), QJsonObject()}}}};
    return QJsonObject {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                        {QStringLiteral("capabilities"), channels},
                        {QStringLiteral("clientInfo"),
                         QJsonObject {{QStringLiteral("name"), QStringLiteral("bench")},
                                      {QStringLiteral("version"), QStringLiteral("1")}}}};
}

auto responseTo(int id)
{
    return [id](const QJsonObject &o) {
        return !o.contains(QLatin1String("method")) && o.value(QLatin1String("id")) == QJsonValue(id);
    };
}

// Starts a helper, handshakes, waits until a tool that needs the registration answers.
// Returns the time to the initialize answer and to that first tool answer.
bool startHelper(HelperProcess &h, const Home &home, const Config &c, const QString &tty, bool brokerOnPath,
                 double *initMs = nullptr, double *readyMs = nullptr)
{
    QElapsedTimer t;
    t.start();
    if (!h.start(c.mcp, home.env(tty, brokerOnPath, c), home.path()))
        return false;
    h.writeLine(h.request(0, QStringLiteral("initialize"), initializeParams()));
    if (h.readUntil(responseTo(0), 10000).isEmpty())
        return false;
    if (initMs)
        *initMs = ms(t);
    h.writeLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    h.writeLine(
        h.request(1, QStringLiteral("tools/call"),
                  QJsonObject {{QStringLiteral("name"), QStringLiteral("list_peers")},
                               {QStringLiteral("arguments"),
                                QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")}}}}));
    const QJsonObject ready = h.readUntil(responseTo(1), 30000);
    if (ready.isEmpty() ||
        ready.value(QLatin1String("result")).toObject().value(QLatin1String("isError")).toBool())
        return false;
    if (readyMs)
        *readyMs = ms(t);
    return true;
}

QJsonObject benchLatency(const Config &c)
{
    Home home;
    if (!home.startBroker(c))
        return {{QStringLiteral("error"), QStringLiteral("broker did not start")}};
    HelperProcess a;
    HelperProcess b;
    const QString ttyB = QStringLiteral("pts/9002");
    if (!startHelper(a, home, c, QStringLiteral("pts/9001"), false) || !startHelper(b, home, c, ttyB, false))
        return {{QStringLiteral("error"), QStringLiteral("helpers did not start")}};
    const QString toB = peerIdForTty(ttyB);
    QList<double> push;
    QList<double> call;
    int lost = 0;
    int id = 100;
    for (int i = 0; i < c.warmup + c.messages; ++i) {
        const QString content = QStringLiteral("bench message %1").arg(i);
        const int requestId = ++id;
        const QByteArray line =
            a.request(requestId, QStringLiteral("tools/call"),
                      QJsonObject {{QStringLiteral("name"), QStringLiteral("send_message")},
                                   {QStringLiteral("arguments"),
                                    QJsonObject {{QStringLiteral("to_id"), toB},
                                                 {QStringLiteral("message"), content}}}});
        QElapsedTimer t;
        t.start();
        a.writeLine(line);
        // Both ends at once: whichever line arrives first is timed when it arrives.
        double pushMs = -1;
        double callMs = -1;
        while ((pushMs < 0 || callMs < 0) && t.elapsed() < 10000) {
            pollfd fds[2] = {{a.stdoutFd(), POLLIN, 0}, {b.stdoutFd(), POLLIN, 0}};
            if (::poll(fds, 2, 100) <= 0)
                continue;
            QList<QJsonObject> fromA;
            QList<QJsonObject> fromB;
            a.drain(&fromA);
            b.drain(&fromB);
            const double now = ms(t);
            for (const QJsonObject &o : std::as_const(fromB)) {
                if (pushMs < 0 &&
                    o.value(QLatin1String("method")) == QLatin1String("notifications/claude/channel") &&
                    o.value(QLatin1String("params")).toObject().value(QLatin1String("content")).toString() ==
                        content)
                    pushMs = now;
            }
            for (const QJsonObject &o : std::as_const(fromA)) {
                if (callMs < 0 && responseTo(requestId)(o))
                    callMs = now;
            }
        }
        if (pushMs < 0 || callMs < 0) {
            ++lost;
            continue;
        }
        if (i >= c.warmup) {
            push << pushMs;
            call << callMs;
        }
    }
    QJsonObject out = Stats::of(push).json();
    out.insert(QStringLiteral("messages"), push.size());
    out.insert(QStringLiteral("not_delivered"), lost);
    out.insert(QStringLiteral("measured"),
               QStringLiteral("tools/call send_message written to A's stdin -> "
                              "notifications/claude/channel read from B's stdout"));
    out.insert(QStringLiteral("send_message_result"), Stats::of(call).json());
    return out;
}

QJsonObject benchInitialize(const Config &c, bool cold)
{
    QList<double> init;
    QList<double> ready;
    Home home;
    if (!cold && !home.startBroker(c))
        return {{QStringLiteral("error"), QStringLiteral("broker did not start")}};
    const int runs = cold ? c.coldRuns : c.initRuns;
    for (int i = 0; i < runs; ++i) {
        HelperProcess h;
        double initMs = 0;
        double readyMs = 0;
        if (!startHelper(h, home, c, QStringLiteral("pts/%1").arg(9100 + i), cold, &initMs, &readyMs))
            return {{QStringLiteral("error"), QStringLiteral("helper run %1 failed").arg(i)}};
        init << initMs;
        ready << readyMs;
        h.closeStdin();
        h.waitExit(5000);
        if (cold)
            home.stopBroker(); // the helper's broker goes; the next run starts cold again
    }
    QJsonObject out = Stats::of(init).json();
    out.insert(QStringLiteral("runs"), runs);
    out.insert(QStringLiteral("ready"), Stats::of(ready).json());
    out.insert(
        QStringLiteral("measured"),
        cold ? QStringLiteral("fork -> initialize answer with no broker running (the helper starts one); "
                              "ready = first list_peers answered, broker start included")
             : QStringLiteral(
                   "fork -> initialize answer with the broker up; ready = first list_peers answered"));
    return out;
}

QJsonObject benchIdle(const Config &c)
{
    Home home;
    if (!home.startBroker(c))
        return {{QStringLiteral("error"), QStringLiteral("broker did not start")}};
    std::vector<std::unique_ptr<HelperProcess>> helpers;
    for (int i = 0; i < c.helpers; ++i) {
        auto h = std::make_unique<HelperProcess>();
        if (!startHelper(*h, home, c, QStringLiteral("pts/%1").arg(9200 + i), false))
            return {{QStringLiteral("error"), QStringLiteral("helper %1 did not start").arg(i)}};
        helpers.push_back(std::move(h));
    }
    QThread::sleep(3); // let start-up work settle
    std::vector<double> cpu0;
    for (auto &h : helpers)
        cpu0.push_back(h->cpuSeconds());
    const double broker0 = home.broker()->cpuSeconds();
    note(QStringLiteral("idle: %1 helpers for %2 s").arg(c.helpers).arg(c.idleSeconds));
    QThread::sleep(c.idleSeconds);
    QList<double> perHour;
    QList<double> rssMb;
    QList<double> threads;
    QList<double> pssMb;
    for (size_t i = 0; i < helpers.size(); ++i) {
        helpers[i]->drain();
        perHour << (helpers[i]->cpuSeconds() - cpu0[i]) / c.idleSeconds * 3600.0;
        rssMb << double(helpers[i]->rssBytes()) / (1024.0 * 1024.0);
        threads << helpers[i]->threadCount();
        pssMb << double(helpers[i]->pssBytes()) / (1024.0 * 1024.0);
    }
    const double brokerPerHour = (home.broker()->cpuSeconds() - broker0) / c.idleSeconds * 3600.0;
    QJsonObject out {{QStringLiteral("helpers"), c.helpers},
                     {QStringLiteral("seconds"), c.idleSeconds},
                     {QStringLiteral("cpu_s_per_hour"), Stats::of(perHour).json(QStringLiteral("s"))},
                     {QStringLiteral("rss_mb"), Stats::of(rssMb).json(QStringLiteral("mb"))},
                     {QStringLiteral("broker_cpu_s_per_hour"), std::round(brokerPerHour * 1000.0) / 1000.0},
                     {QStringLiteral("pss_mb"), Stats::of(pssMb).json(QStringLiteral("mb"))},
                     {QStringLiteral("threads"), Stats::of(threads).max},
                     {QStringLiteral("measured"),
                      QStringLiteral("CPU time of all threads (/proc/<pid>/task/*/schedstat, ns) over "
                                     "the window, extrapolated to one hour; VmRSS and PSS "
                                     "(shared pages divided among the processes) at the end")}};
    return out;
}

} // namespace

int main(int argc, char *argv[])
{
    ::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("peers-helper-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Benchmarks claude-peers-mcp: push latency between two helpers, "
                       "initialize time (warm and cold broker), idle CPU and RSS. JSON on stdout."));
    parser.addHelpOption();
    Config c;
    const QCommandLineOption mcpOpt(QStringLiteral("mcp"), QStringLiteral("claude-peers-mcp to measure."),
                                    QStringLiteral("path"), c.mcp);
    const QCommandLineOption brokerOpt(QStringLiteral("broker"),
                                       QStringLiteral("claude-peers-broker to use."), QStringLiteral("path"),
                                       c.broker);
    const QCommandLineOption messagesOpt(
        QStringLiteral("messages"), QStringLiteral("Latency samples (default 1000)."), QStringLiteral("n"));
    const QCommandLineOption helpersOpt(QStringLiteral("helpers"),
                                        QStringLiteral("Idle helpers (default 10)."), QStringLiteral("n"));
    const QCommandLineOption idleOpt(QStringLiteral("idle-seconds"),
                                     QStringLiteral("Idle window (default 60)."), QStringLiteral("s"));
    const QCommandLineOption initOpt(QStringLiteral("init-runs"),
                                     QStringLiteral("Warm initialize runs (default 20)."),
                                     QStringLiteral("n"));
    const QCommandLineOption coldOpt(QStringLiteral("cold-runs"),
                                     QStringLiteral("Cold initialize runs (default 5)."),
                                     QStringLiteral("n"));
    const QCommandLineOption onlyOpt(QStringLiteral("only"), QStringLiteral("latency, initialize or idle."),
                                     QStringLiteral("part"));
    parser.addOptions({mcpOpt, brokerOpt, messagesOpt, helpersOpt, idleOpt, initOpt, coldOpt, onlyOpt});
    parser.process(app);
    // Absolute: the children start in the temporary HOME.
    c.mcp = QFileInfo(parser.value(mcpOpt)).absoluteFilePath();
    c.broker = QFileInfo(parser.value(brokerOpt)).absoluteFilePath();
    auto intOpt = [&](const QCommandLineOption &o, int &out, int min) {
        if (!parser.isSet(o))
            return true;
        bool ok = false;
        const int v = parser.value(o).toInt(&ok);
        if (!ok || v < min) {
            note(QStringLiteral("--%1 must be an integer >= %2").arg(o.names().constFirst()).arg(min));
            return false;
        }
        out = v;
        return true;
    };
    if (!intOpt(messagesOpt, c.messages, 1) || !intOpt(helpersOpt, c.helpers, 1) ||
        !intOpt(idleOpt, c.idleSeconds, 1) || !intOpt(initOpt, c.initRuns, 1) ||
        !intOpt(coldOpt, c.coldRuns, 1))
        return 2;
    for (const QString &exe : {c.mcp, c.broker}) {
        if (!QFileInfo(exe).isExecutable()) {
            note(exe + QStringLiteral(" is not an executable: build it or pass --mcp/--broker"));
            return 2;
        }
    }
    const QString only = parser.value(onlyOpt);
    QJsonObject result {{QStringLiteral("helper"), QFileInfo(c.mcp).absoluteFilePath()},
                        {QStringLiteral("cpus"), QThread::idealThreadCount()}};
    if (only.isEmpty() || only == QLatin1String("latency")) {
        note(QStringLiteral("latency: %1 messages").arg(c.messages));
        result.insert(QStringLiteral("latency"), benchLatency(c));
    }
    if (only.isEmpty() || only == QLatin1String("initialize")) {
        note(QStringLiteral("initialize: %1 warm, %2 cold runs").arg(c.initRuns).arg(c.coldRuns));
        result.insert(QStringLiteral("initialize"),
                      QJsonObject {{QStringLiteral("warm"), benchInitialize(c, false)},
                                   {QStringLiteral("cold"), benchInitialize(c, true)}});
    }
    if (only.isEmpty() || only == QLatin1String("idle"))
        result.insert(QStringLiteral("idle"), benchIdle(c));
    result.insert(QStringLiteral("targets"),
                  QJsonObject {{QStringLiteral("latency_p50_ms"), 2},
                               {QStringLiteral("latency_p99_ms"), 10},
                               {QStringLiteral("initialize_warm_ms"), 15},
                               {QStringLiteral("initialize_cold_ms"), 60},
                               {QStringLiteral("idle_cpu_s_per_hour"), 0.2},
                               {QStringLiteral("idle_rss_mb"), 12}});
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Indented).constData());
    return 0;
}
