// Periodic jobs (docs/spec/peers-api.md §11.8–11.10 with our fixes): orphan and stale-peer bounces with
// their exact texts, heartbeat timeout, restart grace, the 7-day purge.
#include "tests/broker/brokerharness.h"

#include <QTest>

using TestSupport::HttpResult;

namespace {

QString bounceText(qint64 id, const QString &target, const QString &preview)
{
    return QStringLiteral(
               "\u26A0 Message #%1 to %2 could not be delivered \u2014 peer has disconnected.\n> %3")
        .arg(id)
        .arg(target, preview);
}

} // namespace

class tst_Maintenance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void orphanIsBouncedToItsSender()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 id = h.send(a.id, b.id, QStringLiteral("hello"));
        h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}});
        h.server().runMaintenance();
        const QJsonArray forA = h.poll(a.id);
        QCOMPARE(forA.size(), 1);
        const QJsonObject bounce = forA.at(0).toObject();
        QCOMPARE(bounce.value(QStringLiteral("from_id")).toString(), QStringLiteral("system"));
        QCOMPARE(bounce.value(QStringLiteral("to_id")).toString(), a.id);
        QCOMPARE(bounce.value(QStringLiteral("type")).toString(), QStringLiteral("text"));
        QVERIFY(bounce.value(QStringLiteral("metadata")).isNull());
        QCOMPARE(bounce.value(QStringLiteral("reply_to")).toInteger(), id);
        QCOMPARE(bounce.value(QStringLiteral("text")).toString(),
                 bounceText(id, b.id, QStringLiteral("hello")));
        QCOMPARE(h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), id}}).status, 404);
        h.server().runMaintenance(); // bounced once only
        QCOMPARE(h.poll(a.id).size(), 1);
    }

    void orphanSweepRunsPeriodically()
    {
        BrokerHarness h([](Broker::Settings &s) { s.sweepIntervalMs = 100; });
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        h.send(a.id, b.id, QStringLiteral("x"));
        h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}});
        QTRY_COMPARE(h.poll(a.id).size(), 1);
    }

    void cliAndRemoteSendersGetNoBounce()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer b = h.registerPeer();
        const RegisteredPeer watcher = h.registerPeer();
        h.send(QStringLiteral("cli"), b.id, QStringLiteral("from the cli"));
        h.send(QStringLiteral("rafi-mac:a1b2c3d4"), b.id, QStringLiteral("from afar"));
        h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}});
        h.server().runMaintenance();
        QCOMPARE(h.get(QStringLiteral("/health")).object().value(QStringLiteral("pending_messages")).toInt(),
                 0);
        QCOMPARE(h.poll(watcher.id).size(), 0);
    }

    void deadPeerIsRemovedAndBouncedWithItsName()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer(QStringLiteral("/w"), {}, {}, QStringLiteral("WORKER"));
        const QString longText = QString(60, QLatin1Char('a')) + QString(90, QLatin1Char('b'));
        const qint64 id = h.send(a.id, b.id, longText);
        h.endSession(b.pid);
        h.server().runMaintenance();
        const QJsonArray forA = h.poll(a.id);
        QCOMPARE(forA.size(), 1);
        QCOMPARE(forA.at(0).toObject().value(QStringLiteral("text")).toString(),
                 bounceText(id, QStringLiteral("WORKER"), longText.left(100) + QStringLiteral("...")));
        QCOMPARE(forA.at(0).toObject().value(QStringLiteral("reply_to")).toInteger(), id);
        QVERIFY(!h.hasPeer(b.id));
        QCOMPARE(h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), id}}).status, 404);

        // A dies too: its pending bounce goes with it (the reference leaked system messages).
        h.endSession(a.pid);
        h.server().runMaintenance();
        QCOMPARE(h.get(QStringLiteral("/health")).object().value(QStringLiteral("pending_messages")).toInt(),
                 0);
    }

    void silentPeerTimesOut()
    {
        BrokerHarness h({}, /*manualClock*/ true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer(); // alive PID, but it stops heartbeating
        const qint64 id = h.send(a.id, b.id, QStringLiteral("are you there"));
        h.clock().advance(59'000);
        h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), a.id}});
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(b.id));
        h.clock().advance(2'000); // b silent 61 s, a 2 s
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id));
        QVERIFY(!h.hasPeer(b.id));
        const QJsonArray forA = h.poll(a.id);
        QCOMPARE(forA.size(), 1);
        QCOMPARE(forA.at(0).toObject().value(QStringLiteral("text")).toString(),
                 bounceText(id, b.id, QStringLiteral("are you there")));
    }

    void sendingToASilentPeerFails()
    {
        BrokerHarness h([](Broker::Settings &s) { s.heartbeatTimeoutMs = 5000; }, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        h.clock().advance(6'000);
        const HttpResult r = h.post(QStringLiteral("/send-message"),
                                    {{QStringLiteral("from_id"), a.id},
                                     {QStringLiteral("to_id"), b.id},
                                     {QStringLiteral("text"), QStringLiteral("x")}});
        QCOMPARE(r.object().value(QStringLiteral("ok")), QJsonValue(false));
        QCOMPARE(r.object().value(QStringLiteral("error")).toString(),
                 QStringLiteral("Peer %1 is not running (no heartbeat for 6 s)").arg(b.id));
    }

    void anyRequestOfThePeerCountsAsHeartbeat()
    {
        BrokerHarness h({}, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        for (int i = 0; i < 3; ++i) {
            h.clock().advance(40'000);
            h.send(a.id, b.id, QStringLiteral("ping")); // a: send
            h.post(QStringLiteral("/set-summary"),
                   {{QStringLiteral("id"), b.id}, {QStringLiteral("summary"), QStringLiteral("s")}});
        }
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id));
        QVERIFY(h.hasPeer(b.id));
    }

    void zeroTimeoutMeansPidOnly()
    {
        BrokerHarness h([](Broker::Settings &s) { s.heartbeatTimeoutMs = 0; }, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        h.clock().advance(3'600'000);
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id));
    }

    void peersGetGraceAfterABrokerRestart()
    {
        BrokerHarness h({}, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        h.server().stop();
        h.clock().advance(600'000); // the broker was down for 10 minutes
        QVERIFY(h.start());
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id)); // its helper could not heartbeat meanwhile
        h.clock().advance(61'000);
        h.server().runMaintenance();
        QVERIFY(!h.hasPeer(a.id));
    }

    // Issue 7 §1.6: silence was measured on the wall clock, so a step forward evicted every
    // live peer at the next sweep and bounced its mail.
    void wallClockStepForwardEvictsNobody()
    {
        BrokerHarness h({}, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        h.send(a.id, b.id, QStringLiteral("still there?"));
        h.clock().advance(10'000);
        h.clock().set(h.clock().now().addSecs(2 * 3600)); // NTP step or the date set by hand
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id));
        QVERIFY(h.hasPeer(b.id));
        QCOMPARE(h.poll(a.id).size(), 0); // nothing bounced
        QCOMPARE(h.poll(b.id).size(), 1);
    }

    void wallClockStepBackwardStillTimesSilentPeersOut()
    {
        BrokerHarness h({}, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        h.clock().set(h.clock().now().addSecs(-3600));
        h.clock().advance(30'000);
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id));
        h.clock().advance(61'000); // silent for a full timeout after the step's grace
        h.server().runMaintenance();
        QVERIFY(!h.hasPeer(a.id));
    }

    void suspendAndResumeGiveEveryPeerAFullTimeout()
    {
        BrokerHarness h({}, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        h.send(a.id, b.id, QStringLiteral("before the lid closed"));
        h.clock().advance(50'000); // both silent for 50 s
        h.clock().suspend(3600'000); // an hour asleep: the wall clock moves, monotonic time not
        h.server().runMaintenance(); // the first sweep after the resume
        QVERIFY(h.hasPeer(a.id));
        QVERIFY(h.hasPeer(b.id));
        h.clock().advance(30'000); // the helpers take their time to reconnect
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id)); // 80 s of silence in all, but 30 s since the resume
        QVERIFY(h.hasPeer(b.id));
        QCOMPARE(h.poll(a.id).size(), 0);
        h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), a.id}});
        h.clock().advance(31'000); // b never came back: gone a full timeout after the resume
        h.server().runMaintenance();
        QVERIFY(h.hasPeer(a.id));
        QVERIFY(!h.hasPeer(b.id));
        QCOMPARE(h.poll(a.id).size(), 1); // now its mail bounces
    }

    void purgesDeliveredMessagesAfterSevenDays()
    {
        BrokerHarness h([](Broker::Settings &s) { s.heartbeatTimeoutMs = 0; }, true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 delivered = h.send(a.id, b.id, QStringLiteral("old and read"));
        const qint64 pending = h.send(a.id, b.id, QStringLiteral("old and unread"));
        h.post(QStringLiteral("/ack-messages"),
               {{QStringLiteral("id"), b.id}, {QStringLiteral("message_ids"), QJsonArray {delivered}}});
        const qint64 sevenDays = qint64(7) * 24 * 3600 * 1000;
        h.clock().advance(sevenDays - 60'000);
        h.server().runMaintenance();
        QCOMPARE(
            h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), delivered}}).status,
            200);
        h.clock().advance(120'000);
        h.server().runMaintenance();
        QCOMPARE(
            h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), delivered}}).status,
            404);
        QCOMPARE(h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), pending}}).status,
                 200);
        QCOMPARE(h.poll(b.id).size(), 1); // undelivered are never purged by age
    }

    void purgeRunsPeriodically()
    {
        BrokerHarness h([](Broker::Settings &s) {
            s.purgeIntervalMs = 100;
            s.deliveredRetentionMs = 1;
        });
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 id = h.send(a.id, b.id, QStringLiteral("x"));
        h.post(QStringLiteral("/ack-messages"),
               {{QStringLiteral("id"), b.id}, {QStringLiteral("message_ids"), QJsonArray {id}}});
        QTRY_COMPARE(h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), id}}).status,
                     404);
    }
};

QTEST_GUILESS_MAIN(tst_Maintenance)
#include "tst_maintenance.moc"
