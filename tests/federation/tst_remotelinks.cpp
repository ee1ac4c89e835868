// The outbound state machine of federation (docs/spec/peers-api.md §6.3, §6.4, §6.7) against a scripted
// transport and a ManualClock: handshake + peer list, the manual connect's single answer, the
// reconnect backoff (5 s, 15 s, 45 s, then 60 s, 20 attempts), the 30 s sync with eviction after
// 90 s, evicted remotes reconnected (0.7 never does), relays and their errors.
#include "broker/clock.h"
#include "federation/remotelinks.h"

#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace Federation;

namespace {

struct SentRequest
{
    RemoteAddress to;
    QByteArray path;
    QJsonObject body;
    QByteArray psk;
    LinkTransport::Done done;
};

// Keeps every request for the test to answer, in order.
class ScriptedTransport final : public LinkTransport
{
public:
    void post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
              const LinkCredential &credential, Done done) override
    {
        requests.append(
            {to, path, QJsonDocument::fromJson(jsonBody).object(), credential.value, std::move(done)});
    }
    SentRequest take()
    {
        if (requests.isEmpty())
            return {};
        return requests.takeFirst();
    }
    QList<SentRequest> requests;
};

LinkReply reply(int status, const QJsonObject &body = {})
{
    LinkReply answer {status, body, {}};
    if (!answer.ok())
        answer.error = body.value(QStringLiteral("error")).toString();
    return answer;
}

QJsonObject peersAnswer(const QString &hostname, const QStringList &ids)
{
    QJsonArray rows;
    for (const QString &id : ids)
        rows.append(QJsonObject {{QStringLiteral("id"), id},
                                 {QStringLiteral("pid"), 4242},
                                 {QStringLiteral("cwd"), QString(QStringLiteral("/src/") + id)},
                                 {QStringLiteral("summary"), QString(QStringLiteral("working on ") + id)},
                                 {QStringLiteral("last_seen"), QStringLiteral("2026-11-30T12:00:00.000Z")}});
    return {{QStringLiteral("hostname"), hostname}, {QStringLiteral("peers"), rows}};
}

} // namespace

class tst_RemoteLinks : public QObject
{
    Q_OBJECT

    ScriptedTransport *transport = nullptr;
    Broker::ManualClock *clock = nullptr;
    RemoteLinks *links = nullptr;
    QList<Broker::RemoteMessage> signedMessages;

    // Answers the handshake and peer list of the attempt in flight; capabilities as ours send
    // them (0.7's answer has none).
    void answerConnect(const QString &hostname, const QStringList &peerIds,
                       const QJsonArray &capabilities = {})
    {
        SentRequest handshake = transport->take();
        QCOMPARE(handshake.path, QByteArray("/federation/handshake"));
        QJsonObject answer {{QStringLiteral("hostname"), hostname},
                            {QStringLiteral("version"), QStringLiteral("1.0.0")}};
        if (!capabilities.isEmpty())
            answer.insert(QStringLiteral("capabilities"), capabilities);
        handshake.done(reply(200, answer));
        SentRequest peers = transport->take();
        QCOMPARE(peers.path, QByteArray("/federation/peers"));
        peers.done(reply(200, peersAnswer(hostname, peerIds)));
    }
    void failAttempt()
    {
        SentRequest handshake = transport->take();
        QCOMPARE(handshake.path, QByteArray("/federation/handshake"));
        handshake.done(LinkReply {0, {}, QStringLiteral("Connection refused")});
    }

private Q_SLOTS:
    void init()
    {
        transport = new ScriptedTransport;
        clock = new Broker::ManualClock(QDateTime(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC));
        signedMessages.clear();
        links = new RemoteLinks(
            *transport, *clock, {QStringLiteral("alpha"), 7911, [] { return QByteArray("k"); }},
            [this](const Broker::RemoteMessage &message, const QString &peer, const QString &host) {
                signedMessages.append(message);
                return QJsonDocument(QJsonObject {{QStringLiteral("to_id"), peer},
                                                  {QStringLiteral("to_machine"), host},
                                                  {QStringLiteral("text"), message.text}})
                    .toJson(QJsonDocument::Compact);
            });
    }
    void cleanup()
    {
        delete links;
        delete transport;
        delete clock;
    }

