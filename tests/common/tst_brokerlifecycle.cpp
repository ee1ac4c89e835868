// Broker::BrokerLifecycle against real processes: the real claude-peers-broker (named through
// CLAUDE_PEERS_BROKER_EXE), a temp HOME, a port the OS picked. Every process a test starts is
// killed by its pid in cleanup(). The helper, the tray and the CLI only add words around it.
#include "common/brokerclient.h"
#include "common/brokerlifecycle.h"
#include "common/liveness.h"
#include "common/tokenfile.h"

#include "tests/support/testsupport.h"

#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <csignal>
#include <memory>
#include <optional>

using Broker::BrokerLifecycle;
using TestSupport::scaled;

namespace {

// A program that is not a broker on the broker's port: answers every request with JSON of its
// own and remembers what it was asked.
class Stranger : public QTcpServer
{
public:
    Stranger()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    const QByteArray seen = socket->property("seen").toByteArray() + socket->readAll();
                    socket->setProperty("seen", seen);
                    if (!seen.contains("\r\n\r\n") || socket->property("answered").toBool())
                        return;
                    socket->setProperty("answered", true);
                    m_requests += seen.left(seen.indexOf("\r\n"));
                    const QByteArray body = R"({"service":"something else","version":3})";
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                  "Content-Length: " +
                                  QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }
    QList<QByteArray> requests() const { return m_requests; }

private:
    QList<QByteArray> m_requests;
};

template<typename T> using Outcome = std::optional<Broker::Result<T>>;

// The failure's message, for a QVERIFY2 that expects success (evaluated either way).
template<typename T> QString why(const Broker::Result<T> &result)
{
    return result ? QString() : result.error().message;
}

bool portIsFree(quint16 port)
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, port);
}

} // namespace

