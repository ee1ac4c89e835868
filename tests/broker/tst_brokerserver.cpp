// The broker in-process over real loopback HTTP: the reference's own checklist
// (docs/spec/peers-api.md §12 items 1–12) plus lifecycle, health/metrics, federation-disabled
// answers and GUI signals.
#include "broker/internal/service.h"
#include "broker/secretstore.h"
#include "tests/broker/brokerharness.h"
#include "tests/support/fakesecretstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using TestSupport::HttpResult;

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QStringList ids(const QJsonArray &peers)
{
    QStringList list;
    for (const QJsonValue &p : peers)
        list.append(p.toObject().value(QStringLiteral("id")).toString());
    return list;
}

} // namespace

class tst_BrokerServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // docs/spec/peers-api.md §12.1, §12.3
    void healthAnswersWithoutAuth()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const HttpResult r = h.get(QStringLiteral("/health"));
        QCOMPARE(r.status, 200);
        const QJsonObject o = r.object();
        QCOMPARE(str(o, "status"), QStringLiteral("ok"));
        QVERIFY(o.value(QStringLiteral("peers")).isDouble());
        QVERIFY(o.value(QStringLiteral("uptime_ms")).isDouble());
        QVERIFY(o.value(QStringLiteral("requests_last_minute")).isDouble());
        QCOMPARE(o.value(QStringLiteral("pending_messages")).toInt(), 0);
        QCOMPARE(o.value(QStringLiteral("pid")).toInteger(), QCoreApplication::applicationPid());
        QCOMPARE(str(o, "version"), QStringLiteral(PEERS_VERSION));
        QCOMPARE(o.value(QStringLiteral("capabilities")).toArray(),
                 QJsonArray({QStringLiteral("wait-messages"), QStringLiteral("wait-after-id"),
                             QStringLiteral("session-secret"), QStringLiteral("database-id"),
                             QStringLiteral("attention"), QStringLiteral("idempotency-key")}));
        QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$")).match(str(o, "database_id")).hasMatch());
        // any method
        QCOMPARE(h.postRaw(QStringLiteral("/health"), "{}", {}).status, 200);
    }

    // docs/spec/peers-api.md §12.2, §12.3
    void postNeedsTheToken()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const QJsonObject body {{QStringLiteral("pid"), h.spawnSession()},
                                {QStringLiteral("cwd"), QStringLiteral("/x")}};
        HttpResult r = h.post(QStringLiteral("/register"), body, {});
        QCOMPARE(r.status, 401);
        QCOMPARE(r.body, QByteArray("{\"error\":\"Unauthorized\"}"));
        r = h.post(QStringLiteral("/register"), body, QByteArray(64, '0'));
        QCOMPARE(r.status, 401);
        r = h.post(QStringLiteral("/register"), body);
        QCOMPARE(r.status, 200);
        static const QRegularExpression shape(QStringLiteral("^[a-z0-9]{8}$"));
        QVERIFY(shape.match(str(r.object(), "id")).hasMatch());
        QCOMPARE(str(r.object(), "session_secret").size(), 64);
        QVERIFY(!r.object().contains(QStringLiteral("session_name"))); // omitted when empty
        QCOMPARE(h.post(QStringLiteral("/send-message"), {}, {}).status, 401);
    }

    // docs/spec/peers-api.md §12.4
    void registrationIdsAndReRegistration()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer noTty = h.registerPeer();
        QCOMPARE(noTty.id.size(), 8);

        const qint64 pid = h.spawnSession();
        const RegisteredPeer first =
            h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/44"), {}, {}, pid);
        QCOMPARE(first.id, QStringLiteral("d92a5e28"));
        const RegisteredPeer again =
            h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/44"), {}, {}, pid);
        QCOMPARE(again.id, first.id);
        int rowsWithPid = 0;
        for (const QJsonValue &p : h.listPeers())
            rowsWithPid += p.toObject().value(QStringLiteral("pid")).toInteger() == pid;
        QCOMPARE(rowsWithPid, 1);
    }

    // docs/spec/peers-api.md §12.5
    void heartbeatAndSetters()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer p = h.registerPeer();
        const QString before = str(h.listPeers().at(0).toObject(), "last_seen");
        HttpResult r = h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), p.id}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("{\"ok\":true}"));
        QCOMPARE(
            h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), QStringLiteral("nobody00")}}).status,
            200);
        const QString after = str(h.listPeers().at(0).toObject(), "last_seen");
        QVERIFY2(after >= before, qPrintable(before + QLatin1String(" > ") + after));

        QCOMPARE(
            h.post(QStringLiteral("/set-summary"),
                   {{QStringLiteral("id"), p.id}, {QStringLiteral("summary"), QStringLiteral("fixing auth")}})
                .body,
            QByteArray("{\"ok\":true}"));
        QCOMPARE(h.post(QStringLiteral("/set-name"),
                        {{QStringLiteral("id"), p.id},
                         {QStringLiteral("session_name"), QStringLiteral("AUTH_WORKER")}})
                     .status,
                 200);
        QCOMPARE(h.post(QStringLiteral("/set-channel-push"),
                        {{QStringLiteral("id"), p.id}, {QStringLiteral("status"), QStringLiteral("working")}})
                     .status,
                 200);
        QCOMPARE(h.post(QStringLiteral("/set-channel-push"),
                        {{QStringLiteral("id"), p.id}, {QStringLiteral("status"), QStringLiteral("bogus")}})
                     .body,
                 QByteArray("{\"ok\":true}"));
        const QJsonObject row = h.listPeers().at(0).toObject();
        QCOMPARE(str(row, "summary"), QStringLiteral("fixing auth"));
        QCOMPARE(str(row, "session_name"), QStringLiteral("AUTH_WORKER"));
        QCOMPARE(str(row, "channel_push"), QStringLiteral("working"));
        QVERIFY(!row.contains(QLatin1String("delivery"))); // ours: absent until a helper says it

        // delivery (ours): kept; an unknown one is ignored like an unknown status; absent keeps it.
        const auto setPush = [&](const QJsonValue &delivery) {
            QJsonObject body {{QStringLiteral("id"), p.id},
                              {QStringLiteral("status"), QStringLiteral("unverified")}};
            if (!delivery.isUndefined())
                body.insert(QStringLiteral("delivery"), delivery);
            return h.post(QStringLiteral("/set-channel-push"), body);
        };
        QCOMPARE(setPush(QStringLiteral("inbox")).status, 200);
        QCOMPARE(str(h.listPeers().at(0).toObject(), "delivery"), QStringLiteral("inbox"));
        QCOMPARE(setPush(QStringLiteral("carrier pigeon")).status, 200);
        QCOMPARE(setPush(QJsonValue::Undefined).status, 200);
        QCOMPARE(str(h.listPeers().at(0).toObject(), "delivery"), QStringLiteral("inbox"));
        QCOMPARE(setPush(5).status, 400);
        QCOMPARE(setPush(QString(3000, QLatin1Char('x'))).status, 400);
        QCOMPARE(str(h.listPeers().at(0).toObject(), "delivery"), QStringLiteral("inbox"));
    }

    // docs/spec/peers-api.md §12.6
    void listPeersScopesAndUnregister()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer(QStringLiteral("/repo/a"), {}, QStringLiteral("/repo"));
        const RegisteredPeer b = h.registerPeer(QStringLiteral("/repo/b"), {}, QStringLiteral("/repo"));
        const RegisteredPeer c = h.registerPeer(QStringLiteral("/other"));
        QCOMPARE(h.listPeers().size(), 3);
        QCOMPARE(h.listPeers(QStringLiteral("lan")).size(), 3); // ≡ machine without federation
        QCOMPARE(ids(h.listPeers(QStringLiteral("directory"),
                                 {{QStringLiteral("cwd"), QStringLiteral("/repo/a")}})),
                 QStringList {a.id});
        QStringList repo = ids(h.listPeers(QStringLiteral("repo"),
                                           {{QStringLiteral("cwd"), QStringLiteral("/x")},
                                            {QStringLiteral("git_root"), QStringLiteral("/repo")}}));
        repo.sort();
        QStringList expected {a.id, b.id};
        expected.sort();
        QCOMPARE(repo, expected);
        // repo without git_root falls back to the directory
        QCOMPARE(
            ids(h.listPeers(QStringLiteral("repo"), {{QStringLiteral("cwd"), QStringLiteral("/other")}})),
            QStringList {c.id});
        QVERIFY(!ids(h.listPeers(QStringLiteral("machine"), {{QStringLiteral("exclude_id"), a.id}}))
                     .contains(a.id));
        QCOMPARE(h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}}).body,
                 QByteArray("{\"ok\":true}"));
        QVERIFY(!h.hasPeer(b.id));
        QCOMPARE(h.listPeers().size(), 2);
    }

    // docs/spec/peers-api.md §12.7
    void sendPollAck()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 id = h.send(a.id, b.id, QStringLiteral("status?"));
        QVERIFY(id > 0);
        QJsonArray messages = h.poll(b.id);
        QCOMPARE(messages.size(), 1);
        const QJsonObject m = messages.at(0).toObject();
        QCOMPARE(m.value(QStringLiteral("id")).toInteger(), id);
        QCOMPARE(str(m, "from_id"), a.id);
        QCOMPARE(str(m, "to_id"), b.id);
        QCOMPARE(str(m, "text"), QStringLiteral("status?"));
        QCOMPARE(str(m, "type"), QStringLiteral("text"));
        QVERIFY(m.value(QStringLiteral("metadata")).isNull());
        QVERIFY(m.value(QStringLiteral("reply_to")).isNull());
        QCOMPARE(m.value(QStringLiteral("delivered")).toInt(-1), 0);
        QVERIFY(str(m, "sent_at").endsWith(QLatin1Char('Z')));
        QCOMPARE(h.poll(b.id).size(), 1); // poll does not mark delivered
        QCOMPARE(h.post(QStringLiteral("/ack-messages"),
                        {{QStringLiteral("id"), b.id}, {QStringLiteral("message_ids"), QJsonArray {id}}})
                     .body,
                 QByteArray("{\"ok\":true}"));
        QCOMPARE(h.poll(b.id).size(), 0);

        const HttpResult status =
            h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), id}});
        QCOMPARE(status.status, 200);
        QCOMPARE(status.object().value(QStringLiteral("delivered")), QJsonValue(true));
        QCOMPARE(str(status.object(), "from_id"), a.id);
        const HttpResult missing =
            h.post(QStringLiteral("/message-status"), {{QStringLiteral("message_id"), 999999}});
        QCOMPARE(missing.status, 404);
        QCOMPARE(missing.body, QByteArray("{\"error\":\"not found\"}"));

        const HttpResult unknown = h.post(QStringLiteral("/send-message"),
                                          {{QStringLiteral("from_id"), a.id},
                                           {QStringLiteral("to_id"), QStringLiteral("zzzzzzzz")},
                                           {QStringLiteral("text"), QStringLiteral("hi")}});
        QCOMPARE(unknown.status, 200);
        QCOMPARE(unknown.object().value(QStringLiteral("ok")), QJsonValue(false));
        QCOMPARE(
            str(unknown.object(), "error"),
            QStringLiteral("Peer zzzzzzzz not found. Run list_peers to see available peers, or the peer may "
                           "have disconnected."));
    }

    // Another peer cannot acknowledge my messages.
    void ackOnlyAffectsOwnMessages()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 id = h.send(a.id, b.id, QStringLiteral("x"));
        QCOMPARE(
            h.post(QStringLiteral("/ack-messages"),
                   {{QStringLiteral("id"), a.id}, {QStringLiteral("message_ids"), QJsonArray {id, 424242}}})
                .status,
            200);
        QCOMPARE(h.poll(b.id).size(), 1);
    }

    // docs/spec/peers-api.md §12.8
    void structuredMessages()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const QJsonObject meta {{QStringLiteral("task"), QStringLiteral("fix")},
                                {QStringLiteral("files"), QJsonArray {QStringLiteral("a.cpp")}}};
        const qint64 q =
            h.send(a.id, b.id, QStringLiteral("q?"), {{QStringLiteral("type"), QStringLiteral("query")}});
        const qint64 handoff =
            h.send(a.id, b.id, QStringLiteral("take it"),
                   {{QStringLiteral("type"), QStringLiteral("handoff")}, {QStringLiteral("metadata"), meta}});
        const qint64 reply =
            h.send(b.id, a.id, QStringLiteral("done"),
                   {{QStringLiteral("type"), QStringLiteral("response")}, {QStringLiteral("reply_to"), q}});
        QVERIFY(q > 0 && handoff > 0 && reply > 0);
        const QJsonArray forB = h.poll(b.id);
        QCOMPARE(str(forB.at(0).toObject(), "type"), QStringLiteral("query"));
        QCOMPARE(forB.at(1).toObject().value(QStringLiteral("metadata")).toObject(), meta);
        QCOMPARE(h.poll(a.id).at(0).toObject().value(QStringLiteral("reply_to")).toInteger(), q);

        auto sendError = [&](const QJsonObject &extra) {
            QJsonObject body = extra;
            body.insert(QStringLiteral("from_id"), a.id);
            body.insert(QStringLiteral("to_id"), b.id);
            if (!body.contains(QStringLiteral("text")))
                body.insert(QStringLiteral("text"), QStringLiteral("x"));
            const HttpResult r = h.post(QStringLiteral("/send-message"), body);
            if (r.status != 200 || r.object().value(QStringLiteral("ok")) != QJsonValue(false))
                return QStringLiteral("unexpected %1 %2").arg(r.status).arg(QString::fromUtf8(r.body));
            return str(r.object(), "error");
        };
        QCOMPARE(sendError({{QStringLiteral("reply_to"), 999999}}),
                 QStringLiteral("Referenced message 999999 not found"));
        QCOMPARE(sendError({{QStringLiteral("metadata"), QStringLiteral("str")}}),
                 QStringLiteral("metadata must be a JSON object"));
        QCOMPARE(sendError({{QStringLiteral("metadata"), QJsonArray {1}}}),
                 QStringLiteral("metadata must be a JSON object"));
        QCOMPARE(sendError({{QStringLiteral("metadata"), 5}}),
                 QStringLiteral("metadata must be a JSON object"));
        QCOMPARE(
            sendError({{QStringLiteral("type"), QStringLiteral("shout")}}),
            QStringLiteral(
                "Invalid message type: \"shout\". Valid types: text, query, response, handoff, broadcast"));
        QCOMPARE(sendError({{QStringLiteral("type"), QString()}}),
                 QStringLiteral(
                     "Invalid message type: \"\". Valid types: text, query, response, handoff, broadcast"));
        // null type and null metadata are the defaults
        const qint64 plain =
            h.send(a.id, b.id, QStringLiteral("n"),
                   {{QStringLiteral("type"), QJsonValue()}, {QStringLiteral("metadata"), QJsonValue()}});
        QVERIFY(plain > 0);
        QCOMPARE(str(h.poll(b.id).last().toObject(), "type"), QStringLiteral("text"));
        // size: text + compact metadata, in UTF-16 units
        QCOMPARE(sendError({{QStringLiteral("text"), QString(10241, QLatin1Char('x'))}}),
                 QStringLiteral("Message too large (text + metadata max 10KB)"));
        QVERIFY(h.send(a.id, b.id, QString(10240, QLatin1Char('x'))) > 0);
        const QJsonObject small {{QStringLiteral("k"), QStringLiteral("v")}}; // {"k":"v"} = 9 units
        QVERIFY(h.send(a.id, b.id, QString(10231, QLatin1Char('x')), {{QStringLiteral("metadata"), small}}) >
                0);
        QCOMPARE(sendError({{QStringLiteral("text"), QString(10232, QLatin1Char('x'))},
                            {QStringLiteral("metadata"), small}}),
                 QStringLiteral("Message too large (text + metadata max 10KB)"));
        QVERIFY(h.send(a.id, b.id, QString(10240, QChar(0x00E9))) > 0); // 20480 UTF-8 bytes, 10240 units
    }

    // docs/spec/peers-api.md §12.9
    void broadcastScopes()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer(QStringLiteral("/repo/a"), {}, QStringLiteral("/repo"));
        const RegisteredPeer b = h.registerPeer(QStringLiteral("/repo/a"), {}, QStringLiteral("/repo"));
        const RegisteredPeer c = h.registerPeer(QStringLiteral("/repo/c"), {}, QStringLiteral("/repo"));
        const RegisteredPeer d = h.registerPeer(QStringLiteral("/elsewhere"));
        auto broadcast = [&](const QJsonObject &extra) {
            QJsonObject body = extra;
            body.insert(QStringLiteral("from_id"), a.id);
            if (!body.contains(QStringLiteral("text")))
                body.insert(QStringLiteral("text"), QStringLiteral("all hands"));
            if (!body.contains(QStringLiteral("cwd")))
                body.insert(QStringLiteral("cwd"), QStringLiteral("/repo/a"));
            return h.post(QStringLiteral("/broadcast"), body);
        };
        HttpResult r = broadcast({{QStringLiteral("scope"), QStringLiteral("machine")}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object().value(QStringLiteral("ok")), QJsonValue(true));
        QCOMPARE(r.object().value(QStringLiteral("recipients")).toInt(), 3);
        const QJsonArray messageIds = r.object().value(QStringLiteral("message_ids")).toArray();
        QCOMPARE(messageIds.size(), 3);
        for (const QJsonValue &v : messageIds)
            QVERIFY(v.toInteger() > 0);
        QCOMPARE(h.poll(a.id).size(), 0); // sender excluded
        QCOMPARE(str(h.poll(d.id).at(0).toObject(), "type"), QStringLiteral("broadcast"));

        r = broadcast({{QStringLiteral("scope"), QStringLiteral("directory")}});
        QCOMPARE(r.object().value(QStringLiteral("recipients")).toInt(), 1);
        QCOMPARE(h.poll(b.id).size(), 2);
        r = broadcast({{QStringLiteral("scope"), QStringLiteral("repo")},
                       {QStringLiteral("git_root"), QStringLiteral("/repo")}});
        QCOMPARE(r.object().value(QStringLiteral("recipients")).toInt(), 2);
        QCOMPARE(h.poll(c.id).size(), 2);
        r = broadcast({{QStringLiteral("scope"), QStringLiteral("directory")},
                       {QStringLiteral("cwd"), QStringLiteral("/nobody")}});
        QCOMPARE(r.body, QByteArray("{\"message_ids\":[],\"ok\":true,\"recipients\":0}"));

        r = broadcast({{QStringLiteral("scope"), QStringLiteral("machine")},
                       {QStringLiteral("text"), QString(10241, QLatin1Char('x'))}});
        QCOMPARE(r.object().value(QStringLiteral("ok")), QJsonValue(false));
        QCOMPARE(r.object().value(QStringLiteral("recipients")).toInt(-1), 0);
        QCOMPARE(r.object().value(QStringLiteral("message_ids")).toArray().size(), 0);
        QCOMPARE(str(r.object(), "error"), QStringLiteral("Message too large (text + metadata max 10KB)"));
        r = broadcast({{QStringLiteral("type"), QStringLiteral("yell")}});
        QCOMPARE(str(r.object(), "error"), QStringLiteral("Invalid message type: yell"));
        r = broadcast({{QStringLiteral("metadata"), QJsonArray()}});
        QCOMPARE(str(r.object(), "error"), QStringLiteral("metadata must be a JSON object"));
        QCOMPARE(h.post(QStringLiteral("/broadcast"), {}, {}).status, 401);
    }

    // docs/spec/peers-api.md §12.10
    void unknownRouteAndNonPost()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        HttpResult r = h.post(QStringLiteral("/no-such-route"), {});
        QCOMPARE(r.status, 404);
        QCOMPARE(r.body, QByteArray("{\"error\":\"not found\"}"));
        QCOMPARE(h.post(QStringLiteral("/no-such-route"), {}, {}).status, 401); // auth first
        r = h.get(QStringLiteral("/register"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("claude-peers broker"));
        QCOMPARE(h.post(QStringLiteral("/federation/status"), {}).status, 404);
        // The route is looked up before the body is parsed (the reference: 500 for bad JSON).
        r = h.postRaw(QStringLiteral("/no-such-route"), "{not json", h.token());
        QCOMPARE(r.status, 404);
        QCOMPARE(r.body, QByteArray("{\"error\":\"not found\"}"));
    }

    // docs/divergences.md: an empty tty or git_root is stored and listed as null (the
    // reference stored and listed "").
    void emptyTtyAndGitRootAreListedAsNull()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const qint64 pid = h.spawnSession();
        const HttpResult r = h.post(QStringLiteral("/register"),
                                    {{QStringLiteral("pid"), pid},
                                     {QStringLiteral("cwd"), QStringLiteral("/w")},
                                     {QStringLiteral("tty"), QString()},
                                     {QStringLiteral("git_root"), QString()}});
        QCOMPARE(r.status, 200);
        const QJsonObject listed = h.listPeers().at(0).toObject();
        QCOMPARE(listed.value(QStringLiteral("id")).toString(), str(r.object(), "id"));
        QCOMPARE(listed.value(QStringLiteral("tty")), QJsonValue(QJsonValue::Null));
        QCOMPARE(listed.value(QStringLiteral("git_root")), QJsonValue(QJsonValue::Null));
    }

    // docs/divergences.md: /poll-messages lists by id, i.e. in the order the broker stored
    // them, even when the wall clock stepped back in between (the reference: by sent_at).
    void pollListsInStoreOrderWhenTheClockStepsBack()
    {
        BrokerHarness h({}, /*manualClock*/ true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const qint64 first = h.send(a.id, b.id, QStringLiteral("first"));
        h.clock().advance(-60000);
        const qint64 second = h.send(a.id, b.id, QStringLiteral("second"));
        const QJsonArray messages = h.poll(b.id);
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.at(0).toObject().value(QStringLiteral("id")).toInteger(), first);
        QCOMPARE(messages.at(1).toObject().value(QStringLiteral("id")).toInteger(), second);
        QVERIFY(str(messages.at(1).toObject(), "sent_at") < str(messages.at(0).toObject(), "sent_at"));
    }

    // docs/divergences.md: object keys come in alphabetical order (the reference: insertion
    // order). JSON objects are unordered; this pins what clients see.
    void answerKeysAreInAlphabeticalOrder()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/9"));
        const RegisteredPeer b = h.registerPeer();
        const HttpResult sent = h.post(QStringLiteral("/send-message"),
                                       {{QStringLiteral("from_id"), a.id},
                                        {QStringLiteral("to_id"), b.id},
                                        {QStringLiteral("text"), QStringLiteral("t")}});
        QVERIFY2(sent.body.startsWith("{\"message_id\":") && sent.body.endsWith(",\"ok\":true}"),
                 sent.body.constData());
        const HttpResult polled = h.post(QStringLiteral("/poll-messages"), {{QStringLiteral("id"), b.id}});
        qsizetype at = 0;
        for (const char *key : {"messages", "delivered", "from_id", "id", "metadata", "reply_to", "sent_at",
                                "text", "to_id", "type"}) {
            const qsizetype next = polled.body.indexOf(QByteArray('"' + QByteArray(key) + "\":"), at);
            QVERIFY2(next >= at, key);
            at = next;
        }
        const HttpResult listed =
            h.post(QStringLiteral("/list-peers"), {{QStringLiteral("scope"), QStringLiteral("machine")}});
        QVERIFY2(listed.body.startsWith("[{\"channel_push\":"), listed.body.constData());
    }

    // docs/spec/peers-api.md §12.11
    void concurrentSendsHitTheRateLimit()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QList<QNetworkReply *> replies;
        for (int i = 0; i < 120; ++i)
            replies.append(h.postAsync(QStringLiteral("/send-message"),
                                       {{QStringLiteral("from_id"), a.id},
                                        {QStringLiteral("to_id"), b.id},
                                        {QStringLiteral("text"), QStringLiteral("m%1").arg(i)}}));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(replies.begin(), replies.end(), [](QNetworkReply *r) { return r->isFinished(); }),
            TestSupport::scaled(30000));
        int ok = 0, limited = 0;
        for (QNetworkReply *r : replies) {
            const int status = BrokerHarness::replyStatus(r);
            if (status == 429) {
                ++limited;
                QCOMPARE(r->readAll(), QByteArray("{\"error\":\"Rate limited\"}"));
            } else if (status == 200) {
                ++ok;
            }
        }
        QCOMPARE(ok, 60);
        QCOMPARE(limited, 60);
        QCOMPARE(h.poll(b.id).size(), 60);
    }

    // docs/spec/peers-api.md §12.12
    void evictionInheritsNameAndKeepsOneRowPerTty()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const qint64 pid = h.spawnSession();
        const RegisteredPeer named =
            h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/7"), {}, QStringLiteral("WORKER"), pid);
        QCOMPARE(str(named.answer, "session_name"), QStringLiteral("WORKER"));
        // same pid, same tty, empty name → inherits
        const RegisteredPeer again =
            h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/7"), {}, {}, pid);
        QCOMPARE(again.id, named.id);
        QCOMPARE(str(again.answer, "session_name"), QStringLiteral("WORKER"));
        // same tty, another live pid → its own id; the live one keeps its row (divergence)
        const RegisteredPeer other = h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/7"));
        QVERIFY(other.id != named.id);
        QVERIFY(h.hasPeer(named.id));
        // same tty once the first is dead → the terminal's id again, one row for that tty
        h.endSession(pid);
        const RegisteredPeer after =
            h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/7"), {}, {}, h.spawnSession());
        QCOMPARE(after.id, named.id);
        QCOMPARE(str(after.answer, "session_name"), QStringLiteral("WORKER"));
        int rowsForTty = 0;
        for (const QJsonValue &p : h.listPeers())
            rowsForTty += p.toObject().value(QStringLiteral("tty")).toString() == QLatin1String("pts/7");
        QCOMPARE(rowsForTty, 2); // the newcomer of before is alive: it stays
        // a TTY-less re-registration with the same pid gets a new id; the old one is gone
        const qint64 pid2 = h.spawnSession();
        const RegisteredPeer loose = h.registerPeer(QStringLiteral("/w"), {}, {}, {}, pid2);
        const RegisteredPeer loose2 = h.registerPeer(QStringLiteral("/w"), {}, {}, {}, pid2);
        QVERIFY(loose.id != loose2.id);
        const RegisteredPeer sender = h.registerPeer();
        const HttpResult r = h.post(QStringLiteral("/send-message"),
                                    {{QStringLiteral("from_id"), sender.id},
                                     {QStringLiteral("to_id"), loose.id},
                                     {QStringLiteral("text"), QStringLiteral("x")}});
        QCOMPARE(r.object().value(QStringLiteral("ok")), QJsonValue(false));
        QVERIFY(str(r.object(), "error").contains(QLatin1String("not found")));
    }

    // Fields of ours (docs/protocol.md): requested_id for sessions without a terminal or with
    // CLAUDE_PEERS_ID, client for the listings. A live holder keeps its id.
    void requestedIdAndClientAreKeptAndListed()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const qint64 pid = h.spawnSession();
        auto registerAs = [&](qint64 p, const QJsonValue &requested, const QJsonValue &client) {
            QJsonObject body {{QStringLiteral("pid"), p},
                              {QStringLiteral("cwd"), QStringLiteral("/w")},
                              {QStringLiteral("git_root"), QJsonValue()},
                              {QStringLiteral("tty"), QJsonValue()}};
            if (!requested.isUndefined())
                body.insert(QStringLiteral("requested_id"), requested);
            if (!client.isUndefined())
                body.insert(QStringLiteral("client"), client);
            return h.post(QStringLiteral("/register"), body);
        };
        const HttpResult first = registerAs(pid, QStringLiteral("reviewer"), QStringLiteral("opencode"));
        QCOMPARE(first.status, 200);
        QCOMPARE(str(first.object(), "id"), QStringLiteral("reviewer"));
        const HttpResult second =
            registerAs(h.spawnSession(), QStringLiteral("reviewer"), QJsonValue::Undefined);
        QCOMPARE(second.status, 200);
        const QString secondId = str(second.object(), "id");
        QVERIFY(secondId != QLatin1String("reviewer"));
        QCOMPARE(secondId.size(), 8);
        for (const QJsonValue &v : h.listPeers()) {
            const QJsonObject p = v.toObject();
            if (str(p, "id") == QLatin1String("reviewer"))
                QCOMPARE(str(p, "client"), QStringLiteral("opencode"));
            else
                QVERIFY(!p.contains(QLatin1String("client"))); // 0.7's row shape when not said
        }
        QCOMPARE(registerAs(pid, QStringLiteral("host:peer"), QJsonValue::Undefined).status, 400);
        QCOMPARE(registerAs(pid, QString(65, QLatin1Char('a')), QJsonValue::Undefined).status, 400);
        QCOMPARE(registerAs(pid, 5, QJsonValue::Undefined).status, 400);
        QVERIFY(h.hasPeer(QStringLiteral("reviewer")));
        h.endSession(pid);
        const HttpResult again =
            registerAs(h.spawnSession(), QStringLiteral("reviewer"), QStringLiteral("claude-code"));
        QCOMPARE(str(again.object(), "id"), QStringLiteral("reviewer"));
    }

    // A target found alive is trusted for Service::liveTargetCacheMs (docs/decisions.md): a
    // send within that second is stored, the first send after it finds the dead PID.
    void deadTargetIsNoticedWhenItsLivenessExpires()
    {
        BrokerHarness h({}, /*manualClock*/ true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QVERIFY(h.send(a.id, b.id, QStringLiteral("one")) > 0);
        h.endSession(b.pid);
        QVERIFY(h.send(a.id, b.id, QStringLiteral("within the second")) > 0);
        h.clock().advance(Broker::Service::liveTargetCacheMs);
        const HttpResult r = h.post(QStringLiteral("/send-message"),
                                    {{QStringLiteral("from_id"), a.id},
                                     {QStringLiteral("to_id"), b.id},
                                     {QStringLiteral("text"), QStringLiteral("x")}});
        QCOMPARE(str(r.object(), "error"),
                 QStringLiteral("Peer %1 is not running (PID %2 dead)").arg(b.id).arg(b.pid));
        QVERIFY(!h.hasPeer(b.id));
    }

    // Removal through the broker drops the cached liveness at once.
    void unregisteredTargetIsRefusedAtOnce()
    {
        BrokerHarness h({}, /*manualClock*/ true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QVERIFY(h.send(a.id, b.id, QStringLiteral("one")) > 0);
        QCOMPARE(h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}}, b.secret).status, 200);
        const HttpResult r = h.post(QStringLiteral("/send-message"),
                                    {{QStringLiteral("from_id"), a.id},
                                     {QStringLiteral("to_id"), b.id},
                                     {QStringLiteral("text"), QStringLiteral("x")}});
        QCOMPARE(r.object().value(QStringLiteral("ok")), QJsonValue(false));
        QVERIFY(str(r.object(), "error").contains(QLatin1String("not found")));
    }

    void sendToDeadPeerRemovesIt()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        h.endSession(b.pid);
        const HttpResult r = h.post(QStringLiteral("/send-message"),
                                    {{QStringLiteral("from_id"), a.id},
                                     {QStringLiteral("to_id"), b.id},
                                     {QStringLiteral("text"), QStringLiteral("x")}});
        QCOMPARE(r.status, 200);
        QCOMPARE(str(r.object(), "error"),
                 QStringLiteral("Peer %1 is not running (PID %2 dead)").arg(b.id).arg(b.pid));
        QVERIFY(!h.hasPeer(b.id));
    }

    void listPeersPrunesDeadPeers()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer dead =
            h.registerPeer(QStringLiteral("/w"), {}, {}, {}, BrokerHarness::deadPid());
        QVERIFY(!dead.id.isEmpty());
        QCOMPARE(ids(h.listPeers()), QStringList {a.id});
        QCOMPARE(h.get(QStringLiteral("/health")).object().value(QStringLiteral("peers")).toInt(), 1);
    }

    void messageHistoryNeedsMainToken()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        h.send(a.id, b.id, QStringLiteral("first"));
        const qint64 second = h.send(a.id, b.id, QStringLiteral("second needle"));
        h.post(QStringLiteral("/ack-messages"),
               {{QStringLiteral("id"), b.id}, {QStringLiteral("message_ids"), QJsonArray {second}}});
        HttpResult r = h.post(QStringLiteral("/messages"), {});
        QCOMPARE(r.status, 200);
        QJsonArray list = r.object().value(QStringLiteral("messages")).toArray();
        QCOMPARE(list.size(), 2);
        QCOMPARE(str(list.at(0).toObject(), "text"), QStringLiteral("second needle")); // newest first
        QCOMPARE(list.at(0).toObject().value(QStringLiteral("delivered")), QJsonValue(true));
        QCOMPARE(list.at(1).toObject().value(QStringLiteral("delivered")), QJsonValue(false));
        r = h.post(QStringLiteral("/messages"),
                   {{QStringLiteral("search"), QStringLiteral("needle")}, {QStringLiteral("limit"), 5}});
        QCOMPARE(r.object().value(QStringLiteral("messages")).toArray().size(), 1);
        QCOMPARE(h.post(QStringLiteral("/messages"), {}, a.secret).status, 403);
    }

    // The message log (docs/protocol.md, /messages): pages by id both ways with "more", the
    // thread between two peers, a peer's messages, given ids, and when each was pushed.
    void messageLogPagesFiltersAndPushes()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const RegisteredPeer c = h.registerPeer();
        QList<qint64> ab;
        for (int i = 0; i < 5; ++i)
            ab << h.send(a.id, b.id, QStringLiteral("ab%1").arg(i));
        const qint64 ac = h.send(a.id, c.id, QStringLiteral("ac"));
        const qint64 cb = h.send(c.id, b.id, QStringLiteral("cb"));
        const auto idsOf = [](const HttpResult &r) {
            QList<qint64> ids;
            for (const QJsonValue &v : r.object().value(QStringLiteral("messages")).toArray())
                ids << v.toObject().value(QStringLiteral("id")).toInteger();
            return ids;
        };
        // Oldest first after an id, with "more" while the limit cut the page.
        HttpResult r = h.post(QStringLiteral("/messages"),
                              {{QStringLiteral("after_id"), ab.at(0)},
                               {QStringLiteral("order"), QStringLiteral("asc")},
                               {QStringLiteral("limit"), 3}});
        QCOMPARE(r.status, 200);
        QCOMPARE(idsOf(r), (QList<qint64> {ab.at(1), ab.at(2), ab.at(3)}));
        QCOMPARE(r.object().value(QStringLiteral("more")), QJsonValue(true));
        r = h.post(
            QStringLiteral("/messages"),
            {{QStringLiteral("after_id"), ab.at(3)}, {QStringLiteral("order"), QStringLiteral("asc")}});
        QCOMPARE(idsOf(r), (QList<qint64> {ab.at(4), ac, cb}));
        QVERIFY(!r.object().contains(QStringLiteral("more")));
        // Newest first before an id.
        r = h.post(QStringLiteral("/messages"), {{QStringLiteral("before_id"), ab.at(2)}});
        QCOMPARE(idsOf(r), (QList<qint64> {ab.at(1), ab.at(0)}));
        // A thread: both ways between two peers; a peer: either end.
        r = h.post(QStringLiteral("/messages"),
                   {{QStringLiteral("peer"), c.id}, {QStringLiteral("with"), b.id}});
        QCOMPARE(idsOf(r), (QList<qint64> {cb}));
        r = h.post(QStringLiteral("/messages"), {{QStringLiteral("peer"), c.id}});
        QCOMPARE(idsOf(r), (QList<qint64> {cb, ac}));
        // Given ids (a client refreshing their state); unknown ids are simply absent.
        r = h.post(QStringLiteral("/messages"), {{QStringLiteral("ids"), QJsonArray {ac, ab.at(0), 999999}}});
        QCOMPARE(idsOf(r), (QList<qint64> {ac, ab.at(0)}));
        // Pushed: b's stream answers with its messages; the log says so, c's message not yet.
        r = h.post(QStringLiteral("/wait-messages"),
                   {{QStringLiteral("id"), b.id}, {QStringLiteral("timeout_ms"), 0}}, b.secret);
        QCOMPARE(r.status, 200);
        QVERIFY(!r.object().value(QStringLiteral("messages")).toArray().isEmpty());
        r = h.post(QStringLiteral("/messages"), {{QStringLiteral("ids"), QJsonArray {ab.at(0), ac}}});
        const QJsonArray list = r.object().value(QStringLiteral("messages")).toArray();
        QCOMPARE(list.size(), 2);
        const QJsonObject toC = list.at(0).toObject(), toB = list.at(1).toObject();
        QCOMPARE(toB.value(QStringLiteral("pushed_by")).toString(), QStringLiteral("stream"));
        QVERIFY(QDateTime::fromString(toB.value(QStringLiteral("pushed_at")).toString(), Qt::ISODateWithMs)
                    .isValid());
        QVERIFY(!toC.contains(QStringLiteral("pushed_at")));
        // /poll-messages is a handout too.
        QVERIFY(!h.poll(c.id).isEmpty());
        r = h.post(QStringLiteral("/messages"), {{QStringLiteral("ids"), QJsonArray {ac}}});
        QCOMPARE(str(r.object().value(QStringLiteral("messages")).toArray().at(0).toObject(), "pushed_by"),
                 QStringLiteral("poll"));
    }

    void messageLogRejectsBadInput_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error");
        const QByteArray longId(Broker::HistoryRequest::maxFilterBytes + 1, 'x');
        QByteArray manyIds = "[";
        for (int i = 0; i <= Broker::HistoryRequest::maxIds; ++i)
            manyIds += (i ? "," : "") + QByteArray::number(i + 1);
        manyIds += "]";
        QTest::newRow("before_id negative")
            << QByteArray(R"({"before_id":-1})")
            << QStringLiteral("Field \"before_id\" must be a non-negative integer");
        QTest::newRow("after_id text") << QByteArray(R"({"after_id":"soon"})")
                                       << QStringLiteral("Field \"after_id\" must be a non-negative integer");
        QTest::newRow("order") << QByteArray(R"({"order":"sideways"})")
                               << QStringLiteral("Field \"order\" must be one of desc, asc");
        QTest::newRow("with alone")
            << QByteArray(R"({"with":"abc"})")
            << QStringLiteral(
                   "Field \"with\" must be given together with \"peer\" (the thread between two peers)");
        QTest::newRow("peer too long")
            << (QByteArray(R"({"peer":")") + longId + "\"}")
            << QStringLiteral("Field \"peer\" must be a string of at most 2048 bytes (UTF-8)");
        QTest::newRow("search too long")
            << (QByteArray(R"({"search":")") + longId + "\"}")
            << QStringLiteral("Field \"search\" must be a string of at most 2048 bytes (UTF-8)");
        QTest::newRow("ids not a list")
            << QByteArray(R"({"ids":7})") << QStringLiteral("Field \"ids\" must be an array of integers");
        QTest::newRow("ids of text") << QByteArray(R"({"ids":["a"]})")
                                     << QStringLiteral("Field \"ids\" must be an array of integers");
        QTest::newRow("too many ids")
            << (QByteArray(R"({"ids":)") + manyIds + "}")
            << QStringLiteral("Field \"ids\" must be a list of at most 500 integers");
        QTest::newRow("since not a time")
            << QByteArray(R"({"since":"yesterday"})")
            << QStringLiteral(
                   "since must be an ISO-8601 timestamp such as 2026-03-27T12:00:00.000Z, not \"yesterday\"");
    }

    void messageLogRejectsBadInput()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        BrokerHarness h;
        QVERIFY(h.start());
        const HttpResult r = h.postRaw(QStringLiteral("/messages"), body, h.token());
        QCOMPARE(r.status, 400);
        QCOMPARE(str(r.object(), "error"), error);
    }

    void metricsAndHealthCounters()
    {
        BrokerHarness h([](Broker::Settings &s) { s.statsIntervalMs = 300; });
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer(QStringLiteral("/m"), {}, {}, QStringLiteral("NAMED"));
        const RegisteredPeer b = h.registerPeer(QStringLiteral("/m"));
        const qint64 id = h.send(a.id, b.id, QStringLiteral("1"));
        h.send(a.id, b.id, QStringLiteral("2"));
        h.send(a.id, b.id, QStringLiteral("3"));
        h.post(QStringLiteral("/ack-messages"),
               {{QStringLiteral("id"), b.id}, {QStringLiteral("message_ids"), QJsonArray {id}}});
        QJsonObject m = h.get(QStringLiteral("/metrics")).object();
        QCOMPARE(m.value(QStringLiteral("peer_count")).toInt(), 2);
        const QJsonObject messages = m.value(QStringLiteral("messages")).toObject();
        QCOMPARE(messages.value(QStringLiteral("total")).toInt(), 3);
        QCOMPARE(messages.value(QStringLiteral("delivered")).toInt(), 1);
        QCOMPARE(messages.value(QStringLiteral("pending")).toInt(), 2);
        QCOMPARE(messages.value(QStringLiteral("delivery_rate_pct")).toDouble(), 33.33);
        QVERIFY(m.value(QStringLiteral("uptime_seconds")).isDouble());
        QVERIFY(m.value(QStringLiteral("requests_per_minute")).isDouble());
        QCOMPARE(m.value(QStringLiteral("federation")).toObject(),
                 (QJsonObject {{QStringLiteral("enabled"), false},
                               {QStringLiteral("remote_count"), 0},
                               {QStringLiteral("remote_peer_count"), 0}}));
        QVERIFY(!m.contains(QStringLiteral("peers")));
        m = h.get(QStringLiteral("/metrics?detailed=true")).object();
        const QJsonArray peers = m.value(QStringLiteral("peers")).toArray();
        QCOMPARE(peers.size(), 2);
        QCOMPARE(str(peers.at(0).toObject(), "name"), QStringLiteral("NAMED"));
        QCOMPARE(str(peers.at(1).toObject(), "name"), b.id);
        QCOMPARE(h.get(QStringLiteral("/health")).object().value(QStringLiteral("pending_messages")).toInt(),
                 2);
        // the counter of the previous window: after a rotation it is > 0
        QTRY_VERIFY(
            h.get(QStringLiteral("/health")).object().value(QStringLiteral("requests_last_minute")).toInt() >
            0);
    }

    void federationDisabledAnswers()
    {
        BrokerHarness h([](Broker::Settings &s) { s.federationPort = 7911; });
        QVERIFY(h.start());
        HttpResult r = h.get(QStringLiteral("/federation/status"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object(),
                 (QJsonObject {{QStringLiteral("enabled"), false},
                               {QStringLiteral("port"), 7911},
                               {QStringLiteral("subnet"), QString()},
                               {QStringLiteral("remotes"), QJsonArray()},
                               {QStringLiteral("total_remote_peers"), 0}}));
        const QString disabled =
            QStringLiteral("Federation is not enabled. Enable with: CLAUDE_PEERS_FEDERATION_ENABLED=true "
                           "or run `claude-peers federation init`");
        for (const QString &path :
             {QStringLiteral("/federation/connect"), QStringLiteral("/federation/disconnect"),
              QStringLiteral("/federation/send-to-remote")}) {
            QCOMPARE(h.post(path, {}, {}).status, 401);
            r = h.post(
                path, {{QStringLiteral("host"), QStringLiteral("10.0.0.1")}, {QStringLiteral("port"), 7900}});
            QCOMPARE(r.status, 200);
            QCOMPARE(r.object(),
                     (QJsonObject {{QStringLiteral("ok"), false}, {QStringLiteral("error"), disabled}}));
        }
    }

    void tokenRotationNeedsReload()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const QByteArray oldToken = h.token();
        const QByteArray newToken(64, 'c');
        QFile f(h.home().tokenPath());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(newToken + '\n');
        f.close();
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, oldToken).status, 200); // until reloaded
        const HttpResult r = h.post(QStringLiteral("/reload"), {}, oldToken);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("{\"ok\":true,\"peers\":0}"));
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, oldToken).status, 401);
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, newToken).status, 200);
        // a missing file keeps the current token
        QVERIFY(QFile::remove(h.home().tokenPath()));
        h.server().reload();
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, newToken).status, 200);
    }

    void secretsSaysTheExplicitTokenFileIsTheSourceOfTruth()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const HttpResult r = h.post(QStringLiteral("/secrets"), {});
        QCOMPARE(r.status, 200);
        const QJsonObject local = r.object().value(QStringLiteral("local_token")).toObject();
        QCOMPARE(local.value(QStringLiteral("store")).toString(), QStringLiteral("file"));
        QCOMPARE(local.value(QStringLiteral("where")).toString(), h.home().tokenPath());
        QCOMPARE(local.value(QStringLiteral("token_file")).toString(), h.home().tokenPath());
        QVERIFY(
            local.value(QStringLiteral("note")).toString().contains(QStringLiteral("CLAUDE_PEERS_TOKEN")));
        QCOMPARE(h.server().secretsStatus().localToken.name, h.home().tokenPath());
    }

    void keychainTokenIsServedSaidAndRotated()
    {
        auto keychain = std::make_shared<TestSupport::FakeSecretStore>();
        const QByteArray kept(64, 'k');
        keychain->secrets.insert(Broker::SecretStore::localTokenKey, kept);
        BrokerHarness h([](Broker::Settings &s) { s.location.tokenPathExplicit = false; });
        h.server().setSecretStore(keychain);
        QVERIFY(h.start());
        // The keychain's token replaces the file's as soon as the keychain answers.
        QTRY_COMPARE(h.home().token(), kept);
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, kept).status, 200);
        HttpResult r = h.post(QStringLiteral("/secrets"), {}, kept);
        QCOMPARE(r.status, 200);
        QJsonObject local = r.object().value(QStringLiteral("local_token")).toObject();
        QCOMPARE(local.value(QStringLiteral("store")).toString(), QStringLiteral("keychain"));
        QCOMPARE(local.value(QStringLiteral("where")).toString(),
                 TestSupport::FakeSecretStore::location().name);
        QCOMPARE(local.value(QStringLiteral("token_file")).toString(), h.home().tokenPath());
        QVERIFY(!local.contains(QStringLiteral("note")));

        r = h.post(QStringLiteral("/rotate-token"), {}, kept);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object().value(QStringLiteral("ok")).toBool(), true);
        QCOMPARE(r.object()
                     .value(QStringLiteral("local_token"))
                     .toObject()
                     .value(QStringLiteral("store"))
                     .toString(),
                 QStringLiteral("keychain"));
        const QByteArray fresh = keychain->secrets.value(Broker::SecretStore::localTokenKey);
        QVERIFY(fresh != kept);
        QCOMPARE(h.home().token(), fresh);
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, kept).status, 401);
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, fresh).status, 200);

        // A keychain that refuses the next token: 503, and the token stays what it was.
        keychain->failures = {Broker::SecretError::Kind::Denied};
        r = h.post(QStringLiteral("/rotate-token"), {}, fresh);
        QCOMPARE(r.status, 503);
        QVERIFY(r.object().value(QStringLiteral("error")).toString().contains(QStringLiteral("not rotated")));
        QCOMPARE(h.post(QStringLiteral("/list-peers"), {}, fresh).status, 200);
        QCOMPARE(h.home().token(), fresh);
    }

    void tokenIsReReadPeriodically()
    {
        BrokerHarness h([](Broker::Settings &s) { s.tokenRereadMs = 100; });
        QVERIFY(h.start());
        QFile f(h.home().tokenPath());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray(64, 'd') + '\n');
        f.close();
        QTRY_COMPARE(h.post(QStringLiteral("/list-peers"), {}, QByteArray(64, 'd')).status, 200);
    }

    void createsTokenFileWithMode0600()
    {
        BrokerHarness h;
        QVERIFY(!QFile::exists(h.home().tokenPath()));
        QVERIFY(h.start());
        QCOMPARE(h.token().size(), 64);
        const QFileDevice::Permissions perms = QFile::permissions(h.home().tokenPath());
        QVERIFY(perms.testFlags(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(!(perms &
                  (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther |
                   QFileDevice::WriteOther | QFileDevice::ExeOwner)));
    }

    void emitsSignalsForTheGui()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        Broker::BrokerServer &s = h.server();
        QSignalSpy registered(&s, &Broker::BrokerServer::peerRegistered);
        QSignalSpy updated(&s, &Broker::BrokerServer::peerUpdated);
        QSignalSpy removed(&s, &Broker::BrokerServer::peerRemoved);
        QSignalSpy stored(&s, &Broker::BrokerServer::messageStored);
        QSignalSpy delivered(&s, &Broker::BrokerServer::messageDelivered);
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        QCOMPARE(registered.size(), 2);
        QCOMPARE(registered.at(0).at(0).toString(), a.id);
        h.post(QStringLiteral("/set-name"),
               {{QStringLiteral("id"), b.id}, {QStringLiteral("session_name"), QStringLiteral("N")}});
        QVERIFY(!updated.isEmpty());
        const qint64 id = h.send(a.id, b.id, QStringLiteral("x"));
        QCOMPARE(stored.size(), 1);
        QCOMPARE(stored.at(0).at(0).toLongLong(), id);
        QCOMPARE(stored.at(0).at(1).toString(), a.id);
        QCOMPARE(stored.at(0).at(2).toString(), b.id);
        h.post(QStringLiteral("/ack-messages"),
               {{QStringLiteral("id"), b.id}, {QStringLiteral("message_ids"), QJsonArray {id, id}}});
        QCOMPARE(delivered.size(), 1);
        QCOMPARE(delivered.at(0).at(0).toLongLong(), id);
        h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}});
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.at(0).at(0).toString(), b.id);
        QCOMPARE(s.peers().size(), 1);
        QCOMPARE(s.pendingMessageCount(), 0);
    }

    void secondServerOnTheSameDatabaseIsLocked()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        Broker::BrokerServer second(h.settings());
        auto started = second.start();
        QVERIFY(!started);
        QCOMPARE(started.error().kind, Broker::ErrorKind::Locked);
        QCOMPARE(started.error().message,
                 QStringLiteral(
                     "Another claude-peers broker (pid %1) is already using %2. Stop it with: claude-peers "
                     "kill-broker")
                     .arg(QCoreApplication::applicationPid())
                     .arg(h.settings().location.databasePath));
        QCOMPARE(h.get(QStringLiteral("/health")).status, 200); // the first one is unharmed
        h.server().stop();
        QVERIFY(second.start()); // the lock is released on stop
    }

    void portInUseIsReported()
    {
        QTcpServer blocker;
        QVERIFY(blocker.listen(QHostAddress::LocalHost, 0));
        BrokerHarness h([&](Broker::Settings &s) { s.location.port = blocker.serverPort(); });
        auto started = h.server().start();
        QVERIFY(!started);
        QCOMPARE(started.error().kind, Broker::ErrorKind::PortInUse);
        QCOMPARE(started.error().message,
                 QStringLiteral("Port %1 is already in use. Another broker or program listens there; set "
                                "CLAUDE_PEERS_PORT or stop it.")
                     .arg(blocker.serverPort()));
        QVERIFY(!QFile::exists(h.settings().location.pidPath()));
        blocker.close();
        QVERIFY(h.start()); // nothing left behind: the lock was released
    }

    void pidFileLivesWhileRunning()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        QFile pidFile(h.settings().location.pidPath());
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        QCOMPARE(pidFile.readAll().trimmed().toLongLong(), QCoreApplication::applicationPid());
        pidFile.close();
        h.server().stop();
        QVERIFY(!pidFile.exists());
        QVERIFY(!h.server().isRunning());
        QCOMPARE(h.get(QStringLiteral("/health")).status, 0);
    }

    // The entry points the federation module uses for /federation/peers and /federation/relay.
    void relayedMessagesForTheFederationSide()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        Broker::BrokerServer &s = h.server();
        const RegisteredPeer b = h.registerPeer();
        const RegisteredPeer dead =
            h.registerPeer(QStringLiteral("/w"), {}, {}, {}, BrokerHarness::deadPid(1));
        auto peers = s.localPeers();
        QVERIFY(peers);
        QCOMPARE(peers->size(), 1); // pruned
        QCOMPARE(peers->at(0).id, b.id);

        const QString from = QStringLiteral("remote-host:abc12345");
        auto r = s.storeRelayedMessage(from, QStringLiteral("nobody00"), QStringLiteral("x"),
                                       QStringLiteral("text"), {}, {});
        QVERIFY(!r);
        QCOMPARE(r.error().httpStatus, 404);
        QCOMPARE(r.error().message, QStringLiteral("Peer nobody00 not found locally"));

        const RegisteredPeer dying = h.registerPeer();
        h.endSession(dying.pid);
        r = s.storeRelayedMessage(from, dying.id, QStringLiteral("x"), QStringLiteral("text"), {}, {});
        QVERIFY(!r);
        QCOMPARE(r.error().httpStatus, 410); // even for a host:peer sender (docs/spec/peers-api.md §13.1 #20)
        QCOMPARE(r.error().message, QStringLiteral("Peer %1 is not running").arg(dying.id));
        QVERIFY(!h.hasPeer(dying.id));

        r = s.storeRelayedMessage(from, b.id, QStringLiteral("x"), QStringLiteral("text"), QJsonArray {1},
                                  {});
        QCOMPARE(r.error().httpStatus, 400);
        QCOMPARE(r.error().message, QStringLiteral("metadata must be a JSON object"));
        r = s.storeRelayedMessage(from, b.id, QString(10241, QLatin1Char('x')), QStringLiteral("text"), {},
                                  {});
        QCOMPARE(r.error().httpStatus, 400);
        QCOMPARE(r.error().message, QStringLiteral("Message too large (text + metadata max 10KB)"));

        QNetworkReply *wait =
            h.postAsync(QStringLiteral("/wait-messages"),
                        {{QStringLiteral("id"), b.id}, {QStringLiteral("timeout_ms"), 30000}});
        QTRY_COMPARE(s.waitingPeerCount(), 1);
        r = s.storeRelayedMessage(from, b.id, QStringLiteral("from afar"), QStringLiteral("weird"),
                                  QJsonObject {{QStringLiteral("k"), 1}}, 77);
        QVERIFY(r && *r > 0);
        QTRY_VERIFY(wait->isFinished());
        const QJsonObject m =
            BrokerHarness::replyObject(wait).value(QStringLiteral("messages")).toArray().at(0).toObject();
        QCOMPARE(str(m, "from_id"), from);
        QCOMPARE(str(m, "type"), QStringLiteral("text")); // unknown types become text
        QCOMPARE(m.value(QStringLiteral("reply_to")).toInteger(), 77); // not validated: sender's id space
        QCOMPARE(m.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("k")).toInt(), 1);
        Q_UNUSED(dead);
    }

    void registeredPeersSurviveARestart()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/3"));
        const RegisteredPeer b = h.registerPeer();
        const qint64 id = h.send(b.id, a.id, QStringLiteral("kept"));
        h.server().stop();
        QVERIFY(h.start());
        QVERIFY(h.hasPeer(a.id));
        QCOMPARE(h.poll(a.id).at(0).toObject().value(QStringLiteral("id")).toInteger(), id);
        // the session secret survives too (stored hashed)
        QCOMPARE(h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), a.id}}, a.secret).status, 200);
    }

    // The database id is the file's: the same after a restart, another for a new file, and the
    // /register answer names it too (issue 7 §1.1).
    void databaseIdBelongsToTheFile()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const QString first =
            h.get(QStringLiteral("/health")).object().value(QStringLiteral("database_id")).toString();
        QCOMPARE(first.size(), 32);
        QCOMPARE(h.registerPeer().answer.value(QStringLiteral("database_id")).toString(), first);
        h.server().stop();
        QVERIFY(h.start());
        QCOMPARE(h.get(QStringLiteral("/health")).object().value(QStringLiteral("database_id")).toString(),
                 first);
        h.server().stop();
        for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
            QFile::remove(h.home().databasePath() + suffix);
        QVERIFY(h.start());
        const QString second =
            h.get(QStringLiteral("/health")).object().value(QStringLiteral("database_id")).toString();
        QCOMPARE(second.size(), 32);
        QVERIFY(second != first);
    }
};

QTEST_GUILESS_MAIN(tst_BrokerServer)
#include "tst_brokerserver.moc"
