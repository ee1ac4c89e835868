// The federation module inside real brokers (in-process, loopback, temp HOMEs, real SQLite):
// the PSK's migration and rotation, two brokers linked both ways (lan list, relays both ways,
// broadcast), and the inbound pipeline's refusals (docs/spec/peers-api.md §4.1, §4.4 plus replay
// protection), each storing nothing.
#include "federation/joinurl.h"
#include "tests/federation/federationnode.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace Federation;
using namespace FederationTest;
using TestSupport::HttpResult;

namespace {

// docs/spec/peers-api.md §6.5 for bodies of strings, integers and null at the top level: there
// JavaScript's canonical form and Qt's compact sorted form are the same bytes (checked against
// §6.5's vector below).
QByteArray signFlat(const QJsonObject &body, const QByteArray &key)
{
    return QMessageAuthenticationCode::hash(QJsonDocument(body).toJson(QJsonDocument::Compact), key,
                                            QCryptographicHash::Sha256)
        .toHex();
}

QByteArray signedBody(QJsonObject body, const QByteArray &key)
{
    body.insert(QStringLiteral("signature"), QString::fromLatin1(signFlat(body, key)));
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QJsonObject relayFields(const QString &to, const QString &text)
{
    return {{QStringLiteral("from_id"), QStringLiteral("gamma:g1")},
            {QStringLiteral("from_machine"), QStringLiteral("gamma")},
            {QStringLiteral("to_id"), to},
            {QStringLiteral("text"), text},
            {QStringLiteral("type"), QStringLiteral("text")},
            {QStringLiteral("metadata"), QJsonValue()},
            {QStringLiteral("reply_to"), QJsonValue()}};
}

QJsonObject withReplayFields(QJsonObject body, const QString &toMachine, qint64 ts, const QString &nonce)
{
    body.insert(QStringLiteral("ts"), ts);
    body.insert(QStringLiteral("nonce"), nonce);
    body.insert(QStringLiteral("to_machine"), toMachine);
    return body;
}

} // namespace

class tst_FederationModule : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void signingHelperMatchesTheReferenceVector()
    {
        const QJsonObject body {{QStringLiteral("from_id"), QStringLiteral("riche-wsl2:a1b2c3d4")},
                                {QStringLiteral("from_machine"), QStringLiteral("riche-wsl2")},
                                {QStringLiteral("to_id"), QStringLiteral("e5f6a7b8")},
                                {QStringLiteral("text"), QStringLiteral("hello")},
                                {QStringLiteral("type"), QStringLiteral("text")},
                                {QStringLiteral("metadata"), QJsonValue()},
                                {QStringLiteral("reply_to"), QJsonValue()}};
        QCOMPARE(signFlat(body, QByteArray("0123456789abcdef").repeated(4)),
                 QByteArray("f4e04795798644636f884d86443b83b5cde2ef7f18333f2b4c8357395bfbae75"));
    }

