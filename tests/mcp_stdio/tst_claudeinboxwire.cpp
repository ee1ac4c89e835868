// The lines of Claude Code's session inbox (mcp_stdio/claudeinboxwire.h): what the helper writes,
// and every receipt it reads, good and bad.
#include "mcp_stdio/claudeinboxwire.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Mcp;
using Receipt = ClaudeInboxWire::Receipt;

class tst_ClaudeInboxWire : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void linesAreOneJsonObjectEach()
    {
        const QByteArray auth = ClaudeInboxWire::authLine(QStringLiteral("tok\"en"));
        QVERIFY(auth.endsWith('\n'));
        QCOMPARE(auth.count('\n'), 1);
        QCOMPARE(QJsonDocument::fromJson(auth).object(),
                 (QJsonObject {{QStringLiteral("type"), QStringLiteral("auth")},
                               {QStringLiteral("token"), QStringLiteral("tok\"en")}}));
        const QByteArray user = ClaudeInboxWire::userLine(
            QStringLiteral("two\nlines"), QStringLiteral("uds:/s/1.sock"), QStringLiteral("m-1"));
        QCOMPARE(user.count('\n'), 1); // the text's line break is escaped
        const QJsonObject o = QJsonDocument::fromJson(user).object();
        QCOMPARE(o.value(QLatin1String("type")).toString(), QStringLiteral("user"));
        QCOMPARE(o.value(QLatin1String("message")).toObject(),
                 (QJsonObject {{QStringLiteral("role"), QStringLiteral("user")},
                               {QStringLiteral("content"), QStringLiteral("two\nlines")}}));
        QCOMPARE(o.value(QLatin1String("from")).toString(), QStringLiteral("uds:/s/1.sock"));
        QCOMPARE(o.value(QLatin1String("msg_id")).toString(), QStringLiteral("m-1"));
        QVERIFY(!o.contains(QLatin1String("session_id"))); // it changes on /clear: a stale one drops the line
        QVERIFY(!o.contains(QLatin1String("priority"))); // "now" would abort the running turn
    }

    void receipts_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("status");
        QTest::addColumn<QStringList>("ids");
        const auto row = [](const char *name, const char *line, Receipt::Status s, QStringList ids) {
            QTest::newRow(name) << QByteArray(line) << int(s) << ids;
        };
        row("held",
            R"({"type":"control","action":"peer_message_status","status":"held","reason":"r","orig_msg_id":"a","msgV":1,"msg_id":"x"})",
            Receipt::Status::Held, {QStringLiteral("a")});
        row("denied",
            R"({"type":"control","action":"peer_message_status","status":"denied","orig_msg_id":"a"})",
            Receipt::Status::Denied, {QStringLiteral("a")});
        row("expired",
            R"({"type":"control","action":"peer_message_status","status":"expired","orig_msg_id":"a"})",
            Receipt::Status::Expired, {QStringLiteral("a")});
        row("refused",
            R"({"type":"control","action":"peer_message_status","status":"expired","status_detail":"refused","orig_msg_id":"a"})",
            Receipt::Status::Refused, {QStringLiteral("a")});
        row("released",
            R"({"type":"control","action":"peer_message_status","status":"delivered","orig_msg_id":"a"})",
            Receipt::Status::Delivered, {QStringLiteral("a")});
        row("batched drop",
            R"({"type":"control","action":"peer_message_status","status":"dropped","drop_reason":"rate-limited","dropped_msg_ids":["a","b",7]})",
            Receipt::Status::Dropped, {QStringLiteral("a"), QStringLiteral("b")});
    }
    void receipts()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, status);
        QFETCH(QStringList, ids);
        const auto r = ClaudeInboxWire::parseReceipt(line);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QCOMPARE(int(r->status), status);
        QStringList got = r->droppedMsgIds;
        if (!r->origMsgId.isEmpty())
            got.prepend(r->origMsgId);
        QCOMPARE(got, ids);
    }

    void notReceipts_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("kind");
        using K = Broker::ErrorKind;
        QTest::newRow("empty") << QByteArray() << int(K::BadJson);
        QTest::newRow("not json") << QByteArray("held") << int(K::BadJson);
        QTest::newRow("array") << QByteArray("[1]") << int(K::BadJson);
        QTest::newRow("a user line") << QByteArray(
                                            R"({"type":"user","message":{"role":"user","content":"x"}})")
                                     << int(K::BadField);
        QTest::newRow("idle notice")
            << QByteArray(R"({"type":"control","action":"peer_idle_notice","state":"idle"})")
            << int(K::Rejected);
        QTest::newRow("unknown status")
            << QByteArray(
                   R"({"type":"control","action":"peer_message_status","status":"maybe","orig_msg_id":"a"})")
            << int(K::BadField);
        QTest::newRow("status not a string")
            << QByteArray(R"({"type":"control","action":"peer_message_status","status":1,"orig_msg_id":"a"})")
            << int(K::BadField);
        QTest::newRow("names no message")
            << QByteArray(R"({"type":"control","action":"peer_message_status","status":"held"})")
            << int(K::BadField);
        QTest::newRow("too large") << (QByteArray("{\"type\":\"control\",\"x\":\"") +
                                       QByteArray(ClaudeInboxWire::MaxReceiptBytes, 'a') + QByteArray("\"}"))
                                   << int(K::TooLarge);
    }
    void notReceipts()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, kind);
        const auto r = ClaudeInboxWire::parseReceipt(line);
        QVERIFY(!r);
        QCOMPARE(int(r.error().kind), kind);
        QVERIFY(!r.error().message.isEmpty());
    }

    void manyIdsAreBounded()
    {
        QByteArray ids;
        for (int i = 0; i < 1000; ++i)
            ids += (i ? "," : "") + QByteArray("\"id") + QByteArray::number(i) + '"';
        const auto r = ClaudeInboxWire::parseReceipt(
            R"({"type":"control","action":"peer_message_status","status":"dropped","dropped_msg_ids":[)" +
            ids + "]}");
        QVERIFY(r);
        QCOMPARE(r->droppedMsgIds.size(), 256);
    }
};

QTEST_GUILESS_MAIN(tst_ClaudeInboxWire)
#include "tst_claudeinboxwire.moc"
