#include "common/dto.h"

#include <QJsonDocument>
#include <QTest>

using namespace Broker;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

} // namespace

class tst_Dto : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void localPeerRoundTrip()
    {
        Peer p;
        p.id = QStringLiteral("d92a5e28");
        p.pid = 4242;
        p.cwd = QStringLiteral("/home/u/proj");
        p.gitRoot = QStringLiteral("/home/u/proj");
        p.tty = QStringLiteral("pts/44");
        p.summary = QStringLiteral("[AUTH:pts/44] Working in proj");
        p.registeredAt = QStringLiteral("2026-03-27T12:00:00.000Z");
        p.lastSeen = QStringLiteral("2026-03-27T12:00:15.000Z");
        p.sessionName = QStringLiteral("AUTH");
        p.channelPush = QStringLiteral("working");
        p.version = QStringLiteral("0.8.0");

        const QJsonObject o = p.toJson();
        QCOMPARE(o.value(QStringLiteral("git_root")).toString(), p.gitRoot);
        QCOMPARE(o.value(QStringLiteral("channel_push")).toString(), QStringLiteral("working"));
        auto back = Peer::fromJson(o);
        QVERIFY(back);
        QCOMPARE(back->id, p.id);
        QCOMPARE(back->pid, p.pid);
        QCOMPARE(back->cwd, p.cwd);
        QCOMPARE(back->gitRoot, p.gitRoot);
        QCOMPARE(back->tty, p.tty);
        QCOMPARE(back->summary, p.summary);
        QCOMPARE(back->registeredAt, p.registeredAt);
        QCOMPARE(back->lastSeen, p.lastSeen);
        QCOMPARE(back->sessionName, p.sessionName);
        QCOMPARE(back->channelPush, p.channelPush);
        QCOMPARE(back->version, p.version);
        QCOMPARE(back->displayName(), QStringLiteral("AUTH"));
        QVERIFY(!back->isRemote());
    }

    void emptyOptionalsAreNullOnTheWire()
    {
        Peer p;
        p.id = QStringLiteral("abc12345");
        const QJsonObject o = p.toJson();
        QVERIFY(o.value(QStringLiteral("git_root")).isNull());
        QVERIFY(o.value(QStringLiteral("tty")).isNull());
        QCOMPARE(o.value(QStringLiteral("channel_push")).toString(), QStringLiteral("unknown"));
        QCOMPARE(p.displayName(), QStringLiteral("abc12345"));
    }

    void remotePeerHasNoLocalFields()
    {
        Peer p;
        p.id = QStringLiteral("rafi-macbook:380ea400");
        QVERIFY(p.isRemote());
        const QJsonObject o = p.toJson();
        QVERIFY(!o.contains(QStringLiteral("channel_push")));
        QVERIFY(!o.contains(QStringLiteral("version")));
    }

    void peerFromReferenceJson()
    {
        auto p = Peer::fromJson(parse(R"({"id":"478e3862","pid":7,"cwd":"/x","git_root":null,"tty":null,
            "summary":"","registered_at":"a","last_seen":"b","session_name":"","channel_push":"unknown","version":""})"));
        QVERIFY(p);
        QVERIFY(p->gitRoot.isEmpty());
        QVERIFY(p->tty.isEmpty());
        QCOMPARE(p->pid, 7);
    }

    void badPeerRejected_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("missing id") << QByteArray(R"({"pid":1})");
        QTest::newRow("numeric id") << QByteArray(R"({"id":5})");
        QTest::newRow("null id") << QByteArray(R"({"id":null})");
        QTest::newRow("empty object") << QByteArray("{}");
    }
    void badPeerRejected()
    {
        QFETCH(QByteArray, json);
        auto p = Peer::fromJson(QJsonDocument::fromJson(json).object());
        QVERIFY(!p);
        QCOMPARE(p.error().kind, Broker::ErrorKind::BadField);
        QVERIFY(p.error().message.contains(QStringLiteral("\"id\"")));
    }

    void messageRoundTrip()
    {
        Message m;
        m.id = 42;
        m.fromId = QStringLiteral("d92a5e28");
        m.toId = QStringLiteral("478e3862");
        m.text = QStringLiteral("status? \u2713");
        m.type = QStringLiteral("handoff");
        m.metadata = QJsonObject {{QStringLiteral("task"), QStringLiteral("x")},
                                  {QStringLiteral("files"), QJsonArray {QStringLiteral("a.cpp")}}};
        m.replyTo = 41;
        m.sentAt = QStringLiteral("2026-03-27T12:00:00.000Z");
        m.delivered = false;

        const QJsonObject o = m.toJson();
        QCOMPARE(o.value(QStringLiteral("delivered")).toInt(), 0);
        auto back = Message::fromJson(o);
        QVERIFY(back);
        QCOMPARE(back->id, m.id);
        QCOMPARE(back->fromId, m.fromId);
        QCOMPARE(back->toId, m.toId);
        QCOMPARE(back->text, m.text);
        QCOMPARE(back->type, m.type);
        QCOMPARE(back->metadata, m.metadata);
        QCOMPARE(back->replyTo, m.replyTo);
        QCOMPARE(back->sentAt, m.sentAt);
        QCOMPARE(back->delivered, false);
    }

    void messageDefaultsAndBooleans_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("delivered");
        QTest::addColumn<bool>("hasMetadata");
        QTest::newRow("poll shape")
            << QByteArray(R"({"id":1,"type":"query","metadata":null,"reply_to":null,"delivered":0})")
            << QStringLiteral("query") << false << false;
        QTest::newRow("history shape")
            << QByteArray(R"({"id":1,"delivered":true})") << QStringLiteral("text") << true << false;
        QTest::newRow("empty type") << QByteArray(R"({"id":1,"type":"","delivered":1})")
                                    << QStringLiteral("text") << true << false;
        QTest::newRow("metadata array ignored")
            << QByteArray(R"({"id":1,"metadata":[1,2]})") << QStringLiteral("text") << false << false;
        QTest::newRow("metadata object")
            << QByteArray(R"({"id":1,"metadata":{"a":1}})") << QStringLiteral("text") << false << true;
    }
    void messageDefaultsAndBooleans()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, type);
        QFETCH(bool, delivered);
        QFETCH(bool, hasMetadata);
        auto m = Message::fromJson(QJsonDocument::fromJson(json).object());
        QVERIFY(m);
        QCOMPARE(m->type, type);
        QCOMPARE(m->delivered, delivered);
        QCOMPARE(m->metadata.has_value(), hasMetadata);
        QVERIFY(!m->replyTo);
    }

    void badMessageRejected_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("missing id") << QByteArray(R"({"text":"x"})");
        QTest::newRow("string id") << QByteArray(R"({"id":"42"})");
        QTest::newRow("null id") << QByteArray(R"({"id":null})");
    }
    void badMessageRejected()
    {
        QFETCH(QByteArray, json);
        auto m = Message::fromJson(QJsonDocument::fromJson(json).object());
        QVERIFY(!m);
        QCOMPARE(m.error().kind, Broker::ErrorKind::BadField);
    }

    void listsFailOnTheFirstBadElement()
    {
        const QJsonArray peers {QJsonObject {{QStringLiteral("id"), QStringLiteral("a")}}, QJsonObject {}};
        QVERIFY(!peersFromJson(peers));
        QCOMPARE(peersFromJson(QJsonArray {})->size(), 0);
        const QJsonArray messages {QJsonObject {{QStringLiteral("id"), 1}},
                                   QJsonObject {{QStringLiteral("id"), 2}}};
        auto list = messagesFromJson(messages);
        QVERIFY(list);
        QCOMPARE(list->size(), 2);
        QVERIFY(!messagesFromJson(QJsonArray {QStringLiteral("not an object")}));
    }

    void messageTypeNames()
    {
        for (auto t : {MessageType::Text, MessageType::Query, MessageType::Response, MessageType::Handoff,
                       MessageType::Broadcast})
            QCOMPARE(messageTypeFromName(messageTypeName(t)), t);
        QVERIFY(!messageTypeFromName(QStringLiteral("TEXT")));
        QVERIFY(!messageTypeFromName(QString()));
        QCOMPARE(messageTypeList(), QStringLiteral("text, query, response, handoff, broadcast"));
    }
};

QTEST_GUILESS_MAIN(tst_Dto)
#include "tst_dto.moc"