    void pskStartsAsACopyOfTheTokenThenRotates()
    {
        Node node = makeNode(QStringLiteral("alpha"), {}, {});
        QSignalSpy ready(node.module.get(), &FederationModule::ready);
        QVERIFY(node.broker->start());
        QVERIFY(ready.wait(TestSupport::scaled(15000)));
        QCOMPARE(node.federation().psk(), node.broker->token());

        QJsonObject status = node.broker->get(QStringLiteral("/federation/status")).object();
        QCOMPARE(status.value(u"enabled").toBool(), true);
        QCOMPARE(status.value(u"psk_source").toString(), QStringLiteral("local-token-copy"));
        QVERIFY(
            QJsonDocument(status.value(u"warnings").toArray()).toJson().contains("federation rotate-psk"));
        HttpResult token = node.broker->post(QStringLiteral("/federation/token"),
                                             {{QStringLiteral("host"), QStringLiteral("127.0.0.1")}});
        const auto url = parseJoinUrl(token.object().value(u"url").toString());
        QVERIFY2(url.has_value(), token.body.constData());
        QCOMPARE(url->token, node.broker->token());
        QCOMPARE(url->host, QStringLiteral("127.0.0.1"));
        QCOMPARE(url->port, node.fedPort());
        QVERIFY(!token.object().contains(u"psk")); // the secret travels in the URL only
        QCOMPARE(token.object().value(u"hostname").toString(), QStringLiteral("alpha"));
        QCOMPARE(node.broker->post(QStringLiteral("/federation/token"), {}, "wrong").status, 401);

        HttpResult rotated = node.broker->post(QStringLiteral("/federation/rotate-psk"), {});
        QCOMPARE(rotated.object().value(u"ok").toBool(), true);
        const QByteArray psk = node.federation().psk();
        QCOMPARE(psk.size(), 64);
        QVERIFY(psk != node.broker->token());
        QFile file(node.broker->home().path() + QStringLiteral("/.claude-peers-federation-psk"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().trimmed(), psk);
        QCOMPARE(file.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
        status = node.broker->get(QStringLiteral("/federation/status")).object();
        QCOMPARE(status.value(u"psk_source").toString(), QStringLiteral("own"));

        // The old key (the token) no longer opens the federation port; the new one does.
        QCOMPARE(fedPost(node.fedPort(), "/federation/peers", "{}", node.broker->token()).status, 403);
        QCOMPARE(fedPost(node.fedPort(), "/federation/peers", "{}", psk).status, 200);

        node.broker->server().stop();
        QVERIFY(node.broker->start());
        QTRY_COMPARE_WITH_TIMEOUT(node.federation().psk(), psk, TestSupport::scaled(15000));
    }

    void twoBrokersLinkBothWaysAndRelay()
    {
        Node a = makeNode(QStringLiteral("alpha"));
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(a));
        QVERIFY(startNode(b));
        const RegisteredPeer peerA = a.broker->registerPeer(QStringLiteral("/work/a"));
        const RegisteredPeer peerB = b.broker->registerPeer(QStringLiteral("/work/b"));

        HttpResult connected =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(b.fedPort()));
        QCOMPARE(connected.object().value(u"ok").toBool(), true);
        QCOMPARE(connected.object().value(u"hostname").toString(), QStringLiteral("beta"));

        const auto ids = [](const QJsonArray &peers) {
            QStringList list;
            for (const QJsonValue &peer : peers)
                list.append(peer.toObject().value(u"id").toString());
            return list;
        };
        QVERIFY(ids(a.broker->listPeers(QStringLiteral("lan"))).contains(QStringLiteral("beta:") + peerB.id));
        QVERIFY(!ids(a.broker->listPeers(QStringLiteral("machine")))
                     .contains(QStringLiteral("beta:") + peerB.id));
        // Bidirectional: beta reached alpha back after alpha's handshake (0.7 needs a second connect).
        QTRY_VERIFY_WITH_TIMEOUT(
            ids(b.broker->listPeers(QStringLiteral("lan"))).contains(QStringLiteral("alpha:") + peerA.id),
            TestSupport::scaled(10000));
        const QJsonObject statusA = a.broker->get(QStringLiteral("/federation/status")).object();
        QCOMPARE(statusA.value(u"remotes").toArray().size(), 1);
        QCOMPARE(statusA.value(u"total_remote_peers").toInt(), 1);

        // The connect was saved to the config file, as 0.7 does (docs/spec/peers-api.md §6.3 step 5).
        const Broker::ConfigFile config = Broker::ConfigFile::load(a.broker->home().configPath());
        QCOMPARE(config.remotes().size(), 1);
        QCOMPARE(config.remotes().first().label, QStringLiteral("beta"));

        // alpha → beta: the helper's send_message to "host:peer" goes to /federation/send-to-remote.
        HttpResult sent =
            a.broker->post(QStringLiteral("/federation/send-to-remote"),
                           {{QStringLiteral("from_id"), peerA.id},
                            {QStringLiteral("to_id"), QString(QStringLiteral("beta:") + peerB.id)},
                            {QStringLiteral("text"), QStringLiteral("hello beta")},
                            {QStringLiteral("metadata"), QJsonObject {{QStringLiteral("k"), 1}}}});
        QVERIFY2(sent.object().value(u"ok").toBool(), sent.body.constData());
        QJsonArray atB = b.broker->poll(peerB.id);
        QCOMPARE(atB.size(), 1);
        QCOMPARE(atB.first().toObject().value(u"from_id").toString(), QStringLiteral("alpha:") + peerA.id);
        QCOMPARE(atB.first().toObject().value(u"text").toString(), QStringLiteral("hello beta"));

        // beta → alpha over the link beta made back.
        HttpResult reply =
            b.broker->post(QStringLiteral("/federation/send-to-remote"),
                           {{QStringLiteral("from_id"), peerB.id},
                            {QStringLiteral("to_id"), QString(QStringLiteral("alpha:") + peerA.id)},
                            {QStringLiteral("text"), QStringLiteral("hello alpha")}});
        QCOMPARE(reply.object().value(u"ok").toBool(), true);
        QJsonArray atA = a.broker->poll(peerA.id);
        QCOMPARE(atA.size(), 1);
        QCOMPARE(atA.first().toObject().value(u"from_id").toString(), QStringLiteral("beta:") + peerB.id);

        // Broadcast to lan reaches the remote peer too.
        HttpResult broadcast = a.broker->post(QStringLiteral("/broadcast"),
                                              {{QStringLiteral("from_id"), peerA.id},
                                               {QStringLiteral("text"), QStringLiteral("all of you")},
                                               {QStringLiteral("scope"), QStringLiteral("lan")},
                                               {QStringLiteral("cwd"), QStringLiteral("/work/a")}});
        QCOMPARE(broadcast.object().value(u"recipients").toInt(), 1);
        const auto texts = [](const QJsonArray &messages) {
            QStringList list;
            for (const QJsonValue &message : messages)
                list.append(message.toObject().value(u"text").toString());
            return list;
        };
        QVERIFY(texts(b.broker->poll(peerB.id)).contains(QStringLiteral("all of you")));

        // Disconnect: forgotten in memory and in the config.
        HttpResult gone =
            a.broker->post(QStringLiteral("/federation/disconnect"), loopbackTarget(b.fedPort()));
        QCOMPARE(gone.object().value(u"ok").toBool(), true);
        QVERIFY(Broker::ConfigFile::load(a.broker->home().configPath()).remotes().isEmpty());
        HttpResult again =
            a.broker->post(QStringLiteral("/federation/disconnect"), loopbackTarget(b.fedPort()));
        QCOMPARE(again.object().value(u"error").toString(),
                 QStringLiteral("Not connected to 127.0.0.1:%1").arg(b.fedPort()));
    }

