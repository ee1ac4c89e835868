// POST /wait-messages, the push long-poll (docs/protocol.md): immediate answers, wake-up on
// commit, supersede, timeouts, closed clients, broadcast fan-out, stop().
#include "tests/broker/brokerharness.h"
#include "tests/support/brokeranswers.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using TestSupport::firstMessageIn;
using TestSupport::HttpResult;
using TestSupport::messagesIn;

namespace {

QJsonObject waitBody(const QString &id, int timeoutMs, const QJsonArray &ack = {})
{
    QJsonObject body {{QStringLiteral("id"), id}, {QStringLiteral("timeout_ms"), timeoutMs}};
    if (!ack.isEmpty())
        body.insert(QStringLiteral("ack"), ack);
    return body;
}

QJsonArray messagesOf(QNetworkReply *reply)
{
    return messagesIn(BrokerHarness::replyObject(reply));
}

QJsonObject firstMessageOf(QNetworkReply *reply)
{
    return firstMessageIn(BrokerHarness::replyObject(reply));
}

} // namespace

class tst_Delivery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void answersAtOnceWhenMessagesArePending()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 id = h.send(a.id, b.id, QStringLiteral("early"));
        const HttpResult r = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 20000));
        QCOMPARE(r.status, 200);
        const QJsonArray messages = messagesIn(r.object());
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).toObject().value(QStringLiteral("id")).toInteger(), id);
        QCOMPARE(messages.at(0).toObject().value(QStringLiteral("delivered")).toInt(-1), 0);
    }

    // after_id: messages at or below it stay pending without being answered again; a newer
    // one wakes the wait (a helper holding messages its model has not seen, issue 7 §3.1).
    void afterIdLeavesHeldMessagesPending()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 held = h.send(a.id, b.id, QStringLiteral("held"));
        QJsonObject body = waitBody(b.id, 30000);
        body.insert(QStringLiteral("after_id"), held);
        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"), body, b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        QTest::qWait(300);
        QVERIFY(!wait->isFinished());
        const qint64 fresh = h.send(a.id, b.id, QStringLiteral("fresh"));
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        const QJsonArray messages = messagesOf(wait);
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).toObject().value(QStringLiteral("id")).toInteger(), fresh);
        QCOMPARE(h.poll(b.id).size(), 2); // both still undelivered
    }

    // A message left pending below after_id stays known to the hub: a later wait without
    // after_id (and without acknowledging it) gets it at once instead of parking.
    void messagesHeldBelowAfterIdComeBackWithoutIt()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000), b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        const qint64 first = h.send(a.id, b.id, QStringLiteral("one"));
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(firstMessageOf(wait).value(QStringLiteral("id")).toInteger(), first);
        QJsonObject holding = waitBody(b.id, 30000);
        holding.insert(QStringLiteral("after_id"), first);
        wait = h.postAsync(QStringLiteral("/wait-messages"), holding, b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1); // parked: nothing above `first`
        const qint64 second = h.send(a.id, b.id, QStringLiteral("two"));
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(firstMessageOf(wait).value(QStringLiteral("id")).toInteger(), second);
        // Acknowledges the second only: the first is still pending and comes at once.
        const HttpResult r =
            h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 30000, QJsonArray {second}), b.secret);
        const QJsonArray messages = messagesIn(r.object());
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).toObject().value(QStringLiteral("id")).toInteger(), first);
    }

    // Wake-ups are answered after the event-loop pass: messages stored together share one
    // answer, and none is lost between the answer and the next wait.
    void concurrentSendsAreAllPushed()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000), b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        QList<QNetworkReply *> sends;
        for (int i = 0; i < 5; ++i)
            sends.append(h.postAsync(QStringLiteral("/send-message"),
                                     {{QStringLiteral("from_id"), a.id},
                                      {QStringLiteral("to_id"), b.id},
                                      {QStringLiteral("text"), QStringLiteral("m%1").arg(i)}},
                                     a.secret));
        for (QNetworkReply *send : std::as_const(sends))
            QTRY_VERIFY_WITH_TIMEOUT(send->isFinished(), TestSupport::scaled(5000));
        QSet<qint64> sent;
        for (QNetworkReply *send : std::as_const(sends))
            sent.insert(BrokerHarness::replyObject(send).value(QStringLiteral("message_id")).toInteger());
        QCOMPARE(sent.size(), 5);

        QSet<qint64> got;
        int answers = 0;
        while (got.size() < sent.size() && answers < 6) {
            QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
            ++answers;
            QJsonArray ack;
            for (const QJsonValue &m : messagesOf(wait)) {
                got.insert(m.toObject().value(QStringLiteral("id")).toInteger());
                ack.append(m.toObject().value(QStringLiteral("id")));
            }
            wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000, ack), b.secret);
        }
        QCOMPARE(got, sent);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1); // the last wait holds: nothing pending
        QVERIFY(!wait->isFinished());
    }

    void wakesOnAMessageStoredAfterTheWaitBeganAndAcksWithTheNext()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();

        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000), b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1); // the wait is held before the message exists
        QVERIFY(!wait->isFinished());
        const qint64 first = h.send(a.id, b.id, QStringLiteral("one"));
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(BrokerHarness::replyStatus(wait), 200);
        QJsonArray got = messagesOf(wait);
        QCOMPARE(got.size(), 1);
        QCOMPARE(got.at(0).toObject().value(QStringLiteral("id")).toInteger(), first);

        // the next wait acknowledges the first and waits for the second
        QNetworkReply *wait2 =
            h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000, {first}), b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        QVERIFY(!wait2->isFinished());
        const HttpResult status =
            h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), first}});
        QCOMPARE(status.object().value(QStringLiteral("delivered")), QJsonValue(true));
        const qint64 second = h.send(a.id, b.id, QStringLiteral("two"));
        QTRY_VERIFY_WITH_TIMEOUT(wait2->isFinished(), TestSupport::scaled(5000));
        got = messagesOf(wait2);
        QCOMPARE(got.size(), 1);
        QCOMPARE(got.at(0).toObject().value(QStringLiteral("id")).toInteger(), second);

        // unacknowledged messages come again
        const HttpResult again = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 0));
        QCOMPARE(messagesIn(again.object()).size(), 1);
    }

    void newerWaitSupersedesTheOlder()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QNetworkReply *older = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000));
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        QNetworkReply *newer = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000));
        QTRY_VERIFY_WITH_TIMEOUT(older->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(BrokerHarness::replyStatus(older), 200);
        QCOMPARE(messagesOf(older).size(), 0);
        QVERIFY(!newer->isFinished());
        h.send(a.id, b.id, QStringLiteral("for the newer"));
        QTRY_VERIFY_WITH_TIMEOUT(newer->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(messagesOf(newer).size(), 1);
    }

    void unknownPeerIs404()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const HttpResult r =
            h.post(QStringLiteral("/wait-messages"), waitBody(QStringLiteral("ghost123"), 1000));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.body, QByteArray("{\"error\":\"Peer ghost123 is not registered\"}"));
    }

    void timesOutWithAnEmptyList()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer b = h.registerPeer();
        QElapsedTimer timer;
        timer.start();
        const HttpResult r = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 300));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("{\"messages\":[]}"));
        QVERIFY2(timer.elapsed() >= 250, qPrintable(QString::number(timer.elapsed())));
        // out-of-range timeouts are clamped, not refused
        QCOMPARE(h.post(QStringLiteral("/wait-messages"), waitBody(b.id, -5)).body,
                 QByteArray("{\"messages\":[]}"));
    }

    void countsAsHeartbeat()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer b = h.registerPeer();
        const QString before = h.listPeers().at(0).toObject().value(QStringLiteral("last_seen")).toString();
        QTRY_VERIFY(Broker::Clock::toIso(QDateTime::currentDateTimeUtc()) > before); // next millisecond
        h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 0));
        const QString after = h.listPeers().at(0).toObject().value(QStringLiteral("last_seen")).toString();
        QVERIFY2(after > before, qPrintable(before + QLatin1Char(' ') + after));
    }

    void aClientThatGoesAwayIsForgotten()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QNetworkReply *gone = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000));
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        gone->abort();
        QTRY_COMPARE(h.server().waitingPeerCount(), 0);
        // the message stays pending for the next wait instead of vanishing into a dead socket
        h.send(a.id, b.id, QStringLiteral("after the close"));
        const HttpResult r = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 1000));
        QCOMPARE(messagesIn(r.object()).size(), 1);
    }

    void broadcastWakesEveryRecipient()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const RegisteredPeer c = h.registerPeer();
        QNetworkReply *wb = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000));
        QNetworkReply *wc = h.postAsync(QStringLiteral("/wait-messages"), waitBody(c.id, 30000));
        QTRY_COMPARE(h.server().waitingPeerCount(), 2);
        const HttpResult r = h.post(QStringLiteral("/broadcast"),
                                    {{QStringLiteral("from_id"), a.id},
                                     {QStringLiteral("text"), QStringLiteral("all")},
                                     {QStringLiteral("scope"), QStringLiteral("machine")},
                                     {QStringLiteral("cwd"), QStringLiteral("/")}});
        QCOMPARE(r.object().value(QStringLiteral("recipients")).toInt(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(wb->isFinished() && wc->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(firstMessageOf(wb).value(QStringLiteral("type")).toString(), QStringLiteral("broadcast"));
        QCOMPARE(messagesOf(wc).size(), 1);
    }

    void stopAnswersPendingWaits()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer b = h.registerPeer();
        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000));
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        QVERIFY(!wait->isFinished());
        h.server().stop();
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(BrokerHarness::replyStatus(wait), 200);
        QCOMPARE(wait->readAll(), QByteArray("{\"messages\":[]}"));
    }

    void removedPeerReleasesItsWait()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer b = h.registerPeer();
        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000));
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}});
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(messagesOf(wait).size(), 0);
        QCOMPARE(h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 0)).status, 404);
    }

    // A parked wait is answered with the messages as they were stored (not read back): the
    // answer must be the row exactly as /poll-messages reads it from the database.
    void pushedMessageIsTheStoredRow()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 first = h.send(a.id, b.id, QStringLiteral("first"));
        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"),
                                          waitBody(b.id, 30000, QJsonArray {first}), b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        const qint64 id =
            h.send(a.id, b.id, QStringLiteral("Grüße \"quoted\"\n\u0001 😀"),
                   {{QStringLiteral("type"), QStringLiteral("query")},
                    {QStringLiteral("reply_to"), first},
                    {QStringLiteral("metadata"),
                     QJsonObject {{QStringLiteral("n"), 1.5}, {QStringLiteral("s"), QStringLiteral("x")}}}});
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        const QByteArray pushed = wait->readAll();
        const QByteArray polled =
            h.post(QStringLiteral("/poll-messages"), {{QStringLiteral("id"), b.id}}).body;
        QCOMPARE(pushed, polled); // byte for byte
        QCOMPARE(
            firstMessageIn(QJsonDocument::fromJson(pushed).object()).value(QStringLiteral("id")).toInteger(),
            id);
    }

    // The hub parks a wait without reading the store only when the wait acknowledged all it
    // knows to be pending: a wait that leaves part of its last answer unacknowledged, or
    // follows a message stored while no wait was held, is answered at once.
    void unacknowledgedOrUnseenMessagesAreAnsweredAtOnce()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QNetworkReply *wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000), b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        const qint64 first = h.send(a.id, b.id, QStringLiteral("one"));
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        // Not acknowledged: the same message again, at once.
        HttpResult r = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 30000), b.secret);
        QCOMPARE(firstMessageIn(r.object()).value(QStringLiteral("id")).toInteger(), first);
        // Stored while no wait is held, then a wait that acknowledges the first: answered at once.
        const qint64 second = h.send(a.id, b.id, QStringLiteral("two"));
        r = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 30000, QJsonArray {first}), b.secret);
        QCOMPARE(firstMessageIn(r.object()).value(QStringLiteral("id")).toInteger(), second);
        // Everything acknowledged: the wait parks, and the next message still arrives.
        wait = h.postAsync(QStringLiteral("/wait-messages"), waitBody(b.id, 30000, QJsonArray {second}),
                           b.secret);
        QTRY_COMPARE(h.server().waitingPeerCount(), 1);
        const qint64 third = h.send(a.id, b.id, QStringLiteral("three"));
        QTRY_VERIFY_WITH_TIMEOUT(wait->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(firstMessageOf(wait).value(QStringLiteral("id")).toInteger(), third);
    }

    void answersAtMostTwoHundredPerBatch()
    {
        BrokerHarness h([](Broker::Settings &s) { s.rateLimitPerMinute = 0; });
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        for (int i = 0; i < 205; ++i)
            h.send(a.id, b.id, QString::number(i));
        HttpResult r = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 0));
        const QJsonArray first = messagesIn(r.object());
        QCOMPARE(first.size(), 200);
        QJsonArray ack;
        for (const QJsonValue &m : first)
            ack.append(m.toObject().value(QStringLiteral("id")));
        r = h.post(QStringLiteral("/wait-messages"), waitBody(b.id, 0, ack));
        QCOMPARE(messagesIn(r.object()).size(), 5);
        QCOMPARE(firstMessageIn(r.object()).value(QStringLiteral("text")).toString(), QStringLiteral("200"));
    }
};

QTEST_GUILESS_MAIN(tst_Delivery)
#include "tst_delivery.moc"
