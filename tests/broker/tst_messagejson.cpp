// The hand-written message answers must be byte for byte what QJsonDocument writes for
// Message::toJson(), which the API answered before (wire compatibility).
#include "broker/internal/messagejson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using Broker::DeliveredAs;
using Broker::Message;

namespace {

QByteArray viaQtJson(const QList<Message> &messages, DeliveredAs delivered)
{
    QJsonArray array;
    for (const Message &m : messages) {
        QJsonObject o = m.toJson();
        if (delivered == DeliveredAs::Boolean)
            o.insert(QStringLiteral("delivered"), m.delivered);
        array.append(o);
    }
    return QJsonDocument(QJsonObject {{QStringLiteral("messages"), array}}).toJson(QJsonDocument::Compact);
}

} // namespace

class tst_MessageJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sameBytesAsQJsonDocument_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("plain") << QStringLiteral("hello world");
        QTest::newRow("empty") << QString();
        QTest::newRow("quotes and backslashes") << QStringLiteral(R"(say "hi" \ C:\path /slash)");
        QTest::newRow("short escapes") << QStringLiteral("a\bb\fc\nd\re\tf");
        QString controls;
        for (char16_t c = 0; c < 0x20; ++c)
            controls += QChar(c);
        controls += QChar(0x7f);
        QTest::newRow("every control character") << controls;
        QTest::newRow("non-ASCII") << QStringLiteral("Grüße, 日本語, emoji 😀, U+2028 \u2028 U+FEFF \ufeff");
        QTest::newRow("lone surrogates") << (QString(QChar(0xd800)) + QStringLiteral("x") + QChar(0xdc00));
    }
    void sameBytesAsQJsonDocument()
    {
        QFETCH(QString, text);
        Message plain;
        plain.id = 42;
        plain.fromId = QStringLiteral("ab12cd34");
        plain.toId = QStringLiteral("host:ef56") + text.left(3);
        plain.text = text;
        plain.type = QStringLiteral("query");
        plain.sentAt = QStringLiteral("2026-11-30T17:00:00.123Z");
        Message rich = plain;
        rich.id = 9007199254740991;
        rich.delivered = true;
        rich.replyTo = 41;
        rich.metadata = QJsonObject {{QStringLiteral("z"), 1.5},
                                     {QStringLiteral("a"), text},
                                     {QStringLiteral("n"), QJsonValue::Null},
                                     {QStringLiteral("list"), QJsonArray {1, QStringLiteral("two"), true}}};
        const QList<Message> messages {plain, rich};
        for (DeliveredAs delivered : {DeliveredAs::Integer, DeliveredAs::Boolean}) {
            const QByteArray ours = Broker::messagesAnswer(messages, delivered);
            QCOMPARE(ours, viaQtJson(messages, delivered));
        }
        QCOMPARE(Broker::messagesAnswer({}), QByteArray(R"({"messages":[]})"));
    }
};

QTEST_GUILESS_MAIN(tst_MessageJson)
#include "tst_messagejson.moc"
