// POST /set-attention and the attention fields of /list-peers rows, over real loopback HTTP
// against an in-process broker on its own SQLite file.
#include "tests/broker/brokerharness.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace {

QJsonObject rowOf(const QJsonArray &peers, const QString &id)
{
    for (const QJsonValue &row : peers) {
        if (row.toObject().value(QStringLiteral("id")).toString() == id)
            return row.toObject();
    }
    return {};
}

QJsonObject attention(const QString &id, const QString &state, const QString &message = {})
{
    QJsonObject body {{QStringLiteral("id"), id}, {QStringLiteral("state"), state}};
    if (!message.isEmpty())
        body.insert(QStringLiteral("message"), message);
    return body;
}

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

} // namespace

class tst_Attention : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowsCarryTheStateAndSince()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer peer = h.registerPeer();

        // Unknown until a hook said something: the row is shaped as before.
        QJsonObject row = rowOf(h.listPeers(), peer.id);
        QVERIFY(!row.contains(QStringLiteral("attention")));
        QVERIFY(!row.contains(QStringLiteral("attention_since")));

        QCOMPARE(h.post(QStringLiteral("/set-attention"), attention(peer.id, QStringLiteral("busy"))).status,
                 200);
        row = rowOf(h.listPeers(), peer.id);
        QCOMPARE(str(row, "attention"), QStringLiteral("busy"));
        const QString busySince = str(row, "attention_since");
        QVERIFY(QDateTime::fromString(busySince, Qt::ISODateWithMs).isValid());
        QVERIFY(!row.contains(QStringLiteral("attention_message")));

        const auto answer = h.post(QStringLiteral("/set-attention"),
                                   attention(peer.id, QStringLiteral("needs-you"),
                                             QStringLiteral("Claude needs your permission to use Bash")));
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.object(), QJsonObject({{QStringLiteral("ok"), true}}));
        row = rowOf(h.listPeers(), peer.id);
        QCOMPARE(str(row, "attention"), QStringLiteral("needs-you"));
        QCOMPARE(str(row, "attention_message"), QStringLiteral("Claude needs your permission to use Bash"));
        const QString needsSince = str(row, "attention_since");
        QVERIFY(needsSince >= busySince);

        // The same state again keeps the time it was entered and replaces the message.
        QTest::qWait(5); // timestamps have millisecond resolution: a new one would differ
        QCOMPARE(h.post(QStringLiteral("/set-attention"),
                        attention(peer.id, QStringLiteral("needs-you"), QStringLiteral("idle at the prompt")))
                     .status,
                 200);
        row = rowOf(h.listPeers(), peer.id);
        QCOMPARE(str(row, "attention_since"), needsSince);
        QCOMPARE(str(row, "attention_message"), QStringLiteral("idle at the prompt"));

        // "unknown" clears it.
        QCOMPARE(
            h.post(QStringLiteral("/set-attention"), attention(peer.id, QStringLiteral("unknown"))).status,
            200);
        row = rowOf(h.listPeers(), peer.id);
        QVERIFY(!row.contains(QStringLiteral("attention")));
        QVERIFY(!row.contains(QStringLiteral("attention_message")));
    }

    void stateSurvivesABrokerRestart()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer peer = h.registerPeer();
        QCOMPARE(h.post(QStringLiteral("/set-attention"),
                        attention(peer.id, QStringLiteral("needs-you"), QStringLiteral("question")))
                     .status,
                 200);
        const QJsonObject before = rowOf(h.listPeers(), peer.id);

        h.server().stop();
        QVERIFY(h.start());
        const QJsonObject after = rowOf(h.listPeers(), peer.id);
        QCOMPARE(str(after, "attention"), QStringLiteral("needs-you"));
        QCOMPARE(str(after, "attention_since"), str(before, "attention_since"));
        QCOMPARE(str(after, "attention_message"), QStringLiteral("question"));
    }

    void badInputs_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("error");
        const QJsonValue peer(u"PEER"_s);
        QTest::newRow("unknown state") << QJsonObject {{u"id"_s, peer}, {u"state"_s, u"sleepy"_s}}
                                       << u"Field \"state\" must be one of needs-you, busy, idle, unknown"_s;
        QTest::newRow("no state") << QJsonObject {{u"id"_s, peer}} << u"Field \"state\" must be a string"_s;
        QTest::newRow("state not a string")
            << QJsonObject {{u"id"_s, peer}, {u"state"_s, 3}} << u"Field \"state\" must be a string"_s;
        QTest::newRow("no id") << QJsonObject {{u"state"_s, u"busy"_s}} << u"Field \"id\" must be a string"_s;
        QTest::newRow("message not a string")
            << QJsonObject {{u"id"_s, peer}, {u"state"_s, u"busy"_s}, {u"message"_s, 1}}
            << u"Field \"message\" must be a string or null"_s;
        QTest::newRow("message too long")
            << QJsonObject {{u"id"_s, peer}, {u"state"_s, u"busy"_s}, {u"message"_s, QString(2049, u'm')}}
            << u"Field \"message\" must be a string of at most 2048 bytes (UTF-8)"_s;
    }
    void badInputs()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, error);
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer peer = h.registerPeer();
        if (body.value(QStringLiteral("id")) == QJsonValue(u"PEER"_s))
            body.insert(QStringLiteral("id"), peer.id);
        const auto answer = h.post(QStringLiteral("/set-attention"), body);
        QCOMPARE(answer.status, 400);
        QCOMPARE(str(answer.object(), "error"), error);
        QVERIFY(!rowOf(h.listPeers(), peer.id).contains(QStringLiteral("attention"))); // nothing stored
    }

    void unknownPeerIs404()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const auto answer = h.post(QStringLiteral("/set-attention"),
                                   attention(QStringLiteral("nobody00"), QStringLiteral("busy")));
        QCOMPARE(answer.status, 404);
        QVERIFY(str(answer.object(), "error").startsWith(QStringLiteral("Peer nobody00 is not registered")));
    }

    void sessionSecretActsOnlyAsItsPeer()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer(QStringLiteral("/work/a"), QStringLiteral("pts/71"));
        const RegisteredPeer b = h.registerPeer(QStringLiteral("/work/b"), QStringLiteral("pts/72"));
        QVERIFY(!a.secret.isEmpty());

        const auto other =
            h.post(QStringLiteral("/set-attention"), attention(b.id, QStringLiteral("busy")), a.secret);
        QCOMPARE(other.status, 403);
        QVERIFY(!rowOf(h.listPeers(), b.id).contains(QStringLiteral("attention")));

        const auto own =
            h.post(QStringLiteral("/set-attention"), attention(a.id, QStringLiteral("busy")), a.secret);
        QCOMPARE(own.status, 200);
        QCOMPARE(str(rowOf(h.listPeers(), a.id), "attention"), QStringLiteral("busy"));

        const auto anonymous =
            h.post(QStringLiteral("/set-attention"), attention(a.id, QStringLiteral("idle")), QByteArray());
        QCOMPARE(anonymous.status, 401);
    }
};

QTEST_GUILESS_MAIN(tst_Attention)
#include "tst_attention.moc"
