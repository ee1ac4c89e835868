// The tray's threading contract (docs/architecture.md, "Threads"): the broker and its SQLite connection live
// and die on the broker thread; the GUI thread gets snapshots through queued signals only; a
// stalled broker thread does not block the GUI thread, and a blocked GUI thread does not stall
// delivery.
#include "app/tray/brokerhost.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traypresenter.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QThread>

#include <atomic>

#include <unistd.h>

using App::BrokerHost;
using App::PeersModel;
using App::TrayPresenter;
using TestSupport::scaled;
using TrayTestSupport::registration;
using TrayTestSupport::settingsFor;

namespace {

// POST on a blocking socket: this thread's event loop does not run meanwhile (TestSupport's
// helpers spin it, which would hide a broker that needs the GUI thread).
TestSupport::HttpResult blockingPost(quint16 port, const QByteArray &path, const QJsonObject &body,
                                     const QByteArray &token)
{
    TestSupport::HttpResult result;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(scaled(5000)))
        return result;
    const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
    socket.write("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
                 "Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\n" +
                 "Content-Length: " + QByteArray::number(json.size()) + "\r\n\r\n" + json);
    QByteArray answer;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < scaled(5000)) {
        const qsizetype headerEnd = answer.indexOf("\r\n\r\n");
        if (headerEnd >= 0) {
            const QByteArray head = answer.left(headerEnd).toLower();
            const qsizetype at = head.indexOf("content-length:");
            const qsizetype length =
                at < 0 ? -1 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
            if (length >= 0 && answer.size() >= headerEnd + 4 + length) {
                result.status = answer.mid(9, 3).toInt();
                result.body = answer.mid(headerEnd + 4, length);
                return result;
            }
        }
        if (!socket.waitForReadyRead(scaled(5000)))
            break;
        answer += socket.readAll();
    }
    return result;
}

} // namespace

