#include "mcp_stdio/channel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace Mcp;

class tst_Channel : public QObject
{
    Q_OBJECT

    static void verifyMetaShape(const QJsonObject &meta)
    {
        static const QRegularExpression key(QStringLiteral("^[A-Za-z0-9_]+$"));
        for (auto it = meta.begin(); it != meta.end(); ++it) {
            QVERIFY2(key.match(it.key()).hasMatch(), qPrintable(it.key()));
            QVERIFY2(it.value().isString(), qPrintable(it.key()));
        }
    }

private Q_SLOTS:
    void sanitizeMetaKey_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringLiteral("from_id") << QStringLiteral("from_id");
        QTest::newRow("dash") << QStringLiteral("chat-id") << QStringLiteral("chat_id");
        QTest::newRow("dot and space") << QStringLiteral("a.b c") << QStringLiteral("a_b_c");
        QTest::newRow("unicode") << QStringLiteral("caf\u00e9") << QStringLiteral("caf_");
        QTest::newRow("empty") << QString() << QStringLiteral("_");
        QTest::newRow("digits") << QStringLiteral("x9") << QStringLiteral("x9");
    }
    void sanitizeMetaKey()
    {
        QFETCH(QString, key);
        QFETCH(QString, expected);
        QCOMPARE(Channel::sanitizeMetaKey(key), expected);
    }

    void fullMessageBecomesStringOnlyMeta()
    {
        Broker::Message m;
        m.id = 42;
        m.fromId = QStringLiteral("d92a5e28");
        m.toId = QStringLiteral("478e3862");
        m.text = QStringLiteral("line1\nline2 \"quoted\"");
        m.type = QStringLiteral("handoff");
        m.metadata = QJsonObject {{QStringLiteral("task"), QStringLiteral("x")},
                                  {QStringLiteral("files"), QJsonArray {QStringLiteral("a.cpp")}},
                                  {QStringLiteral("n"), 3}};
        m.replyTo = 41;
        m.sentAt = QStringLiteral("2026-03-27T12:00:00.000Z");
        const QJsonObject n = Channel::notification(
            m,
            Channel::Sender {QStringLiteral("AUTH"), QStringLiteral("[AUTH] x"), QStringLiteral("/p"), {}});
        QCOMPARE(n.value(QLatin1String("jsonrpc")).toString(), QStringLiteral("2.0"));
        QCOMPARE(n.value(QLatin1String("method")).toString(), QStringLiteral("notifications/claude/channel"));
        QVERIFY(!n.contains(QLatin1String("id")));
        const QJsonObject params = n.value(QLatin1String("params")).toObject();
        QCOMPARE(params.value(QLatin1String("content")).toString(), m.text);
        const QJsonObject meta = params.value(QLatin1String("meta")).toObject();
        verifyMetaShape(meta);
        QCOMPARE(meta.value(QLatin1String("from_id")).toString(), QStringLiteral("d92a5e28"));
        QCOMPARE(meta.value(QLatin1String("from_name")).toString(), QStringLiteral("AUTH"));
        QCOMPARE(meta.value(QLatin1String("from_summary")).toString(), QStringLiteral("[AUTH] x"));
        QCOMPARE(meta.value(QLatin1String("from_cwd")).toString(), QStringLiteral("/p"));
        QCOMPARE(meta.value(QLatin1String("type")).toString(), QStringLiteral("handoff"));
        QCOMPARE(meta.value(QLatin1String("message_id")).toString(), QStringLiteral("42"));
        QCOMPARE(meta.value(QLatin1String("sent_at")).toString(), m.sentAt);
        QCOMPARE(meta.value(QLatin1String("reply_to")).toString(), QStringLiteral("41"));
        const QJsonDocument metadata =
            QJsonDocument::fromJson(meta.value(QLatin1String("metadata_json")).toString().toUtf8());
        QCOMPARE(metadata.object(), *m.metadata);
        QCOMPARE(meta.size(), 9);
        // One line on the wire.
        QVERIFY(!QJsonDocument(n).toJson(QJsonDocument::Compact).contains('\n'));
    }

    void optionalFieldsAreOmitted()
    {
        Broker::Message m;
        m.id = 1;
        m.fromId = QStringLiteral("system");
        m.text = QStringLiteral("x");
        m.type = QString();
        m.replyTo = 0;
        const QJsonObject meta = Channel::params(m, {}).value(QLatin1String("meta")).toObject();
        verifyMetaShape(meta);
        QCOMPARE(meta.value(QLatin1String("type")).toString(), QStringLiteral("text"));
        QCOMPARE(meta.value(QLatin1String("from_name")).toString(), QString());
        QVERIFY(meta.value(QLatin1String("from_name")).isString());
        QVERIFY(!meta.contains(QLatin1String("reply_to")));
        QVERIFY(!meta.contains(QLatin1String("sent_at")));
        QVERIFY(!meta.contains(QLatin1String("metadata_json")));
    }

    void helloNotification()
    {
        const QJsonObject n = Channel::helloNotification();
        const QJsonObject params = n.value(QLatin1String("params")).toObject();
        QCOMPARE(params.value(QLatin1String("content")).toString(),
                 QStringLiteral("claude-peers MCP server connected. Channel push active."));
        const QJsonObject meta = params.value(QLatin1String("meta")).toObject();
        verifyMetaShape(meta);
        QCOMPARE(meta.value(QLatin1String("message_id")).toString(), QStringLiteral("startup-hello"));
        QCOMPARE(meta.value(QLatin1String("from_id")).toString(), QStringLiteral("system"));
    }
};

QTEST_GUILESS_MAIN(tst_Channel)
#include "tst_channel.moc"