    void peerChangesReachLinkedBrokersWithoutWaitingForTheSync()
    {
        Node a = makeNode(QStringLiteral("alpha"));
        // beta's clock never moves: its 30 s sync never runs, only announcements make it fetch.
        Node b = makeNode(QStringLiteral("beta"), {}, kSharedPsk, false, true);
        QVERIFY(startNode(a));
        QVERIFY(startNode(b));
        const HttpResult connected =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(b.fedPort()));
        QVERIFY2(connected.object().value(u"ok").toBool(), connected.body.constData());
        QTRY_COMPARE_WITH_TIMEOUT(
            b.broker->get(QStringLiteral("/federation/status")).object().value(u"remotes").toArray().size(),
            1, TestSupport::scaled(10000));
        const auto lanAtB = [&] {
            QHash<QString, QJsonObject> byId;
            for (const QJsonValue &peer : b.broker->listPeers(QStringLiteral("lan")))
                byId.insert(peer.toObject().value(u"id").toString(), peer.toObject());
            return byId;
        };

        const RegisteredPeer late = a.broker->registerPeer(QStringLiteral("/work/late"));
        const QString lateId = QStringLiteral("alpha:") + late.id;
        QTRY_VERIFY_WITH_TIMEOUT(lanAtB().contains(lateId), TestSupport::scaled(10000));

        // A rename and a new summary: each reaches beta's list of alpha's peers.
        const QList<std::pair<QString, QString>> changes {
            {QStringLiteral("session_name"), QStringLiteral("renamed")},
            {QStringLiteral("summary"), QStringLiteral("now this")}};
        for (const auto &[field, value] : changes) {
            const QString path =
                field == u"summary" ? QStringLiteral("/set-summary") : QStringLiteral("/set-name");
            QCOMPARE(
                a.broker->post(path, {{QStringLiteral("id"), late.id}, {field, value}}, late.secret).status,
                200);
            QTRY_COMPARE_WITH_TIMEOUT(lanAtB().value(lateId).value(field).toString(), value,
                                      TestSupport::scaled(10000));
        }
        QCOMPARE(a.broker->post(QStringLiteral("/unregister"), {{QStringLiteral("id"), late.id}}, late.secret)
                     .status,
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(!lanAtB().contains(lateId), TestSupport::scaled(10000));
    }

