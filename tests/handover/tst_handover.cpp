// Hand-over of the listening sockets between real broker processes (issue 11 §3): while a
// client asks GET /health on fresh connections without pause and two real helpers stream
// messages, the broker is replaced many times — `claude-peers restart` (headless → headless,
// PEERS_HANDOVER_RESTARTS times, default 10), the tray starting (headless → tray), a headless
// broker started by hand (tray → headless; the tray stays as its client). No connection may be
// refused or reset, no send may fail (a send whose kept-alive connection the old broker closed
// is sent again with its Idempotency-Key), and every acknowledged message must reach the
// receiving session exactly once. Also: systemd socket activation (fd 3, LISTEN_PID), a
// stale hand-over socket, the socket file's life. Prints the counts.
#include "tests/fault/faultsupport.h"
#include "tests/handover/healthhammer.h"
#include "tests/mcp_stdio/helperenv.h"
#include "tests/tray/trayprocess.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace TestSupport;
using namespace FaultSupport;

namespace {

const QString TtyA = QStringLiteral("pts/301");
const QString TtyB = QStringLiteral("pts/302");

QString handoverSocket(const TestHome &home)
{
    return home.runtimeDir() + QStringLiteral("/claude-peers-broker-%1.handover").arg(home.port());
}

qint64 healthPid(quint16 port)
{
    const auto health = httpGet(port, QStringLiteral("/health"), 2000);
    return health.status == 200 ? health.object().value(QStringLiteral("pid")).toInteger() : 0;
}

bool alive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

// Every broker a test saw is killed when it ends, by pid (they are detached, not our children).
struct PidGuard
{
    QSet<qint64> pids;
    ~PidGuard()
    {
        for (qint64 pid : std::as_const(pids)) {
            if (alive(pid))
                ::kill(pid_t(pid), SIGKILL);
        }
    }
};

// The stream of the brokerkill test, without kills: keeps `window` sends in flight and
// records which were acknowledged.
class Stream
{
public:
    Stream(McpClient &from, QString to) : m_from(from), m_to(std::move(to)) { }

    void pump(int window)
    {
        while (m_inFlight.size() < window) {
            const QString text = QStringLiteral("m%1").arg(m_seq++);
            const int id = m_from.request(
                QStringLiteral("tools/call"),
                QJsonObject {{QStringLiteral("name"), QStringLiteral("send_message")},
                             {QStringLiteral("arguments"),
                              args({{QStringLiteral("to_id"), m_to}, {QStringLiteral("message"), text}})}});
            m_inFlight.insert(id, text);
        }
        const QList<QJsonObject> lines = m_from.allLines();
        for (; m_read < lines.size(); ++m_read) {
            const QJsonObject &line = lines.at(m_read);
            const int id = line.value(QLatin1String("id")).toInt();
            if (line.contains(QLatin1String("method")) || !m_inFlight.contains(id))
                continue;
            const QString text = m_inFlight.take(id);
            const QJsonObject result = line.value(QLatin1String("result")).toObject();
            const QString answer = McpClient::text(result);
            if (!McpClient::isError(result) && answer.startsWith(QLatin1String("Message sent")))
                acknowledged.insert(text);
            else
                refusals << answer;
        }
    }
    bool idle() const { return m_inFlight.isEmpty(); }

    QSet<QString> acknowledged;
    QStringList refusals;

private:
    McpClient &m_from;
    QString m_to;
    QHash<int, QString> m_inFlight;
    int m_seq = 0;
    qsizetype m_read = 0;
};

} // namespace