    void connectHandshakesThenListsPeers()
    {
        std::optional<Broker::Result<QJsonObject>> answer;
        links->connect({QStringLiteral("10.0.0.2"), 7900}, RemoteOrigin::Manual,
                       [&](Broker::Result<QJsonObject> r) { answer = r; });
        QCOMPARE(transport->requests.size(), 1);
        const SentRequest &handshake = transport->requests.first();
        QCOMPARE(handshake.to, (RemoteAddress {QStringLiteral("10.0.0.2"), 7900}));
        QCOMPARE(handshake.psk, QByteArray("k"));
        // The key is the transport's to prove (a session, or 0.7's header and body field).
        QVERIFY(!handshake.body.contains(u"psk"));
        QCOMPARE(handshake.body.value(u"hostname").toString(), QStringLiteral("alpha"));
        QCOMPARE(handshake.body.value(u"version").toString(), QStringLiteral("1.0.0"));
        QCOMPARE(handshake.body.value(u"port").toInt(), 7911);
        QVERIFY(!answer);
        answerConnect(QStringLiteral("beta"), {QStringLiteral("p1"), QStringLiteral("p2")});
        QVERIFY(answer && answer->has_value());
        QCOMPARE((*answer)->value(u"hostname").toString(), QStringLiteral("beta"));

        const QList<Broker::Peer> peers = links->remotePeers();
        QCOMPARE(peers.size(), 2);
        QCOMPARE(peers[0].id, QStringLiteral("beta:p1"));
        QCOMPARE(peers[0].pid, 0);
        QCOMPARE(peers[0].cwd, QStringLiteral("/src/p1"));
        QCOMPARE(peers[0].registeredAt, peers[0].lastSeen);
        QCOMPARE(links->totalRemotePeers(), 2);
        const QJsonObject status = links->statusRemotes().first().toObject();
        QCOMPARE(status.value(u"hostname").toString(), QStringLiteral("beta"));
        QCOMPARE(status.value(u"peer_count").toInt(), 2);
        QCOMPARE(status.value(u"connected_at").toString(), QStringLiteral("2026-11-30T12:00:00.000Z"));
        QCOMPARE(status.value(u"state").toString(), QStringLiteral("connected"));

        // Connected: a second connect answers at once, without network.
        std::optional<Broker::Result<QJsonObject>> again;
        links->connect({QStringLiteral("10.0.0.2"), 7900}, RemoteOrigin::Manual,
                       [&](Broker::Result<QJsonObject> r) { again = r; });
        QVERIFY(again && again->has_value());
        QVERIFY(transport->requests.isEmpty());
    }

    // The round-trip time comes from the peer lists the link fetches anyway: the connect's, then
    // each sync's; the last sample and a smoothed one (RFC 6298's 1/8 gain). Failed or unmeasured
    // answers change nothing.
    void roundTripTimeFromThePeerListAnswers()
    {
        const RemoteAddress address {QStringLiteral("10.0.0.2"), 7900};
        links->connect(address, RemoteOrigin::Manual, nullptr);
        SentRequest handshake = transport->take();
        handshake.done(reply(200, {{QStringLiteral("hostname"), QStringLiteral("beta")}}));
        QVERIFY(!links->statusRemotes().first().toObject().contains(u"rtt_ms")); // nothing measured yet
        LinkReply first = reply(200, peersAnswer(QStringLiteral("beta"), {}));
        first.roundTripUs = 800;
        transport->take().done(first);
        QJsonObject status = links->statusRemotes().first().toObject();
        QCOMPARE(status.value(u"rtt_ms").toDouble(), 0.8);
        QCOMPARE(status.value(u"rtt_smoothed_ms").toDouble(), 0.8); // the first sample is the estimate
        QCOMPARE(status.value(u"rtt_samples").toInteger(), 1);

        const auto syncAnswering = [&](LinkReply answer) -> QJsonObject {
            clock->advance(RemoteLinks::kSyncIntervalMs);
            links->syncRound();
            SentRequest sync = transport->take();
            if (sync.path != QByteArray("/federation/peers"))
                return {}; // fails the checks that follow
            sync.done(answer);
            return links->statusRemotes().first().toObject();
        };
        LinkReply slow = reply(200, peersAnswer(QStringLiteral("beta"), {}));
        slow.roundTripUs = 8800;
        status = syncAnswering(slow);
        QCOMPARE(status.value(u"rtt_ms").toDouble(), 8.8);
        QCOMPARE(status.value(u"rtt_smoothed_ms").toDouble(), 1.8); // 0.8 + (8.8 - 0.8) / 8
        QCOMPARE(status.value(u"rtt_samples").toInteger(), 2);

        LinkReply failed = reply(500, {{QStringLiteral("error"), QStringLiteral("busy")}});
        failed.roundTripUs = 100;
        status = syncAnswering(failed);
        QCOMPARE(status.value(u"rtt_ms").toDouble(), 8.8);
        QCOMPARE(status.value(u"rtt_samples").toInteger(), 2);
        status = syncAnswering(reply(200, peersAnswer(QStringLiteral("beta"), {}))); // not measured
        QCOMPARE(status.value(u"rtt_samples").toInteger(), 2);
    }

