// The broker's federation-enabled paths (docs/spec/peers-api.md §3.5, §3.11 "lan", §3.13, §3.20, /metrics)
// through a fake FederationLink: what the broker asks the link, and how it answers from the
// link's results, including answers that arrive later.
#include "broker/federationlink.h"
#include "tests/broker/brokerharness.h"

#include <QSignalSpy>
#include <QTest>

using TestSupport::HttpResult;

namespace {

class FakeFederationLink final : public Broker::FederationLink
{
public:
    bool isEnabled() const override { return true; }
    QJsonObject status() const override
    {
        return QJsonObject {{QStringLiteral("enabled"), true},
                            {QStringLiteral("port"), 7955},
                            {QStringLiteral("subnet"), QStringLiteral("10.1.0.0/24")},
                            {QStringLiteral("remotes"),
                             QJsonArray {QJsonObject {{QStringLiteral("host"), QStringLiteral("10.1.0.2")}}}},
                            {QStringLiteral("total_remote_peers"), remote.size()},
                            {QStringLiteral("warnings"), QJsonArray {QStringLiteral("rotate the PSK")}}};
    }
    QList<Broker::Peer> remotePeers() const override { return remote; }
    void connectRemote(const QString &host, int port, Callback done) override
    {
        connects.append({host, port});
        if (host == QLatin1String("bad.example"))
            done(Broker::fail(Broker::ErrorKind::Unreachable, QStringLiteral("Cannot reach bad.example")));
        else
            done(QJsonObject {{QStringLiteral("hostname"), QStringLiteral("remote-box")}});
    }
    void disconnectRemote(const QString &host, int port, Callback done) override
    {
        disconnects.append({host, port});
        done(QJsonObject {});
    }
    void sendToRemote(const Broker::RemoteMessage &message, Callback done) override
    {
        sent.append(message);
        pending.append(std::move(done)); // answered by the test, later
    }

    QList<Broker::Peer> remote;
    QList<QPair<QString, int>> connects;
    QList<QPair<QString, int>> disconnects;
    QList<Broker::RemoteMessage> sent;
    QList<Callback> pending;
};

Broker::Peer remotePeer(const QString &id)
{
    Broker::Peer peer;
    peer.id = id;
    peer.cwd = QStringLiteral("/remote");
    peer.summary = QStringLiteral("on another machine");
    peer.registeredAt = peer.lastSeen = QStringLiteral("2026-11-30T12:00:00.000Z");
    return peer;
}

} // namespace

class tst_BrokerFederation : public QObject
{
    Q_OBJECT

    std::unique_ptr<BrokerHarness> h;
    std::shared_ptr<FakeFederationLink> link;

private Q_SLOTS:
    void init()
    {
        h = std::make_unique<BrokerHarness>();
        link = std::make_shared<FakeFederationLink>();
        link->remote = {remotePeer(QStringLiteral("remote-box:aaaa1111")),
                        remotePeer(QStringLiteral("remote-box:bbbb2222"))};
        h->server().setFederationLink(link);
        QVERIFY(h->start());
    }
    void cleanup()
    {
        h.reset();
        link.reset();
    }