class tst_Handover : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(brokerExe()));
        QVERIFY(QFileInfo::exists(cliExe()));
        QVERIFY(QFileInfo::exists(mcpExe()));
    }

    void handoversUnderLoadRefuseNoConnection()
    {
        TestHome home;
        PidGuard guard;
        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("CLAUDE_PEERS_RATE_LIMIT"), QStringLiteral("0"));

        QProcess first;
        first.setProcessEnvironment(env);
        first.start(brokerExe(), {});
        QVERIFY(first.waitForStarted());
        guard.pids << first.processId();
        QVERIFY(
            McpClient::waitUntil([&] { return healthPid(home.port()) == first.processId(); }, scaled(10000)));

        auto a = startHelper(home, TtyA, false);
        auto b = startHelper(home, TtyB, false);
        QVERIFY(a && b);
        Stream stream(*a, idOf(TtyB));
        HealthHammer hammer(home.port());
        hammer.start();

        // Each step replaces the broker; the stream and the hammer go on throughout.
        const auto streamFor = [&](int ms) {
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < ms) {
                stream.pump(8);
                QTest::qWait(1);
            }
        };
        const auto waitForNewBroker = [&](qint64 previous) {
            qint64 now = 0;
            const bool changed = McpClient::waitUntil(
                [&] {
                    stream.pump(8);
                    now = healthPid(home.port());
                    return now > 0 && now != previous;
                },
                scaled(20000));
            if (changed)
                guard.pids << now;
            return changed ? now : 0;
        };
        QStringList steps;
        qint64 current = first.processId();
        streamFor(500);

        // 1. headless → headless: claude-peers restart --json. Before sends were re-sent with an
        // Idempotency-Key, about one hand-over in four cost a failed send (14 in 48), so ten
        // of them show that race.
        bool ok = false;
        int restarts = qEnvironmentVariableIntValue("PEERS_HANDOVER_RESTARTS", &ok);
        if (!ok || restarts < 1)
            restarts = 10;
        for (int round = 0; round < restarts; ++round) {
            QProcess restart;
            restart.setProcessEnvironment(env);
            restart.start(cliExe(), {QStringLiteral("restart"), QStringLiteral("--json")});
            QVERIFY(restart.waitForStarted());
            const bool finished = McpClient::waitUntil(
                [&] {
                    stream.pump(8);
                    return restart.state() == QProcess::NotRunning;
                },
                scaled(30000));
            QVERIFY(finished);
            const QByteArray out = restart.readAllStandardOutput();
            QVERIFY2(restart.exitCode() == 0, QByteArray(out + restart.readAllStandardError()).constData());
            const QJsonObject report = QJsonDocument::fromJson(out).object();
            QCOMPARE(report.value(QStringLiteral("method")).toString(), QStringLiteral("handover"));
            QCOMPARE(report.value(QStringLiteral("old_pid")).toInteger(), current);
            const qint64 next = report.value(QStringLiteral("new_pid")).toInteger();
            guard.pids << next;
            QCOMPARE(healthPid(home.port()), next);
            QTRY_VERIFY_WITH_TIMEOUT(!alive(current), scaled(10000));
            steps << QStringLiteral("restart %1→%2 in %3 ms")
                         .arg(current)
                         .arg(next)
                         .arg(report.value(QStringLiteral("ms")).toInteger());
            current = next;
            streamFor(500);
        }

        // 2. headless → tray, 3. tray → headless (a broker started by hand).
        TrayTestSupport::TrayProcess tray(env);
        QProcess headless; // the last broker: it lives until the end of the test
        headless.setProcessEnvironment(env);
        if (!QFileInfo::exists(trayExe())) {
            steps << QStringLiteral("tray not built: headless ↔ tray skipped");
        } else {
            QVERIFY(tray.start());
            const qint64 trayPid = tray.process().processId();
            const qint64 served = waitForNewBroker(current);
            QVERIFY2(served == trayPid, tray.log());
            QTRY_VERIFY_WITH_TIMEOUT(!alive(current), scaled(10000));
            QVERIFY2(tray.log().contains("Hand-over: took the listening sockets"), tray.log());
            steps << QStringLiteral("tray %1 took over from %2").arg(trayPid).arg(current);
            current = trayPid;
            streamFor(500);

            headless.start(brokerExe(), {});
            QVERIFY(headless.waitForStarted());
            guard.pids << headless.processId();
            QCOMPARE(waitForNewBroker(current), headless.processId());
            // The tray's broker handed over: the tray stays, as the new broker's client.
            QVERIFY(McpClient::waitUntil(
                [&] {
                    stream.pump(8);
                    return tray.log().contains("staying as its client");
                },
                scaled(10000)));
            streamFor(300);
            QVERIFY2(tray.process().state() == QProcess::Running, tray.log());
            steps << QStringLiteral("headless %1 took over from the tray %2 (the tray stays)")
                         .arg(headless.processId())
                         .arg(current);
            current = headless.processId();
            streamFor(500);
        }

        // Drain the stream, stop the hammer.
        QVERIFY(McpClient::waitUntil(
            [&] {
                stream.pump(0);
                return stream.idle();
            },
            scaled(30000)));
        hammer.stop();

        QHash<QString, int> received;
        qsizetype readB = 0;
        const auto collect = [&] {
            collectReceived(*b, idOf(TtyA), readB, received);
            for (const QString &text : std::as_const(stream.acknowledged)) {
                if (!received.contains(text))
                    return false;
            }
            return true;
        };
        McpClient::waitUntil(collect, scaled(30000));
        QTest::qWait(1000); // long enough for a duplicate to show
        collect();
        int lost = 0;
        for (const QString &text : std::as_const(stream.acknowledged))
            lost += received.contains(text) ? 0 : 1;
        int duplicates = 0;
        for (int n : std::as_const(received))
            duplicates += n - 1;

        for (const QString &step : std::as_const(steps))
            qInfo().noquote() << "  " << step;
        QStringList kinds;
        const auto errorKinds = hammer.errorKinds();
        for (auto it = errorKinds.cbegin(); it != errorKinds.cend(); ++it)
            kinds << QStringLiteral("%1 x %2").arg(it.value()).arg(it.key());
        qInfo().noquote()
            << QStringLiteral(
                   "hand-over under load: %1 hand-overs; /health on fresh connections: %2 answered "
                   "by %3 brokers, %4 connection errors%5, worst answer %6 ms; stream: %7 "
                   "acknowledged, %8 received, %9 lost, %10 duplicates, %11 sends refused")
                   .arg(steps.size())
                   .arg(hammer.answered())
                   .arg(hammer.answersByPid().size())
                   .arg(hammer.errors())
                   .arg(kinds.isEmpty() ? QString() : QStringLiteral(" (") + kinds.join(u", ") + u')')
                   .arg(hammer.maxLatencyMs(), 0, 'f', 1)
                   .arg(stream.acknowledged.size())
                   .arg(received.size())
                   .arg(lost)
                   .arg(duplicates)
                   .arg(stream.refusals.size());
        for (const QString &refusal :
             std::as_const(stream.refusals).first(qMin<qsizetype>(3, stream.refusals.size())))
            qInfo().noquote() << "  refused:" << refusal;
        QCOMPARE(hammer.errors(), 0);
        QCOMPARE(stream.refusals.size(), 0);
        QVERIFY(hammer.answersByPid().size() >= 3);
        QVERIFY(stream.acknowledged.size() > 100);
        QCOMPARE(lost, 0);
        QCOMPARE(duplicates, 0);
        QVERIFY(a->nonJsonLines().isEmpty());
        QVERIFY(b->nonJsonLines().isEmpty());
        // The last broker's socket file exists; after it stops, it is gone.
        QVERIFY(QFileInfo::exists(handoverSocket(home)));
        ::kill(pid_t(current), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(!alive(current), scaled(10000));
        QVERIFY(!QFileInfo::exists(handoverSocket(home)));
    }

    // systemd's way: the listening socket is fd 3, LISTEN_FDS=1, LISTEN_PID = the broker's pid
    // (a shell sets it to its own pid and execs the broker, which keeps that pid).
    void adoptsASocketFromSystemd()
    {
        TestHome home;
        PidGuard guard;
        const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
        QCOMPARE(::listen(listener, 64), 0);
        socklen_t length = sizeof(address);
        ::getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length);
        const quint16 port = ntohs(address.sin_port);

        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(port));
        env.insert(QStringLiteral("LISTEN_FDS"), QStringLiteral("1"));
        QProcess broker;
        broker.setProcessEnvironment(env);
        broker.setProcessChannelMode(QProcess::SeparateChannels);
        broker.setChildProcessModifier([listener] { ::dup2(listener, 3); }); // dup2 clears FD_CLOEXEC
        broker.start(QStringLiteral("/bin/sh"),
                     {QStringLiteral("-c"), QStringLiteral("LISTEN_PID=$$ exec \"$0\""), brokerExe()});
        QVERIFY(broker.waitForStarted());
        guard.pids << broker.processId();
        // Nothing else could listen there while we hold the socket: an answer means it adopted it.
        QVERIFY(McpClient::waitUntil([&] { return healthPid(port) == broker.processId(); }, scaled(10000)));
        ::close(listener);
        QCOMPARE(healthPid(port), broker.processId());
        broker.terminate();
        QVERIFY(broker.waitForFinished(scaled(10000)));
        const QByteArray log = broker.readAllStandardError();
        QVERIFY2(log.contains(
                     QByteArray("Socket activation: listening socket on port " + QByteArray::number(port))),
                 log);
        QCOMPARE(healthPid(port), 0);
    }

    void staleHandoverSocketFallsBackCleanly()
    {
        TestHome home;
        PidGuard guard;
        {
            // A socket file nobody listens on (a broker killed with SIGKILL leaves one).
            const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET, 0);
            sockaddr_un address {};
            address.sun_family = AF_UNIX;
            const QByteArray name = QFile::encodeName(handoverSocket(home));
            std::memcpy(address.sun_path, name.constData(), size_t(name.size()));
            QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
            ::close(fd);
        }
        BrokerProcess broker(home);
        QVERIFY(broker.start(scaled(10000)));
        guard.pids << broker.pid();
        QCOMPARE(healthPid(home.port()), broker.pid());
        broker.terminate();
        const QByteArray log = broker.stderrOutput();
        QVERIFY2(
            log.contains("Hand-over from the running broker failed (nobody listens on the hand-over socket"),
            log);
        QVERIFY2(log.contains("Removing a stale hand-over socket"), log);
        QVERIFY(!QFileInfo::exists(handoverSocket(home)));
    }

    // A broker without a hand-over socket (an older version, or one that cannot create it):
    // restart falls back to kill-broker + start, and says so.
    void restartFallsBackWithoutAHandoverSocket()
    {
        TestHome home;
        PidGuard guard;
        BrokerProcess broker(home);
        QVERIFY(broker.start(scaled(10000)));
        guard.pids << broker.pid();
        QVERIFY(QFile::remove(handoverSocket(home))); // as a broker of the version before
        // The same client as above: here the port is closed for a while, and it must notice.
        HealthHammer hammer(home.port());
        hammer.start();
        const RunResult r = run(cliExe(), {QStringLiteral("restart"), QStringLiteral("--json")},
                                home.environment(), scaled(30000));
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        guard.pids << report.value(QStringLiteral("new_pid")).toInteger();
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(report.value(QStringLiteral("method")).toString(), QStringLiteral("stop-start"));
        QCOMPARE(report.value(QStringLiteral("old_pid")).toInteger(), broker.pid());
        QVERIFY2(r.err.contains("exited without taking over"), r.err);
        QCOMPARE(healthPid(home.port()), report.value(QStringLiteral("new_pid")).toInteger());
        hammer.stop();
        qInfo().noquote() << QStringLiteral(
                                 "restart without hand-over: /health %1 answered, %2 connection errors")
                                 .arg(hammer.answered())
                                 .arg(hammer.errors());
        QVERIFY(hammer.errors() > 0); // what the hand-over avoids
    }
};

QTEST_GUILESS_MAIN(tst_Handover)
#include "tst_handover.moc"