    // The tray shows remote peers from a snapshot it recomputes only when told: every change of
    // remotePeers() is announced (connect, sync, eviction, disconnect), a failed sync is not.
    void announcesEveryChangeOfTheRemotePeers()
    {
        int changes = 0;
        links->onPeersChanged = [&] { ++changes; };
        const RemoteAddress address {QStringLiteral("10.0.0.2"), 7900};
        links->connect(address, RemoteOrigin::Manual, nullptr);
        QCOMPARE(changes, 0);
        answerConnect(QStringLiteral("beta"), {QStringLiteral("p1")});
        QCOMPARE(changes, 1);

        clock->advance(RemoteLinks::kSyncIntervalMs);
        links->syncRound();
        transport->take().done(
            reply(200, peersAnswer(QStringLiteral("beta"), {QStringLiteral("p1"), QStringLiteral("p2")})));
        QCOMPARE(links->remotePeers().size(), 2);
        QCOMPARE(changes, 2);

        clock->advance(RemoteLinks::kSyncIntervalMs);
        links->syncRound();
        transport->take().done(reply(500, {{QStringLiteral("error"), QStringLiteral("busy")}}));
        QCOMPARE(changes, 2); // nothing new to show

        clock->advance(RemoteLinks::kEvictAfterMs + 1);
        links->syncRound(); // no sync answered for that long: evicted, its peers gone
        QVERIFY(links->remotePeers().isEmpty());
        QCOMPARE(changes, 3);
        transport->requests.clear();

        links->connect({QStringLiteral("10.0.0.3"), 7900}, RemoteOrigin::Manual, nullptr);
        answerConnect(QStringLiteral("gamma"), {QStringLiteral("p9")});
        QCOMPARE(changes, 4);
        QVERIFY(links->disconnect({QStringLiteral("10.0.0.3"), 7900}));
        QCOMPARE(changes, 5);
        QVERIFY(links->remotePeers().isEmpty());
    }