class tst_BrokerLifecycle : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSupport::TestHome> m_home;
    std::unique_ptr<Broker::BrokerClient> m_client;
    QList<qint64> m_pids; // started detached (not our children): killed by pid in cleanup()
    QTemporaryDir m_scripts;

    BrokerLifecycle::Options options() const
    {
        BrokerLifecycle::Options o;
        o.environment = m_home->environment();
        o.programName = QStringLiteral("tst_brokerlifecycle");
        o.startTimeoutMs = scaled(15000);
        o.stopTimeoutMs = scaled(10000);
        return o;
    }

    // A stand-in for claude-peers-broker that never serves.
    QString script(const QString &name, const QByteArray &body)
    {
        const QString path = m_scripts.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write("#!/bin/sh\n" + body + '\n');
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    void watchLaunches(BrokerLifecycle &lifecycle)
    {
        connect(&lifecycle, &BrokerLifecycle::launched, this, [this](qint64 pid) { m_pids << pid; });
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(!TestSupport::brokerExe().isEmpty()); }

    void init()
    {
        m_home = std::make_unique<TestSupport::TestHome>();
        m_client =
            std::make_unique<Broker::BrokerClient>(Broker::Location::fromEnvironment(m_home->environment()));
        qputenv("CLAUDE_PEERS_BROKER_EXE", QFile::encodeName(TestSupport::brokerExe()));
    }

    void cleanup()
    {
        m_client.reset();
        for (qint64 pid : std::as_const(m_pids)) {
            if (Broker::Liveness::isProcessAlive(pid))
                ::kill(pid_t(pid), SIGKILL);
            QTRY_VERIFY_WITH_TIMEOUT(!Broker::Liveness::isProcessAlive(pid), scaled(5000));
        }
        m_pids.clear();
        m_home.reset();
        qunsetenv("CLAUDE_PEERS_BROKER_EXE");
    }

    void startsABrokerWhenNothingAnswers()
    {
        BrokerLifecycle lifecycle(m_client.get(), options());
        watchLaunches(lifecycle);
        QSignalSpy launched(&lifecycle, &BrokerLifecycle::launched);
        Outcome<BrokerLifecycle::Started> outcome;
        lifecycle.ensureRunning([&](auto result) { outcome = result; });
        QVERIFY(lifecycle.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), scaled(20000));
        QVERIFY2(outcome->has_value(), qPrintable(why(*outcome)));
        const BrokerLifecycle::Started started = **outcome;
        QCOMPARE(launched.count(), 1);
        QCOMPARE(launched.first().at(1).toString(), TestSupport::brokerExe());
        QVERIFY(started.startedPid > 0);
        QCOMPARE(started.health.pid, started.startedPid);
        QVERIFY(started.health.hasCapability(QStringLiteral("wait-messages")));
        QCOMPARE(started.health.databaseId.size(), 32);
        QVERIFY(!lifecycle.isBusy());
        // It serves, with the home's token, and is not our child (detached).
        const auto health = TestSupport::httpGet(m_home->port(), QStringLiteral("/health"));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.object().value(QLatin1String("pid")).toInteger(), started.startedPid);
        QVERIFY(::getsid(pid_t(started.startedPid)) != ::getsid(0)); // a session of its own
    }

    void reusesARunningBroker()
    {
        TestSupport::BrokerProcess broker(*m_home);
        QVERIFY2(broker.start(), broker.stderrOutput().constData());
        BrokerLifecycle lifecycle(m_client.get(), options());
        watchLaunches(lifecycle);
        QSignalSpy launched(&lifecycle, &BrokerLifecycle::launched);
        Outcome<BrokerLifecycle::Started> outcome;
        lifecycle.ensureRunning([&](auto result) { outcome = result; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), scaled(10000));
        QVERIFY2(outcome->has_value(), qPrintable(why(*outcome)));
        QCOMPARE((*outcome)->startedPid, qint64(0));
        QCOMPARE((*outcome)->health.pid, broker.pid());
        QCOMPARE(launched.count(), 0);
        QCOMPARE(broker.process().state(), QProcess::Running);
    }

    void handOverStopsTheOldBrokerAndFreesItsPort()
    {
        TestSupport::BrokerProcess broker(*m_home);
        QVERIFY2(broker.start(), broker.stderrOutput().constData());
        const qint64 oldPid = broker.pid();
        BrokerLifecycle lifecycle(m_client.get(), options());
        QSignalSpy stopping(&lifecycle, &BrokerLifecycle::stopping);
        QSignalSpy signalled(&lifecycle, &BrokerLifecycle::signalled);
        Outcome<BrokerLifecycle::Stopped> outcome;
        lifecycle.stop([&](auto result) { outcome = result; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), scaled(15000));
        QVERIFY2(outcome->has_value(), qPrintable(why(*outcome)));
        QVERIFY((*outcome)->wasRunning);
        QCOMPARE((*outcome)->pid, oldPid);
        QVERIFY(!(*outcome)->signalled);
        QCOMPARE(stopping.count(), 1);
        QCOMPARE(signalled.count(), 0);
        // Done means done: the process is gone (it exited by itself, cleanly) and the port free.
        QVERIFY(!Broker::Liveness::isProcessAlive(oldPid));
        QTRY_COMPARE_WITH_TIMEOUT(broker.process().state(), QProcess::NotRunning, scaled(5000));
        QCOMPARE(broker.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(broker.process().exitCode(), 0);
        QVERIFY(portIsFree(m_home->port()));

        // Nothing answers any more: a second stop has nothing to do.
        Outcome<BrokerLifecycle::Stopped> again;
        lifecycle.stop([&](auto result) { again = result; });
        QTRY_VERIFY_WITH_TIMEOUT(again.has_value(), scaled(10000));
        QVERIFY(again->has_value());
        QVERIFY(!(*again)->wasRunning);
    }

    void strangerOnThePortIsAnErrorAndNeverAskedToShutDown()
    {
        Stranger stranger;
        QVERIFY(stranger.listen(QHostAddress::LocalHost, m_home->port()));
        BrokerLifecycle::Options o = options();
        o.signalWhenRefused = true;
        BrokerLifecycle lifecycle(m_client.get(), o);
        watchLaunches(lifecycle);
        QSignalSpy launched(&lifecycle, &BrokerLifecycle::launched);

        Outcome<BrokerLifecycle::Stopped> stopped;
        lifecycle.stop([&](auto result) { stopped = result; });
        QTRY_VERIFY_WITH_TIMEOUT(stopped.has_value(), scaled(10000));
        QVERIFY(!stopped->has_value());
        QCOMPARE(stopped->error().kind, Broker::ErrorKind::NotABroker);
        QVERIFY2(stopped->error().message.contains(QStringLiteral("not a claude-peers broker")),
                 qPrintable(stopped->error().message));

        Outcome<BrokerLifecycle::Started> started;
        lifecycle.ensureRunning([&](auto result) { started = result; });
        QTRY_VERIFY_WITH_TIMEOUT(started.has_value(), scaled(10000));
        QVERIFY(!started->has_value());
        QCOMPARE(started->error().kind, Broker::ErrorKind::NotABroker);
        QCOMPARE(launched.count(), 0); // no broker started against a busy port either

        for (const QByteArray &request : stranger.requests())
            QVERIFY2(request.startsWith("GET /health "), request.constData());
        QCOMPARE(stranger.requests().size(), 2);
    }

    void brokerThatRefusesShutdownIsAnError()
    {
        // The broker reads another token file, so ours is refused with 401.
        const QString otherToken = m_home->path() + QStringLiteral("/other-token");
        QVERIFY(Broker::TokenFile::write(otherToken, Broker::TokenFile::generate()).has_value());
        QVERIFY(Broker::TokenFile::write(m_home->tokenPath(), Broker::TokenFile::generate()).has_value());
        QProcessEnvironment extra;
        extra.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), otherToken);
        TestSupport::BrokerProcess broker(*m_home, extra);
        QVERIFY2(broker.start(), broker.stderrOutput().constData());
        const qint64 oldPid = broker.pid();

        BrokerLifecycle lifecycle(m_client.get(), options()); // no signal fallback
        Outcome<BrokerLifecycle::Stopped> outcome;
        lifecycle.stop([&](auto result) { outcome = result; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), scaled(10000));
        QVERIFY(!outcome->has_value());
        QCOMPARE(outcome->error().kind, Broker::ErrorKind::ShutdownRefused);
        QVERIFY2(outcome->error().message.contains(QStringLiteral("refused to shut down")) &&
                     outcome->error().message.contains(QStringLiteral("401")),
                 qPrintable(outcome->error().message));
        QCOMPARE(broker.process().state(), QProcess::Running);
        QCOMPARE(TestSupport::httpGet(m_home->port(), QStringLiteral("/health")).status, 200);

        // Where allowed (the CLI), the pid that both the pid file and /health name gets SIGTERM.
        BrokerLifecycle::Options o = options();
        o.signalWhenRefused = true;
        lifecycle.setOptions(o);
        QSignalSpy signalled(&lifecycle, &BrokerLifecycle::signalled);
        Outcome<BrokerLifecycle::Stopped> forced;
        lifecycle.stop([&](auto result) { forced = result; });
        QTRY_VERIFY_WITH_TIMEOUT(forced.has_value(), scaled(15000));
        QVERIFY2(forced->has_value(), qPrintable(why(*forced)));
        QVERIFY((*forced)->signalled);
        QCOMPARE((*forced)->pid, oldPid);
        QCOMPARE(signalled.count(), 1);
        QCOMPARE(signalled.first().at(0).toLongLong(), oldPid);
        QTRY_COMPARE_WITH_TIMEOUT(broker.process().state(), QProcess::NotRunning, scaled(5000));
        QVERIFY(portIsFree(m_home->port()));
    }

    void startDeadlinePassesIsAnError()
    {
        const QString hanging = script(QStringLiteral("hanging-broker"), "exec sleep 600");
        QVERIFY(!hanging.isEmpty());
        qputenv("CLAUDE_PEERS_BROKER_EXE", QFile::encodeName(hanging));
        BrokerLifecycle::Options o = options();
        o.startTimeoutMs = 600;
        BrokerLifecycle lifecycle(m_client.get(), o);
        watchLaunches(lifecycle);
        Outcome<BrokerLifecycle::Started> outcome;
        QElapsedTimer clock;
        clock.start();
        lifecycle.ensureRunning([&](auto result) { outcome = result; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), scaled(10000));
        QVERIFY(clock.elapsed() >= 600);
        QVERIFY(!outcome->has_value());
        QCOMPARE(outcome->error().kind, Broker::ErrorKind::StartTimeout);
        QVERIFY2(
            outcome->error().message.contains(QStringLiteral("Failed to start broker daemon after 600ms")),
            qPrintable(outcome->error().message));
        QCOMPARE(m_pids.size(), 1);
        QVERIFY(Broker::Liveness::isProcessAlive(m_pids.first())); // still hanging: cleanup() kills it
    }

    void brokerThatExitsAtOnceIsAnError()
    {
        const QString failing = script(QStringLiteral("failing-broker"), "exit 1");
        qputenv("CLAUDE_PEERS_BROKER_EXE", QFile::encodeName(failing));
        BrokerLifecycle lifecycle(m_client.get(), options()); // 15 s deadline: must not wait for it
        watchLaunches(lifecycle);
        Outcome<BrokerLifecycle::Started> outcome;
        lifecycle.ensureRunning([&](auto result) { outcome = result; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), scaled(10000));
        QVERIFY(!outcome->has_value());
        QCOMPARE(outcome->error().kind, Broker::ErrorKind::BrokerExited);
        QVERIFY2(outcome->error().message.contains(QStringLiteral("exited without serving")),
                 qPrintable(outcome->error().message));
    }

    void missingBrokerProgramIsAnError()
    {
        qputenv("CLAUDE_PEERS_BROKER_EXE", QFile::encodeName(m_home->path() + QStringLiteral("/none")));
        BrokerLifecycle lifecycle(m_client.get(), options());
        Outcome<BrokerLifecycle::Started> outcome;
        lifecycle.ensureRunning([&](auto result) { outcome = result; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), scaled(10000));
        QVERIFY(!outcome->has_value());
        QCOMPARE(outcome->error().kind, Broker::ErrorKind::BrokerNotFound);
        QVERIFY2(outcome->error().message.startsWith(QStringLiteral("No broker answers at")) &&
                     outcome->error().message.contains(QStringLiteral("is not an executable file")),
                 qPrintable(outcome->error().message));
    }

    void abortDropsTheCallback()
    {
        BrokerLifecycle lifecycle(m_client.get(), options());
        watchLaunches(lifecycle);
        bool called = false;
        lifecycle.ensureRunning([&](auto) { called = true; });
        lifecycle.abort();
        QVERIFY(!lifecycle.isBusy());
        // Long enough for the probe to fail and a start to be (not) attempted.
        QTest::qWait(scaled(500));
        QVERIFY(!called);
        QVERIFY(m_pids.isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_BrokerLifecycle)
#include "tst_brokerlifecycle.moc"
