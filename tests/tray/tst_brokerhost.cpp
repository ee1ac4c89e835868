// BrokerHost: starting the in-process broker and taking the port over from one that serves it.
#include "app/tray/brokerhost.h"
#include "common/tokenfile.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using App::BrokerHost;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

namespace {

// Answers every request with one fixed JSON body: stands in for a broker that claims to be
// healthy and to accept /shutdown but never lets go of its port.
class StubbornBroker : public QTcpServer
{
public:
    explicit StubbornBroker(QByteArray body) : m_body(std::move(body))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    const QByteArray chunk = socket->readAll();
                    m_requests += chunk;
                    const QByteArray seen = socket->property("seen").toByteArray() + chunk;
                    socket->setProperty("seen", seen);
                    if (!seen.contains("\r\n\r\n") || socket->property("answered").toBool())
                        return;
                    socket->setProperty("answered", true);
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                  "Content-Length: " +
                                  QByteArray::number(m_body.size()) + "\r\n\r\n" + m_body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }
    QByteArray requests() const { return m_requests; }

private:
    QByteArray m_body;
    QByteArray m_requests;
};

} // namespace

class tst_BrokerHost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsOnAFreePort()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        QSignalSpy started(&host, &BrokerHost::started);
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        QCOMPARE(started.count(), 1);
        QCOMPARE(host.previousBrokerPid(), 0);
        const auto health = TestSupport::httpGet(home.port(), QStringLiteral("/health"));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.object().value(QStringLiteral("pid")).toInteger(),
                 QCoreApplication::applicationPid());

        host.start(); // already running: nothing happens
        QCOMPARE(started.count(), 1);
        QCOMPARE(host.state(), BrokerHost::State::Running);
    }

    void stopReleasesPortAndLock()
    {
        TestSupport::TestHome home;
        {
            BrokerHost host(settingsFor(home));
            host.start();
            QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
            host.stop();
            QCOMPARE(host.state(), BrokerHost::State::Stopped);
            QCOMPARE(TestSupport::httpGet(home.port(), QStringLiteral("/health"), 1000).status, 0);

            host.start(); // the same host starts again after a stop
            QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        } // destructor stops it
        TestSupport::BrokerProcess headless(home);
        QVERIFY2(headless.start(), headless.stderrOutput().constData());
    }

    void takesOverFromAHeadlessBroker()
    {
        TestSupport::TestHome home;
        TestSupport::BrokerProcess headless(home);
        QVERIFY2(headless.start(), headless.stderrOutput().constData());
        const qint64 oldPid = headless.pid();

        // A peer registered with the old broker lives in SQLite and must survive.
        const QByteArray token = home.token();
        const auto reg =
            TestSupport::httpPostJson(home.port(), QStringLiteral("/register"),
                                      {{QStringLiteral("pid"), QCoreApplication::applicationPid()},
                                       {QStringLiteral("cwd"), QStringLiteral("/work/before")},
                                       {QStringLiteral("git_root"), QJsonValue::Null},
                                       {QStringLiteral("tty"), QJsonValue::Null}},
                                      token);
        QCOMPARE(reg.status, 200);
        const QString peerId = reg.object().value(QStringLiteral("id")).toString();
        QVERIFY(!peerId.isEmpty());

        BrokerHost host(settingsFor(home));
        QList<BrokerHost::State> states;
        connect(&host, &BrokerHost::stateChanged, this, [&](BrokerHost::State s) { states << s; });
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(15000));
        QVERIFY(states.contains(BrokerHost::State::HandingOver));
        QCOMPARE(host.previousBrokerPid(), oldPid);

        QTRY_COMPARE_WITH_TIMEOUT(headless.process().state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(headless.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(headless.process().exitCode(), 0);

        const auto health = TestSupport::httpGet(home.port(), QStringLiteral("/health"));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.object().value(QStringLiteral("pid")).toInteger(),
                 QCoreApplication::applicationPid());

        const auto listed = [&] {
            const QList<Broker::Peer> &peers = host.snapshot().peers;
            return std::any_of(peers.begin(), peers.end(),
                               [&](const Broker::Peer &p) { return p.id == peerId; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(listed(), scaled(5000));
        // …and clients see it over HTTP with the same token.
        const auto list = TestSupport::httpPostJson(home.port(), QStringLiteral("/list-peers"),
                                                    {{QStringLiteral("scope"), QStringLiteral("machine")},
                                                     {QStringLiteral("cwd"), QStringLiteral("/")},
                                                     {QStringLiteral("git_root"), QJsonValue::Null}},
                                                    home.token());
        QCOMPARE(list.status, 200);
        QVERIFY2(list.body.contains(peerId.toUtf8()), list.body.constData());
    }

    // The hand-over socket (same runtime dir as the headless broker): the tray gets its listening
    // socket, never sees the port closed, and later hands it on to another headless broker.
    void takesTheListeningSocketsOverAndHandsThemOn()
    {
        TestSupport::TestHome home;
        const QByteArray runtime = qgetenv("XDG_RUNTIME_DIR");
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(home.runtimeDir()));
        const auto restore = qScopeGuard([&] {
            if (runtime.isEmpty())
                qunsetenv("XDG_RUNTIME_DIR");
            else
                qputenv("XDG_RUNTIME_DIR", runtime);
        });
        const QString socketFile =
            home.runtimeDir() + QStringLiteral("/claude-peers-broker-%1.handover").arg(home.port());
        TestSupport::BrokerProcess headless(home);
        QVERIFY2(headless.start(), headless.stderrOutput().constData());
        QVERIFY(QFileInfo::exists(socketFile));
        const qint64 oldPid = headless.pid();

        BrokerHost host(settingsFor(home));
        QList<BrokerHost::State> states;
        connect(&host, &BrokerHost::stateChanged, this, [&](BrokerHost::State s) { states << s; });
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(15000));
        QVERIFY(!states.contains(BrokerHost::State::HandingOver)); // no /shutdown, no wait for the port
        QCOMPARE(host.previousBrokerPid(), oldPid);
        QTRY_COMPARE_WITH_TIMEOUT(headless.process().state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(headless.process().exitCode(), 0);
        QVERIFY2(headless.stderrOutput().contains("Hand-over to pid"), headless.stderrOutput().constData());
        QCOMPARE(TestSupport::httpGet(home.port(), QStringLiteral("/health"))
                     .object()
                     .value(QStringLiteral("pid"))
                     .toInteger(),
                 QCoreApplication::applicationPid());
        QVERIFY(QFileInfo::exists(socketFile)); // ours now

        // A headless broker started by hand takes over from the tray.
        QSignalSpy handedOver(&host, &BrokerHost::handedOver);
        TestSupport::BrokerProcess next(home);
        QVERIFY2(next.start(), next.stderrOutput().constData());
        QTRY_COMPARE_WITH_TIMEOUT(handedOver.count(), 1, scaled(10000));
        const qint64 nextPid = next.pid();
        QCOMPARE(handedOver.first().first().toLongLong(), nextPid);
        QCOMPARE(host.state(), BrokerHost::State::Stopped);
        QCOMPARE(TestSupport::httpGet(home.port(), QStringLiteral("/health"))
                     .object()
                     .value(QStringLiteral("pid"))
                     .toInteger(),
                 nextPid);
        next.terminate();
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(socketFile), scaled(5000));
    }

    void failsWhenTheRunningBrokerRefusesToHandOver()
    {
        TestSupport::TestHome home;
        // The old broker reads its own token, so ours is refused with 401.
        const QString otherToken = home.path() + QStringLiteral("/other-token");
        QVERIFY(Broker::TokenFile::write(otherToken, Broker::TokenFile::generate()).has_value());
        QVERIFY(Broker::TokenFile::write(home.tokenPath(), Broker::TokenFile::generate()).has_value());
        QProcessEnvironment extra;
        extra.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), otherToken);
        TestSupport::BrokerProcess headless(home, extra);
        QVERIFY2(headless.start(), headless.stderrOutput().constData());

        BrokerHost host(settingsFor(home));
        QSignalSpy failed(&host, &BrokerHost::failed);
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Failed, scaled(10000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(host.lastError().kind, Broker::ErrorKind::HandoverRefused);
        QVERIFY2(host.lastError().message.contains(QStringLiteral("refused to hand over")),
                 qPrintable(host.lastError().message));
        QCOMPARE(headless.process().state(), QProcess::Running); // still serving
        QCOMPARE(TestSupport::httpGet(home.port(), QStringLiteral("/health"))
                     .object()
                     .value(QStringLiteral("pid"))
                     .toInteger(),
                 headless.pid());
    }

    void failsWhenThePortStaysBusyAfterHandOver()
    {
        TestSupport::TestHome home;
        StubbornBroker stub(R"({"status":"ok","peers":0,"pid":4242,"ok":true})");
        QVERIFY(stub.listen(QHostAddress::LocalHost, home.port()));
        QVERIFY(Broker::TokenFile::write(home.tokenPath(), Broker::TokenFile::generate()).has_value());

        BrokerHost host(settingsFor(home));
        host.setTiming({.retryIntervalMs = 20, .handoverTimeoutMs = 300, .requestTimeoutMs = 2000});
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Failed, scaled(10000));
        QCOMPARE(host.lastError().kind, Broker::ErrorKind::HandoverTimeout);
        QCOMPARE(host.previousBrokerPid(), 4242);
        QVERIFY(stub.requests().contains("GET /health"));
        QVERIFY2(stub.requests().contains("POST /shutdown"), stub.requests().constData());
        QVERIFY(stub.requests().contains(QByteArray("Bearer " + home.token())));

        // Once the port is free, Retry succeeds.
        stub.close();
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
    }

    void failsWhenSomethingElseAnswersOnThePort()
    {
        TestSupport::TestHome home;
        StubbornBroker stub(R"({"hello":"not a broker"})");
        QVERIFY(stub.listen(QHostAddress::LocalHost, home.port()));
        BrokerHost host(settingsFor(home));
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Failed, scaled(10000));
        QCOMPARE(host.lastError().kind, Broker::ErrorKind::PortBusy);
        QVERIFY(!stub.requests().contains("/shutdown")); // never asks a stranger to shut down
    }
};

QTEST_GUILESS_MAIN(tst_BrokerHost)
#include "tst_brokerhost.moc"