    void peersChangedNeedsThePskAndAHostname()
    {
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(b));
        const quint16 port = b.fedPort();
        QCOMPARE(fedPost(port, "/federation/peers-changed", "{\"hostname\":\"alpha\"}", "wrong").status, 403);
        QCOMPARE(fedPost(port, "/federation/peers-changed", "{}", kSharedPsk).status, 400);
        QCOMPARE(fedPost(port, "/federation/peers-changed", "{\"hostname\":\"a:b\"}", kSharedPsk).status,
                 400);
        // Nobody linked under that name: accepted, nothing to fetch.
        QCOMPARE(fedPost(port, "/federation/peers-changed", "{\"hostname\":\"alpha\"}", kSharedPsk).status,
                 200);
        const QByteArray big =
            "{\"hostname\":\"" + QByteArray(InboundHandler::kMaxSmallBodyBytes, 'a') + "\"}";
        QCOMPARE(fedPost(port, "/federation/peers-changed", big, kSharedPsk).status, 413);
        // Our handshake answer says we understand it (0.7 reads only hostname and version).
        const LinkReply handshake =
            fedPost(port, "/federation/handshake",
                    QJsonDocument(QJsonObject {{QStringLiteral("psk"), QString::fromLatin1(kSharedPsk)},
                                               {QStringLiteral("hostname"), QStringLiteral("x")}})
                        .toJson(QJsonDocument::Compact),
                    kSharedPsk);
        QCOMPARE(handshake.status, 200);
        QCOMPARE(handshake.body.value(u"capabilities").toArray(),
                 QJsonArray {QStringLiteral("peers-changed")});
    }

    void refusedRelaysStoreNothing()
    {
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(b));
        const RegisteredPeer peer = b.broker->registerPeer(QStringLiteral("/work/b"));
        const quint16 port = b.fedPort();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();

        const QByteArray good =
            signedBody(withReplayFields(relayFields(peer.id, QStringLiteral("one")), QStringLiteral("beta"),
                                        now, QStringLiteral("AAAAAAAAAAAAAAAAAAAAAA")),
                       kSharedPsk);
        // Wrong PSK header: refused before the body is looked at.
        LinkReply wrongPsk = fedPost(port, "/federation/relay", good, QByteArray("x").repeated(64));
        QCOMPARE(wrongPsk.status, 403);
        QCOMPARE(
            wrongPsk.error,
            QStringLiteral("PSK mismatch — ensure both machines share the same ~/.claude-peers-token file"));
        // A signature made with another key.
        const QByteArray badHmac =
            signedBody(withReplayFields(relayFields(peer.id, QStringLiteral("one")), QStringLiteral("beta"),
                                        now, QStringLiteral("BBBBBBBBBBBBBBBBBBBBBB")),
                       QByteArray("y").repeated(64));
        LinkReply hmac = fedPost(port, "/federation/relay", badHmac, kSharedPsk);
        QCOMPARE(hmac.status, 403);
        QCOMPARE(hmac.error, QStringLiteral("Invalid HMAC signature"));
        // A field changed after signing.
        QByteArray tampered = good;
        tampered.replace("\"one\"", "\"two\"");
        QCOMPARE(fedPost(port, "/federation/relay", tampered, kSharedPsk).error,
                 QStringLiteral("Invalid HMAC signature"));
        QCOMPARE(b.broker->server().pendingMessageCount(), 0);

        LinkReply accepted = fedPost(port, "/federation/relay", good, kSharedPsk);
        QCOMPARE(accepted.status, 200);
        QVERIFY(accepted.body.value(u"message_id").toInteger() > 0);
        QCOMPARE(b.broker->server().pendingMessageCount(), 1);

        LinkReply replayed = fedPost(port, "/federation/relay", good, kSharedPsk);
        QCOMPARE(replayed.status, 403);
        QCOMPARE(replayed.error, QStringLiteral("Replayed message"));

        const auto refusedWith = [&](const QJsonObject &fields) {
            return fedPost(port, "/federation/relay", signedBody(fields, kSharedPsk), kSharedPsk);
        };
        LinkReply stale =
            refusedWith(withReplayFields(relayFields(peer.id, QStringLiteral("old")), QStringLiteral("beta"),
                                         now - 301'000, QStringLiteral("CCCCCCCCCCCCCCCCCCCCCC")));
        QCOMPARE(stale.status, 403);
        QVERIFY(stale.error.startsWith(QStringLiteral("Relay timestamp outside the allowed window")));
        LinkReply future = refusedWith(withReplayFields(relayFields(peer.id, QStringLiteral("future")),
                                                        QStringLiteral("beta"), now + 301'000,
                                                        QStringLiteral("DDDDDDDDDDDDDDDDDDDDDD")));
        QCOMPARE(future.status, 403);
        LinkReply elsewhere = refusedWith(withReplayFields(relayFields(peer.id, QStringLiteral("for gamma")),
                                                           QStringLiteral("delta"), now,
                                                           QStringLiteral("EEEEEEEEEEEEEEEEEEEEEE")));
        QCOMPARE(elsewhere.status, 403);
        QCOMPARE(elsewhere.error, QStringLiteral("Relay addressed to another machine"));
        // A sender that sent replay fields cannot drop them afterwards (no downgrade).
        LinkReply downgraded = refusedWith(relayFields(peer.id, QStringLiteral("legacy now")));
        QCOMPARE(downgraded.status, 403);
        // Unknown peer: 0.7's 404, and nothing stored.
        LinkReply unknown = refusedWith(
            withReplayFields(relayFields(QStringLiteral("nobody"), QStringLiteral("?")),
                             QStringLiteral("beta"), now, QStringLiteral("FFFFFFFFFFFFFFFFFFFFFF")));
        QCOMPARE(unknown.status, 404);
        QCOMPARE(unknown.body.value(u"error").toString(), QStringLiteral("Peer nobody not found locally"));
        QCOMPARE(b.broker->server().pendingMessageCount(), 1);

        // The nonce is in SQLite: a restart does not reopen the window.
        b.broker->server().stop();
        QVERIFY(b.broker->start());
        QTRY_VERIFY_WITH_TIMEOUT(!b.federation().psk().isEmpty(), TestSupport::scaled(15000));
        QCOMPARE(fedPost(b.fedPort(), "/federation/relay", good, kSharedPsk).error,
                 QStringLiteral("Replayed message"));
        QCOMPARE(b.broker->server().pendingMessageCount(), 1);
        const QJsonObject status = b.broker->get(QStringLiteral("/federation/status")).object();
        QCOMPARE(status.value(u"relays_refused").toInt(), 1);
    }

    // The audit trail is in SQLite: refusals and decisions are still listed after a restart; the
    // refusal count is the running broker's.
    void auditTrailSurvivesARestart()
    {
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(b));
        QCOMPARE(fedPost(b.fedPort(), "/federation/handshake", R"({"hostname":"mallory"})",
                         QByteArray("x").repeated(64))
                     .status,
                 403);
        QVERIFY(b.broker->post(QStringLiteral("/federation/rotate-psk"), {}).object().value(u"ok").toBool());
        const auto trail = [&] {
            return b.broker->post(QStringLiteral("/federation/attempts"), {}).object();
        };
        const auto kinds = [](const QJsonObject &answer) {
            QStringList listed;
            for (const QJsonValue &row : answer.value(u"attempts").toArray())
                listed.append(row.toObject().value(u"kind").toString());
            return listed;
        };
        QCOMPARE(kinds(trail()), (QStringList {QStringLiteral("key-rotated"), QStringLiteral("refused")}));
        QCOMPARE(trail().value(u"refusals").toInt(), 1);

        b.broker->server().stop();
        QVERIFY(b.broker->start());
        QTRY_VERIFY_WITH_TIMEOUT(!b.federation().psk().isEmpty(), TestSupport::scaled(15000));
        const QJsonObject after = trail();
        QCOMPARE(kinds(after), (QStringList {QStringLiteral("key-rotated"), QStringLiteral("refused")}));
        const QJsonObject refusal = after.value(u"attempts").toArray().last().toObject();
        QCOMPARE(refusal.value(u"hostname").toString(), QStringLiteral("mallory"));
        QCOMPARE(refusal.value(u"path").toString(), QStringLiteral("/federation/handshake"));
        QCOMPARE(refusal.value(u"status").toInt(), 403);
        QCOMPARE(after.value(u"refusals").toInt(), 0); // since this start
    }

    void legacyRelaysAreAcceptedAndRecordedOnce()
    {
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(b));
        const RegisteredPeer peer = b.broker->registerPeer(QStringLiteral("/work/b"));
        for (int i = 0; i < 3; ++i) {
            LinkReply legacy = fedPost(
                b.fedPort(), "/federation/relay",
                signedBody(relayFields(peer.id, QStringLiteral("legacy %1").arg(i)), kSharedPsk), kSharedPsk);
            QCOMPARE(legacy.status, 200);
        }
        QCOMPARE(b.broker->poll(peer.id).size(), 3);
        const QJsonArray uses =
            b.broker->get(QStringLiteral("/federation/status")).object().value(u"legacy_uses").toArray();
        QJsonObject relayUse;
        for (const QJsonValue &use : uses)
            if (use.toObject().value(u"kind").toString() == QLatin1String("relay-without-replay-fields"))
                relayUse = use.toObject();
        QCOMPARE(relayUse.value(u"peer").toString(), QStringLiteral("gamma"));
        QCOMPARE(relayUse.value(u"uses").toInt(), 3);
    }

    void acceptLegacyOffRefusesThePskHeader()
    {
        Node b = makeNode(QStringLiteral("beta"), [](FederationSettings &s) { s.acceptLegacy = false; });
        QVERIFY(startNode(b));
        const RegisteredPeer peer = b.broker->registerPeer(QStringLiteral("/work/b"));
        LinkReply refused =
            fedPost(b.fedPort(), "/federation/relay",
                    signedBody(relayFields(peer.id, QStringLiteral("legacy")), kSharedPsk), kSharedPsk);
        QCOMPARE(refused.status, 403);
        QCOMPARE(b.broker->server().pendingMessageCount(), 0);
    }

    void pipelineOrderAndLimits()
    {
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(b));
        const quint16 port = b.fedPort();
        HttpResult health = TestSupport::httpGet(port, QStringLiteral("/health"));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.object().value(u"hostname").toString(), QStringLiteral("beta"));
        QCOMPARE(health.object().value(u"federation").toBool(), true);
        HttpResult get = TestSupport::httpGet(port, QStringLiteral("/federation/peers"));
        QCOMPARE(get.body, QByteArray("claude-peers federation agent"));
        // Without the PSK even an unknown path is a PSK refusal (0.7 leaks nothing).
        QCOMPARE(fedPost(port, "/nope", "{}", {}).status, 403);
        QCOMPARE(fedPost(port, "/nope", "{}", kSharedPsk).status, 404);
        LinkReply handshake =
            fedPost(port, "/federation/handshake",
                    QJsonDocument(QJsonObject {{QStringLiteral("psk"), QStringLiteral("wrong")},
                                               {QStringLiteral("hostname"), QStringLiteral("x")}})
                        .toJson(QJsonDocument::Compact),
                    kSharedPsk);
        QCOMPARE(handshake.status, 403); // the body's psk must match too (docs/spec/peers-api.md §4.2)
        QCOMPARE(fedPost(port, "/federation/peers", "not json", kSharedPsk).status, 400);
        const QByteArray big = "{\"psk\":\"" + QByteArray(InboundHandler::kMaxSmallBodyBytes, 'a') + "\"}";
        QCOMPARE(fedPost(port, "/federation/handshake", big, kSharedPsk).status, 413);
        const QByteArray huge = "{\"text\":\"" + QByteArray(2 * 1024 * 1024, 'a') + "\"}";
        const LinkReply tooLarge = fedPost(port, "/federation/relay", huge, kSharedPsk);
        QVERIFY2(tooLarge.status == 413,
                 qPrintable(QString::number(tooLarge.status) + u' ' + tooLarge.error));
    }

    void subnetFilterComesFirst()
    {
        Node b = makeNode(QStringLiteral("beta"),
                          [](FederationSettings &s) { s.subnets = {QStringLiteral("10.9.0.0/16")}; });
        QVERIFY(startNode(b));
        HttpResult health = TestSupport::httpGet(b.fedPort(), QStringLiteral("/health"));
        QCOMPARE(health.status, 403);
        QCOMPARE(
            health.object().value(u"error").toString(),
            QStringLiteral("Connection rejected: 127.0.0.1 is outside allowed subnet 10.9.0.0/16. Update "
                           "CLAUDE_PEERS_FEDERATION_SUBNET or config file."));
    }

    void tlsLinkPinsOnFirstUseAndRefusesAChangedKey()
    {
        Node a = makeNode(QStringLiteral("alpha"), {}, QByteArray("a").repeated(64), true);
        Node b = makeNode(QStringLiteral("beta"), {}, kSharedPsk, true);
        QVERIFY(startNode(a));
        QVERIFY(startNode(b));
        QVERIFY(b.federation().ownPin().startsWith(QStringLiteral("sha256-")));
        QVERIFY(QFile::exists(b.broker->home().path() + QStringLiteral("/.claude-peers-federation.key")));
        const RegisteredPeer peerB = b.broker->registerPeer(QStringLiteral("/work/b"));
        const RegisteredPeer peerA = a.broker->registerPeer(QStringLiteral("/work/a"));

        const QJsonObject target = loopbackTarget(b.fedPort());
        // alpha joins with beta's URL: beta's PSK becomes alpha's, beta's pin is kept.
        HttpResult invitation = b.broker->post(QStringLiteral("/federation/token"),
                                               {{QStringLiteral("host"), QStringLiteral("127.0.0.1")}});
        QVERIFY(invitation.object().value(u"url").toString().contains(QStringLiteral(";fp=sha256-")));
        QCOMPARE(invitation.object().value(u"fingerprint").toString(), b.federation().ownPin());
        HttpResult joined = a.broker->post(QStringLiteral("/federation/join"),
                                           {{QStringLiteral("url"), invitation.object().value(u"url")}});
        QVERIFY2(joined.object().value(u"ok").toBool(), joined.body.constData());
        QCOMPARE(joined.object().value(u"hostname").toString(), QStringLiteral("beta"));
        QCOMPARE(a.federation().psk(), kSharedPsk);
        const QString key = QStringLiteral("127.0.0.1:%1").arg(b.fedPort());
        QCOMPARE(Broker::ConfigFile::load(a.broker->home().configPath()).pins().value(key),
                 b.federation().ownPin());
        HttpResult sent =
            a.broker->post(QStringLiteral("/federation/send-to-remote"),
                           {{QStringLiteral("from_id"), peerA.id},
                            {QStringLiteral("to_id"), QString(QStringLiteral("beta:") + peerB.id)},
                            {QStringLiteral("text"), QStringLiteral("over TLS")}});
        QVERIFY2(sent.object().value(u"ok").toBool(), sent.body.constData());
        QCOMPARE(b.broker->poll(peerB.id).size(), 1);

        // Another key on the pinned address: refused before the PSK is written.
        QVERIFY(
            a.broker->post(QStringLiteral("/federation/disconnect"), target).object().value(u"ok").toBool());
        Broker::ConfigFile config = Broker::ConfigFile::load(a.broker->home().configPath());
        config.setPin(QStringLiteral("127.0.0.1"), b.fedPort(),
                      QStringLiteral("sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
        QVERIFY(config.save(a.broker->home().configPath()));
        HttpResult refused = a.broker->post(QStringLiteral("/federation/connect"), target);
        QCOMPARE(refused.object().value(u"ok").toBool(), false);
        QVERIFY2(
            refused.object().value(u"error").toString().startsWith(QStringLiteral("Handshake failed (0)")),
            refused.body.constData());
    }

    // Two TLS brokers on loopback: each link's round-trip time is measured from the peer lists
    // it fetches (no extra traffic) and shown in /federation/status; plausible, not timed.
    void tlsLinkReportsItsRoundTripTime()
    {
        Node a = makeNode(QStringLiteral("alpha"), {}, kSharedPsk, true);
        Node b = makeNode(QStringLiteral("beta"), {}, kSharedPsk, true);
        QVERIFY(startNode(a));
        QVERIFY(startNode(b));
        HttpResult invitation = b.broker->post(QStringLiteral("/federation/token"),
                                               {{QStringLiteral("host"), QStringLiteral("127.0.0.1")}});
        HttpResult joined = a.broker->post(QStringLiteral("/federation/join"),
                                           {{QStringLiteral("url"), invitation.object().value(u"url")}});
        QVERIFY2(joined.object().value(u"ok").toBool(), joined.body.constData());
        const auto linkToBeta = [&] {
            const QJsonArray remotes =
                a.broker->get(QStringLiteral("/federation/status")).object().value(u"remotes").toArray();
            for (const QJsonValue &remote : remotes)
                if (remote.toObject().value(u"hostname").toString() == u"beta")
                    return remote.toObject();
            return QJsonObject {};
        };
        QJsonObject link = linkToBeta();
        QCOMPARE(link.value(u"state").toString(), QStringLiteral("connected"));
        QVERIFY2(link.value(u"rtt_ms").toDouble() > 0,
                 qPrintable(QString::number(link.value(u"rtt_ms").toDouble())));
        QVERIFY(link.value(u"rtt_ms").toDouble() < LinkTransport::kTimeoutMs);
        QVERIFY(link.value(u"rtt_smoothed_ms").toDouble() > 0);
        QCOMPARE(link.value(u"rtt_samples").toInteger(), 1);
        // A peer registered on beta is announced; alpha's fetch of the list is one more sample.
        b.broker->registerPeer(QStringLiteral("/work/b"));
        QTRY_VERIFY_WITH_TIMEOUT(linkToBeta().value(u"rtt_samples").toInteger() >= 2,
                                 TestSupport::scaled(10000));
        link = linkToBeta();
        qInfo().noquote() << "alpha to beta over TLS on loopback: last" << link.value(u"rtt_ms").toDouble()
                          << "ms, smoothed" << link.value(u"rtt_smoothed_ms").toDouble() << "ms";
        QVERIFY(link.value(u"rtt_ms").toDouble() > 0 &&
                link.value(u"rtt_ms").toDouble() < LinkTransport::kTimeoutMs);
        // The join links both ways: beta measures its link to alpha as well.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QJsonArray remotes =
                    b.broker->get(QStringLiteral("/federation/status")).object().value(u"remotes").toArray();
                return !remotes.isEmpty() && remotes.first().toObject().value(u"rtt_ms").toDouble() > 0;
            }(),
            TestSupport::scaled(10000));
    }

    // A doctor run still measuring a remote's clock when its broker stops and is destroyed: the
    // run ends later without touching anything of that broker (it read the broker's clock, freed
    // by then: fuzz_fedadmin found it; make test-asan reports the use-after-free without the fix).
    void doctorOutlivedByItsBrokerTouchesNothingOfIt()
    {
        QTcpServer silent; // a remote that accepts and never answers, not even the TLS handshake
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        QList<QTcpSocket *> accepted;
        connect(&silent, &QTcpServer::newConnection, &silent, [&] {
            while (QTcpSocket *socket = silent.nextPendingConnection())
                accepted.append(socket);
        });
        const int silentPort = silent.serverPort();
        auto alpha = std::make_unique<Node>(makeNode(
            QStringLiteral("alpha"),
            [&](FederationSettings &settings) {
                settings.remotes = {{QStringLiteral("127.0.0.1"), silentPort, QStringLiteral("silent")}};
            },
            kSharedPsk, true, true));
        QVERIFY(startNode(*alpha));
        QTRY_VERIFY_WITH_TIMEOUT(!accepted.isEmpty(), TestSupport::scaled(10000)); // the link's attempt
        const qsizetype beforeDoctor = accepted.size();

        QTcpSocket client; // the CLI asks for the doctor and does not wait
        client.connectToHost(QHostAddress::LocalHost, alpha->broker->port());
        QVERIFY(client.waitForConnected(TestSupport::scaled(5000)));
        client.write("POST /federation/doctor HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
                     alpha->broker->token() +
                     "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        // The doctor's own request to the silent remote is in flight...
        QTRY_VERIFY_WITH_TIMEOUT(accepted.size() > beforeDoctor, TestSupport::scaled(10000));
        QTcpSocket *doctorsConnection = accepted.last();
        // ...when the broker stops and is gone, its clock with it.
        alpha.reset();
        // The request times out and the run ends: the remote sees the connection close.
        QTRY_VERIFY_WITH_TIMEOUT(doctorsConnection->state() == QAbstractSocket::UnconnectedState,
                                 TestSupport::scaled(3 * LinkTransport::kTimeoutMs));
        QCoreApplication::sendPostedEvents(); // the run's answer, queued after the timeout
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }

    void disabledFederationAnswersAsZeroSeven()
    {
        Node node = makeNode(QStringLiteral("alpha"), [](FederationSettings &s) { s.enabled = false; }, {});
        QVERIFY(node.broker->start());
        QCOMPARE(node.fedPort(), 0);
        const QJsonObject status = node.broker->get(QStringLiteral("/federation/status")).object();
        QCOMPARE(status.value(u"enabled").toBool(), false);
        HttpResult connect = node.broker->post(
            QStringLiteral("/federation/connect"),
            {{QStringLiteral("host"), QStringLiteral("127.0.0.1")}, {QStringLiteral("port"), 1}});
        QVERIFY(connect.object().value(u"error").toString().startsWith(
            QStringLiteral("Federation is not enabled")));

        // init turns it on for the next start: own PSK (not the token), subnets saved.
        HttpResult init =
            node.broker->post(QStringLiteral("/federation/init"),
                              {{QStringLiteral("subnets"), QJsonArray {QStringLiteral("127.0.0.0/8")}}});
        QVERIFY2(init.object().value(u"ok").toBool(), init.body.constData());
        QCOMPARE(init.object().value(u"restart_needed").toBool(), true);
        const Broker::ConfigFile config = Broker::ConfigFile::load(node.broker->home().configPath());
        QCOMPARE(config.federationEnabled(), std::optional<bool>(true));
        QCOMPARE(config.federationSubnets(), QStringList {QStringLiteral("127.0.0.0/8")});
        QFile psk(node.broker->home().path() + QStringLiteral("/.claude-peers-federation-psk"));
        QVERIFY(psk.open(QIODevice::ReadOnly));
        const QByteArray own = psk.readAll().trimmed();
        QCOMPARE(own.size(), 64);
        QVERIFY(own != node.broker->token());
        HttpResult badSubnet =
            node.broker->post(QStringLiteral("/federation/init"),
                              {{QStringLiteral("subnets"), QJsonArray {QStringLiteral("10.0.0.0/33")}}});
        QCOMPARE(badSubnet.object().value(u"ok").toBool(), false);
    }
};

QTEST_GUILESS_MAIN(tst_FederationModule)
#include "tst_federationmodule.moc"