class tst_BrokerThreads : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void brokerObjectsLiveAndDieOnTheBrokerThread()
    {
        TestSupport::TestHome home;
        std::atomic<quintptr> destroyedOn {0};
        quintptr brokerThread = 0;
        {
            BrokerHost host(settingsFor(home));
            QThread *thread = host.brokerThread();
            QVERIFY(thread && thread != QThread::currentThread());
            QVERIFY(thread->isRunning());
            brokerThread = quintptr(thread);

            std::atomic<QThread *> jobThread {nullptr};
            std::atomic<QThread *> serverThread {nullptr};
            host.runOnBrokerThread([&](Broker::BrokerServer &server) {
                serverThread = server.thread();
                // Direct: runs on whichever thread destroys the server.
                QObject::connect(&server, &QObject::destroyed,
                                 [&] { destroyedOn = quintptr(QThread::currentThread()); });
                jobThread = QThread::currentThread();
            });
            QTRY_VERIFY(jobThread.load());
            QCOMPARE(jobThread.load(), thread);
            QCOMPARE(serverThread.load(), thread);

            host.start();
            QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
            // Snapshots reach the GUI thread queued; the broker computed them on its thread
            // (the store asserts the thread that opened it: QT_FORCE_ASSERTS in tests).
            QList<QThread *> receivedOn;
            connect(&host, &BrokerHost::snapshotChanged, this,
                    [&] { receivedOn << QThread::currentThread(); });
            const auto reg = TestSupport::httpPostJson(
                home.port(), QStringLiteral("/register"),
                registration(QCoreApplication::applicationPid(), QStringLiteral("/work/one")), home.token());
            QCOMPARE(reg.status, 200);
            QTRY_COMPARE(host.snapshot().peers.size(), 1);
            QVERIFY(!receivedOn.isEmpty());
            for (QThread *t : std::as_const(receivedOn))
                QCOMPARE(t, QThread::currentThread());
            QCOMPARE(destroyedOn.load(), quintptr(0));
        } // the host ends the thread; the server goes with it
        QCOMPARE(destroyedOn.load(), brokerThread);
        // …having closed the database and released the lock: a headless broker takes it.
        TestSupport::BrokerProcess headless(home);
        QVERIFY2(headless.start(), headless.stderrOutput().constData());
    }

    void aStalledBrokerThreadDoesNotBlockTheGui()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        TrayPresenter presenter(&host);
        PeersModel model;
        model.attach(&host);
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        QCOMPARE(TestSupport::httpPostJson(
                     home.port(), QStringLiteral("/register"),
                     registration(QCoreApplication::applicationPid(), QStringLiteral("/work/one")),
                     home.token())
                     .status,
                 200);
        QTRY_COMPARE(presenter.peerCount(), 1);

        // Stall the broker thread until we let it go (as a long transaction or a slow disk would).
        QSemaphore entered;
        QSemaphore release;
        std::atomic_bool stalled {false};
        host.runOnBrokerThread([&](Broker::BrokerServer &) {
            stalled = true;
            entered.release();
            release.tryAcquire(1, scaled(30000));
            stalled = false;
        });
        QVERIFY(entered.tryAcquire(1, scaled(5000)));

        // Meanwhile the GUI thread runs: its timers fire, the presenter and the model read what
        // they show, and the host's calls return.
        int ticks = 0;
        QTimer gui;
        gui.callOnTimeout([&] {
            ++ticks;
            presenter.refresh();
            model.index(0, PeersModel::IdColumn).data();
        });
        gui.start(10);
        host.reload();
        host.runOnBrokerThread([](Broker::BrokerServer &) {});
        QTRY_VERIFY_WITH_TIMEOUT(ticks >= 20, scaled(10000));
        QVERIFY2(stalled, "the broker thread was released before the GUI ran: the GUI waited for it");
        QCOMPARE(presenter.peerCount(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(host.state(), BrokerHost::State::Running);

        release.release();
        QTRY_VERIFY(!stalled);
        QCOMPARE(TestSupport::httpGet(home.port(), QStringLiteral("/health")).status, 200);
    }

    void aBlockedGuiThreadDoesNotStallDelivery()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        constexpr int intervalMs = 100;
        host.setTiming({.snapshotIntervalMs = intervalMs});
        TrayPresenter presenter(&host);
        PeersModel model;
        model.attach(&host);
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        const QByteArray token = home.token();
        const quint16 port = home.port();
        QSignalSpy snapshots(&host, &BrokerHost::snapshotChanged);
        QElapsedTimer clock;
        clock.start();

        // From here to the end of the exchange this (GUI) thread never returns to its event
        // loop: with the broker on it, not one request would be answered.
        const auto a =
            blockingPost(port, "/register",
                         registration(QCoreApplication::applicationPid(), QStringLiteral("/work/a")), token);
        QCOMPARE(a.status, 200);
        const auto b =
            blockingPost(port, "/register", registration(::getppid(), QStringLiteral("/work/b")), token);
        QCOMPARE(b.status, 200);
        const QString from = a.object().value(QStringLiteral("id")).toString();
        const QString to = b.object().value(QStringLiteral("id")).toString();
        constexpr int messages = 50; // under the default rate limit of 60 per minute
        for (int i = 0; i < messages; ++i) {
            const auto sent = blockingPost(port, "/send-message",
                                           {{QStringLiteral("from_id"), from},
                                            {QStringLiteral("to_id"), to},
                                            {QStringLiteral("text"), QStringLiteral("message %1").arg(i)}},
                                           token);
            QCOMPARE(sent.status, 200);
        }
        QJsonArray acks;
        int received = 0;
        while (received < messages) {
            const auto wait = blockingPost(port, "/wait-messages",
                                           {{QStringLiteral("id"), to},
                                            {QStringLiteral("ack"), acks},
                                            {QStringLiteral("timeout_ms"), 2000}},
                                           token);
            QCOMPARE(wait.status, 200);
            const QJsonArray batch = wait.object().value(QStringLiteral("messages")).toArray();
            QVERIFY2(!batch.isEmpty(), wait.body.constData());
            acks = {};
            for (const QJsonValue &message : batch)
                acks.append(message.toObject().value(QStringLiteral("id")));
            received += int(batch.size());
        }
        QCOMPARE(received, messages);
        // Nothing reached the GUI while it was away; the snapshots wait in its queue.
        QCOMPARE(snapshots.count(), 0);

        QTRY_COMPARE(presenter.peerCount(), 2);
        QTRY_COMPARE(model.rowCount(), 2);
        QTRY_COMPARE(presenter.pendingCount(), qint64(acks.size())); // the last batch is not acknowledged yet
        // Coalesced on the broker thread: at most one per interval, however many messages.
        const qint64 elapsed = clock.elapsed();
        QVERIFY2(snapshots.count() <= elapsed / intervalMs + 2,
                 qPrintable(QStringLiteral("%1 snapshots in %2 ms").arg(snapshots.count()).arg(elapsed)));
    }

    void stopWhileAStartIsUnderwayLeavesItStopped()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        QSignalSpy started(&host, &BrokerHost::started);
        host.start(); // posted to the broker thread…
        host.stop(); // …and stopped before its answer is back
        QCOMPARE(host.state(), BrokerHost::State::Stopped);
        QCOMPARE(TestSupport::httpGet(home.port(), QStringLiteral("/health"), 1000).status, 0);
        QTest::qWait(200); // must-not-happen: the late answer of the first start is ignored
        QCOMPARE(host.state(), BrokerHost::State::Stopped);
        QCOMPARE(started.count(), 0);

        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        QCOMPARE(started.count(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_BrokerThreads)
#include "tst_brokerthreads.moc"