    void failedManualConnectLeavesNothing()
    {
        std::optional<Broker::Result<QJsonObject>> answer;
        links->connect({QStringLiteral("10.0.0.2"), 7900}, RemoteOrigin::Manual,
                       [&](Broker::Result<QJsonObject> r) { answer = r; });
        transport->take().done(reply(403, {{QStringLiteral("error"), QStringLiteral("PSK mismatch")}}));
        QVERIFY(answer && !answer->has_value());
        QCOMPARE(answer->error().message, QStringLiteral("Handshake failed (403): PSK mismatch"));
        QVERIFY(!links->find({QStringLiteral("10.0.0.2"), 7900}));

        links->connect({QStringLiteral("10.0.0.3"), 7900}, RemoteOrigin::Manual,
                       [&](Broker::Result<QJsonObject> r) { answer = r; });
        transport->take().done(LinkReply {0, {}, {}});
        QCOMPARE(answer->error().message, QStringLiteral("Handshake failed (0): unknown"));
        clock->advance(120'000);
        links->reconnectDue();
        QVERIFY(transport->requests.isEmpty());
    }

    void savedRemoteRetriesWithTheBackoff()
    {
        QCOMPARE(RemoteLinks::backoffDelayMs(1), 5'000);
        QCOMPARE(RemoteLinks::backoffDelayMs(2), 15'000);
        QCOMPARE(RemoteLinks::backoffDelayMs(3), 45'000);
        QCOMPARE(RemoteLinks::backoffDelayMs(4), 60'000);
        QCOMPARE(RemoteLinks::backoffDelayMs(19), 60'000);

        const RemoteAddress address {QStringLiteral("10.0.0.2"), 7900};
        links->connect(address, RemoteOrigin::Config, nullptr);
        for (int attempt = 1; attempt <= RemoteLinks::kMaxAttempts; ++attempt) {
            failAttempt();
            const Remote *remote = links->find(address);
            QVERIFY(remote);
            QCOMPARE(remote->failedAttempts, attempt);
            if (attempt == RemoteLinks::kMaxAttempts) {
                QCOMPARE(remote->state, RemoteState::GaveUp);
                break;
            }
            QCOMPARE(remote->state, RemoteState::Waiting);
            const qint64 delay = RemoteLinks::backoffDelayMs(attempt);
            clock->advance(delay - 1);
            links->reconnectDue();
            QVERIFY2(transport->requests.isEmpty(), "an attempt before its delay");
            clock->advance(1);
            links->reconnectDue();
            QCOMPARE(transport->requests.size(), 1);
        }
        clock->advance(3'600'000);
        links->reconnectDue();
        QVERIFY2(transport->requests.isEmpty(), "attempts after giving up");
        // A manual connect tries again.
        std::optional<Broker::Result<QJsonObject>> answer;
        links->connect(address, RemoteOrigin::Manual, [&](Broker::Result<QJsonObject> r) { answer = r; });
        answerConnect(QStringLiteral("beta"), {});
        QVERIFY(answer && answer->has_value());
        QCOMPARE(links->find(address)->failedAttempts, 0);
    }

    void peerChangesAreAnnouncedOnlyToRemotesThatUnderstandThem()
    {
        links->connect({QStringLiteral("10.0.0.2"), 7900}, RemoteOrigin::Config, nullptr);
        answerConnect(QStringLiteral("ours"), {QStringLiteral("p1")}, {QStringLiteral("peers-changed")});
        links->connect({QStringLiteral("10.0.0.3"), 7900}, RemoteOrigin::Config, nullptr);
        answerConnect(QStringLiteral("zeroseven"), {QStringLiteral("z1")}); // 0.7: no capabilities
        QVERIFY(transport->requests.isEmpty());
        links->announcePeersChanged();
        QCOMPARE(transport->requests.size(), 1);
        SentRequest announced = transport->take();
        QCOMPARE(announced.to.host, QStringLiteral("10.0.0.2"));
        QCOMPARE(announced.path, QByteArray("/federation/peers-changed"));
        QCOMPARE(announced.body, QJsonObject({{QStringLiteral("hostname"), QStringLiteral("alpha")}}));
        QCOMPARE(announced.psk, QByteArray("k"));
        announced.done(reply(404, {{QStringLiteral("error"), QStringLiteral("not found")}})); // only logged
        QCOMPARE(links->connectedCount(), 2);
    }

    void announcedChangeFetchesThatRemotesPeersOnceAtATime()
    {
        links->connect({QStringLiteral("10.0.0.2"), 7900}, RemoteOrigin::Config, nullptr);
        answerConnect(QStringLiteral("beta"), {QStringLiteral("b1")}, {QStringLiteral("peers-changed")});
        links->syncRemote(QStringLiteral("nobody")); // no link to that hostname: nothing
        QVERIFY(transport->requests.isEmpty());
        links->syncRemote(QStringLiteral("beta"));
        links->syncRemote(QStringLiteral("beta")); // while the first fetch is on its way
        links->syncRemote(QStringLiteral("beta"));
        QCOMPARE(transport->requests.size(), 1);
        SentRequest first = transport->take();
        QCOMPARE(first.path, QByteArray("/federation/peers"));
        first.done(
            reply(200, peersAnswer(QStringLiteral("beta"), {QStringLiteral("b1"), QStringLiteral("b2")})));
        QCOMPARE(links->remotePeers().size(), 2);
        // The announcements during it cause exactly one more fetch.
        QCOMPARE(transport->requests.size(), 1);
        transport->take().done(reply(200, peersAnswer(QStringLiteral("beta"), {QStringLiteral("b2")})));
        QVERIFY(transport->requests.isEmpty());
        QCOMPARE(links->remotePeers().size(), 1);
        QCOMPARE(links->remotePeers().first().id, QStringLiteral("beta:b2"));
        // The periodic round does not pile a second fetch on one in flight either.
        links->syncRemote(QStringLiteral("beta"));
        links->syncRound();
        QCOMPARE(transport->requests.size(), 1);
    }

    void syncReplacesPeersThenEvictsAndReconnects()
    {
        const RemoteAddress address {QStringLiteral("10.0.0.2"), 7900};
        links->connect(address, RemoteOrigin::Manual, nullptr);
        answerConnect(QStringLiteral("beta"), {QStringLiteral("p1")});

        clock->advance(30'000);
        links->syncRound();
        SentRequest sync = transport->take();
        QCOMPARE(sync.path, QByteArray("/federation/peers"));
        sync.done(
            reply(200, peersAnswer(QStringLiteral("beta"), {QStringLiteral("p2"), QStringLiteral("p3")})));
        QCOMPARE(links->remotePeers().size(), 2);
        QCOMPARE(links->remotePeers().first().id, QStringLiteral("beta:p2"));
        const qint64 syncedAt = clock->monotonicMs();

        // Three failed syncs; at exactly 90 s of silence it is kept, past 90 s it is evicted.
        for (int round = 1; round <= 3; ++round) {
            clock->advance(30'000);
            links->syncRound();
            QCOMPARE(links->connectedCount(), 1);
            transport->take().done(LinkReply {0, {}, QStringLiteral("timed out")});
        }
        QCOMPARE(clock->monotonicMs() - syncedAt, RemoteLinks::kEvictAfterMs);
        clock->advance(1);
        links->syncRound();
        QCOMPARE(links->connectedCount(), 0);
        QVERIFY(links->remotePeers().isEmpty());
        QVERIFY2(transport->requests.isEmpty(), "an evicted remote is not synced");
        QCOMPARE(links->find(address)->state, RemoteState::Waiting);

        // 0.7 forgets it; we reconnect at once, then with the backoff.
        links->reconnectDue();
        failAttempt();
        clock->advance(5'000);
        links->reconnectDue();
        answerConnect(QStringLiteral("beta"), {QStringLiteral("p4")});
        QCOMPARE(links->connectedCount(), 1);
        QCOMPARE(links->remotePeers().first().id, QStringLiteral("beta:p4"));
    }

    void lateAnswersOfARemovedRemoteAreIgnored()
    {
        const RemoteAddress address {QStringLiteral("10.0.0.2"), 7900};
        std::optional<Broker::Result<QJsonObject>> answer;
        links->connect(address, RemoteOrigin::Manual, [&](Broker::Result<QJsonObject> r) { answer = r; });
        SentRequest handshake = transport->take();
        QVERIFY(links->disconnect(address));
        QVERIFY(answer && !answer->has_value());
        handshake.done(reply(200, {{QStringLiteral("hostname"), QStringLiteral("beta")}}));
        QVERIFY(transport->requests.isEmpty());
        QVERIFY(!links->find(address));
        QVERIFY(!links->disconnect(address));
    }

    void sendRelaysToTheRemoteNamedByTheId()
    {
        links->connect({QStringLiteral("10.0.0.2"), 7900}, RemoteOrigin::Manual, nullptr);
        answerConnect(QStringLiteral("beta"), {QStringLiteral("p1")});

        Broker::RemoteMessage message;
        message.toId = QStringLiteral("beta:p1");
        message.fromId = QStringLiteral("me");
        message.text = QStringLiteral("hello");
        std::optional<Broker::Result<QJsonObject>> answer;
        links->send(message, [&](Broker::Result<QJsonObject> r) { answer = r; });
        SentRequest relay = transport->take();
        QCOMPARE(relay.path, QByteArray("/federation/relay"));
        QCOMPARE(relay.body.value(u"to_id").toString(), QStringLiteral("p1"));
        QCOMPARE(relay.body.value(u"to_machine").toString(), QStringLiteral("beta"));
        relay.done(reply(200, {{QStringLiteral("ok"), true}, {QStringLiteral("message_id"), 9}}));
        QVERIFY(answer && answer->has_value());

        links->send(message, [&](Broker::Result<QJsonObject> r) { answer = r; });
        transport->take().done(
            reply(404,
                  {{QStringLiteral("ok"), false},
                   {QStringLiteral("error"), QStringLiteral("Peer p1 not found locally")}}));
        QCOMPARE(answer->error().message, QStringLiteral("Relay failed (404): Peer p1 not found locally"));

        message.toId = QStringLiteral("nocolon");
        links->send(message, [&](Broker::Result<QJsonObject> r) { answer = r; });
        QCOMPARE(answer->error().message,
                 QStringLiteral("Invalid remote peer ID \"nocolon\" — expected \"hostname:peer_id\" format"));
        message.toId = QStringLiteral("gamma:p1");
        links->send(message, [&](Broker::Result<QJsonObject> r) { answer = r; });
        QCOMPARE(answer->error().message, QStringLiteral("No federation connection to machine \"gamma\""));
        QVERIFY(transport->requests.isEmpty());
    }

    void peerListsAreBounded()
    {
        links->connect({QStringLiteral("10.0.0.2"), 7900}, RemoteOrigin::Manual, nullptr);
        QStringList ids;
        for (int i = 0; i < RemoteLinks::kMaxPeersPerRemote + 50; ++i)
            ids.append(QStringLiteral("p%1").arg(i));
        answerConnect(QStringLiteral("beta"), ids);
        QCOMPARE(links->remotePeers().size(), RemoteLinks::kMaxPeersPerRemote);
    }
};

QTEST_GUILESS_MAIN(tst_RemoteLinks)
#include "tst_remotelinks.moc"