    void statusAndMetricsComeFromTheLink()
    {
        HttpResult r = h->get(QStringLiteral("/federation/status"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object(), link->status());
        const QJsonObject federation =
            h->get(QStringLiteral("/metrics")).object().value(QStringLiteral("federation")).toObject();
        QCOMPARE(federation,
                 (QJsonObject {{QStringLiteral("enabled"), true},
                               {QStringLiteral("remote_count"), 1},
                               {QStringLiteral("remote_peer_count"), 2}}));
    }

    void connectAndDisconnectPassHostAndPort()
    {
        HttpResult r =
            h->post(QStringLiteral("/federation/connect"),
                    {{QStringLiteral("host"), QStringLiteral("10.1.0.2")}, {QStringLiteral("port"), 7955}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object(),
                 (QJsonObject {{QStringLiteral("ok"), true},
                               {QStringLiteral("hostname"), QStringLiteral("remote-box")}}));
        QCOMPARE(link->connects.value(0), (QPair<QString, int> {QStringLiteral("10.1.0.2"), 7955}));

        r = h->post(
            QStringLiteral("/federation/connect"),
            {{QStringLiteral("host"), QStringLiteral("bad.example")}, {QStringLiteral("port"), 7955}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object(),
                 (QJsonObject {{QStringLiteral("ok"), false},
                               {QStringLiteral("error"), QStringLiteral("Cannot reach bad.example")}}));

        r = h->post(QStringLiteral("/federation/connect"),
                    {{QStringLiteral("host"), QStringLiteral("10.1.0.2")}, {QStringLiteral("port"), 70000}});
        QCOMPARE(r.status, 400);
        QCOMPARE(link->connects.size(), 2); // the bad port never reached the link

        r = h->post(QStringLiteral("/federation/disconnect"),
                    {{QStringLiteral("host"), QStringLiteral("10.1.0.2")}, {QStringLiteral("port"), 7955}});
        QCOMPARE(r.object(), (QJsonObject {{QStringLiteral("ok"), true}}));
        QCOMPARE(link->disconnects.size(), 1);
        // A session credential may not steer federation.
        const RegisteredPeer peer = h->registerPeer();
        QCOMPARE(
            h->post(QStringLiteral("/federation/connect"),
                    {{QStringLiteral("host"), QStringLiteral("10.1.0.3")}, {QStringLiteral("port"), 7955}},
                    peer.secret)
                .status,
            403);
    }

    void readModelHasTheLanPeersAndWarningsWhileRunning()
    {
        // What the tray's snapshot shows beside the local peers (BrokerSnapshot::of).
        const QList<Broker::Peer> remote = h->server().remotePeers();
        QCOMPARE(remote.size(), 2);
        QCOMPARE(remote.at(0).id, QStringLiteral("remote-box:aaaa1111"));
        QVERIFY(remote.at(0).isRemote());
        QCOMPARE(h->server().federationWarnings(), QStringList {QStringLiteral("rotate the PSK")});
        h->server().stop();
        QVERIFY(h->server().remotePeers().isEmpty());
        QVERIFY(h->server().federationWarnings().isEmpty());
    }

    void lanScopeListsRemotePeers()
    {
        const RegisteredPeer local = h->registerPeer();
        const QJsonArray lan = h->listPeers(
            QStringLiteral("lan"), {{QStringLiteral("exclude_id"), QStringLiteral("remote-box:aaaa1111")}});
        QStringList ids;
        for (const QJsonValue &v : lan)
            ids.append(v.toObject().value(QStringLiteral("id")).toString());
        QCOMPARE(ids, (QStringList {local.id, QStringLiteral("remote-box:bbbb2222")}));
        QCOMPARE(h->listPeers(QStringLiteral("machine")).size(), 1); // only "lan" asks the link
    }

    void lanBroadcastWaitsForEveryRelay()
    {
        const RegisteredPeer from = h->registerPeer();
        const RegisteredPeer other = h->registerPeer();
        QNetworkReply *reply = h->postAsync(QStringLiteral("/broadcast"),
                                            {{QStringLiteral("from_id"), from.id},
                                             {QStringLiteral("text"), QStringLiteral("to everyone")},
                                             {QStringLiteral("scope"), QStringLiteral("lan")}});
        QTRY_COMPARE_WITH_TIMEOUT(link->pending.size(), 2, TestSupport::scaled(5000));
        QCOMPARE(link->sent.at(0).fromId, from.id);
        QCOMPARE(link->sent.at(0).text, QStringLiteral("to everyone"));
        QCOMPARE(link->sent.at(0).type, QStringLiteral("broadcast"));
        link->pending[0](QJsonObject {}); // relayed
        QTest::qWait(200); // the answer must wait for the second relay
        QVERIFY(!reply->isFinished());
        link->pending[1](Broker::fail(Broker::ErrorKind::Unreachable, QStringLiteral("gone")));
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), TestSupport::scaled(5000));
        const QJsonObject answer = BrokerHarness::replyObject(reply);
        QCOMPARE(answer.value(QStringLiteral("ok")), QJsonValue(true));
        QCOMPARE(answer.value(QStringLiteral("recipients")).toInt(), 3); // one local, two remote
        const QJsonArray ids = answer.value(QStringLiteral("message_ids")).toArray();
        QCOMPARE(ids.size(), 2); // the local message and -1 for the one successful relay
        QCOMPARE(ids.at(1).toInteger(), -1);
        QCOMPARE(h->poll(other.id).size(), 1);
    }

    void sendToRemoteRelaysThroughTheLink()
    {
        const RegisteredPeer from = h->registerPeer();
        QNetworkReply *reply =
            h->postAsync(QStringLiteral("/federation/send-to-remote"),
                         {{QStringLiteral("from_id"), from.id},
                          {QStringLiteral("to_id"), QStringLiteral("remote-box:aaaa1111")},
                          {QStringLiteral("text"), QStringLiteral("hi there")},
                          {QStringLiteral("type"), QStringLiteral("query")},
                          {QStringLiteral("metadata"), QJsonObject {{QStringLiteral("k"), 1}}},
                          {QStringLiteral("reply_to"), 5}},
                         from.secret);
        QTRY_COMPARE_WITH_TIMEOUT(link->pending.size(), 1, TestSupport::scaled(5000));
        const Broker::RemoteMessage &m = link->sent.at(0);
        QCOMPARE(m.toId, QStringLiteral("remote-box:aaaa1111"));
        QCOMPARE(m.type, QStringLiteral("query"));
        QCOMPARE(m.metadata, std::optional(QJsonObject {{QStringLiteral("k"), 1}}));
        QCOMPARE(m.replyTo, std::optional<qint64>(5));
        link->pending[0](QJsonObject {{QStringLiteral("message_id"), 77}});
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(BrokerHarness::replyObject(reply),
                 (QJsonObject {{QStringLiteral("ok"), true}, {QStringLiteral("message_id"), 77}}));

        const HttpResult refused = h->post(QStringLiteral("/federation/send-to-remote"),
                                           {{QStringLiteral("from_id"), from.id},
                                            {QStringLiteral("to_id"), QStringLiteral("remote-box:aaaa1111")},
                                            {QStringLiteral("text"), QStringLiteral("x")},
                                            {QStringLiteral("metadata"), QStringLiteral("not an object")}});
        QCOMPARE(refused.object(),
                 (QJsonObject {{QStringLiteral("ok"), false},
                               {QStringLiteral("error"), QStringLiteral("metadata must be a JSON object")}}));
        QCOMPARE(link->sent.size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_BrokerFederation)
#include "tst_brokerfederation.moc"
