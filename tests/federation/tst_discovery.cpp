// DNS-SD discovery without a daemon: the TXT record's wire form (encode, parse, RFC 6763's
// rules, limits, 0.7's announcement), the decision (own instance ignored, bad TXT ignored,
// pinned → connect, unpinned → listed, 0.7 → listed, never connected), and the module acting on
// a fake discovery inside two real in-process brokers over TLS.
#include "common/config.h"
#include "federation/discovery.h"
#include "federation/federationmodule.h"
#include "tests/broker/brokerharness.h"

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Federation;
using namespace Qt::StringLiterals;

namespace {

const QString kPinA = QStringLiteral("sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
const QString kPinB = QStringLiteral("sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA");
const QByteArray kSharedPsk =
    QByteArrayLiteral("d15c0d15c0d15c0d15c0d15c0d15c0d15c0d15c0d15c0d15c0d15c0d15c0d15c");

QByteArray record(std::initializer_list<QByteArray> entries)
{
    QByteArray out;
    for (const QByteArray &entry : entries) {
        out.append(char(entry.size()));
        out.append(entry);
    }
    return out;
}

DiscoveryContext context(QSet<QString> pinned = {}, QStringList linked = {})
{
    DiscoveryContext c;
    c.ownHostname = QStringLiteral("self");
    c.ownPin = kPinA;
    c.pinnedFingerprints = std::move(pinned);
    c.linked = [linked](const QString &hostname) { return linked.contains(hostname); };
    return c;
}

DiscoveredService service(const QByteArray &txt)
{
    return {QStringLiteral("instance"), QStringLiteral("10.0.0.2"), 7900, txt};
}

// Stands in for DNS-SD: the test says what was "found".
class FakeDiscovery final : public Discovery
{
public:
    static inline FakeDiscovery *last = nullptr;
    QString instance;
    quint16 port = 0;
    QByteArray txt;
    bool active = false;

    FakeDiscovery() { last = this; }
    ~FakeDiscovery() override
    {
        if (last == this)
            last = nullptr;
    }
    void start(const QString &name, quint16 onPort, const QByteArray &record) override
    {
        instance = name;
        port = onPort;
        txt = record;
        active = true;
    }
    void stop() override { active = false; }
    bool isActive() const override { return active; }
    void announce(const DiscoveredService &service) { Q_EMIT found(service); }
};

struct Node
{
    std::unique_ptr<BrokerHarness> broker;
    std::shared_ptr<FederationModule> module;
    // What the module's reload() re-reads (settingsSource), set by the test.
    std::shared_ptr<FederationSettings> reloaded = std::make_shared<FederationSettings>();
};

Node makeNode(const QString &hostname, bool fakeDiscovery)
{
    Node node;
    node.broker = std::make_unique<BrokerHarness>();
    FederationSettings settings;
    settings.enabled = true;
    settings.port = 0;
    settings.hostname = hostname;
    settings.home = node.broker->home().path();
    settings.configPath = node.broker->home().configPath();
    settings.tokenPath = node.broker->home().tokenPath();
    settings.subnets = {QStringLiteral("127.0.0.0/8")};
    settings.mdnsEnabled = fakeDiscovery;
    settings.mdnsOffReason = QStringLiteral("off in this test");
    QFile psk(settings.home + QStringLiteral("/.claude-peers-federation-psk"));
    if (psk.open(QIODevice::WriteOnly))
        psk.write(kSharedPsk + '\n');
    psk.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    FederationModule::Parts parts;
    parts.listenAddress = QHostAddress::LocalHost;
    parts.environment = node.broker->home().environment();
    parts.discovery = [] { return std::make_unique<FakeDiscovery>(); };
    *node.reloaded = settings;
    parts.settingsSource = [reloaded = node.reloaded] { return *reloaded; };
    node.module = std::make_shared<FederationModule>(settings, std::move(parts));
    node.broker->server().addModule(node.module);
    node.broker->server().setFederationLink(node.module);
    return node;
}

bool startNode(Node &node)
{
    QSignalSpy ready(node.module.get(), &FederationModule::ready);
    return node.broker->start() && (ready.count() || ready.wait(TestSupport::scaled(15000)));
}

} // namespace

class tst_Discovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void txtRoundTripsAndCarriesNoPskHash()
    {
        const DiscoveryTxt txt {QStringLiteral("1.0.0"), QStringLiteral("alpha"), kPinA, false};
        const QByteArray wire = encodeDiscoveryTxt(txt);
        QCOMPARE(wire, record({"version=1.0.0", "hostname=alpha", "fp=" + kPinA.toLatin1()}));
        QVERIFY(!wire.contains("psk_hash"));
        QVERIFY(wire.size() < 200); // RFC 6763 §6.2's recommendation
        const auto parsed = parseDiscoveryTxt(wire);
        QVERIFY(parsed.has_value());
        QCOMPARE(*parsed, txt);
    }

    void txtFollowsRfc6763()
    {
        // Keys case-insensitive, the first occurrence wins, empty keys and bare keys ignored.
        const auto parsed = parseDiscoveryTxt(
            record({"", "novalue", "HostName=Beta", "hostname=gamma", "FP=" + kPinB.toLatin1(), "fp=junk"}));
        QVERIFY(parsed.has_value());
        QCOMPARE(parsed->hostname, QStringLiteral("beta"));
        QCOMPARE(parsed->fingerprint, kPinB);
        QVERIFY(parsed->version.isEmpty());
    }

    void zeroSevenAnnouncementIsRecognised()
    {
        // docs/spec/peers-api.md §6.8: {psk_hash, version, hostname}, no fp.
        const auto parsed =
            parseDiscoveryTxt(record({"psk_hash=a8ae6e6e", "version=1.0.0", "hostname=rafi-macbook"}));
        QVERIFY(parsed.has_value());
        QVERIFY(parsed->legacyPskHash);
        QVERIFY(parsed->fingerprint.isEmpty());
        QCOMPARE(parsed->hostname, QStringLiteral("rafi-macbook"));
    }

    void badTxtIsRefused_data()
    {
        QTest::addColumn<QByteArray>("txt");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray("\x20hostname=x", 11);
        QTest::newRow("no hostname") << record({"fp=" + kPinA.toLatin1()});
        QTest::newRow("hostname with colon") << record({"hostname=a:b", "fp=" + kPinA.toLatin1()});
        QTest::newRow("hostname too long")
            << record({"hostname=" + QByteArray(64, 'h'), "fp=" + kPinA.toLatin1()});
        QTest::newRow("control character") << record({"hostname=a\nb", "fp=" + kPinA.toLatin1()});
        QTest::newRow("malformed fp") << record({"hostname=a", "fp=sha256-short"});
        QTest::newRow("neither fp nor psk_hash") << record({"hostname=a", "version=1.0.0"});
        QTest::newRow("oversized") << QByteArray(kMaxDiscoveryTxtBytes + 1, '\x01');
    }

    void badTxtIsRefused()
    {
        QFETCH(QByteArray, txt);
        const auto parsed = parseDiscoveryTxt(txt);
        QVERIFY(!parsed.has_value());
        QVERIFY(!parsed.error().isEmpty());
        QCOMPARE(decideDiscovery(service(txt), context({kPinA, kPinB})).action, DiscoveryAction::Ignore);
    }

    void decisions()
    {
        const auto txtOf = [](const QString &host, const QString &pin) {
            return encodeDiscoveryTxt({QStringLiteral("1.0.0"), host, pin, false});
        };
        // Our own announcement, by name or by fingerprint.
        QCOMPARE(decideDiscovery(service(txtOf(QStringLiteral("self"), kPinB)), context({kPinB})).action,
                 DiscoveryAction::Ignore);
        QCOMPARE(decideDiscovery(service(txtOf(QStringLiteral("other"), kPinA)), context({kPinA})).action,
                 DiscoveryAction::Ignore);
        // Pinned → connect; not pinned → pending; already linked → nothing.
        QCOMPARE(decideDiscovery(service(txtOf(QStringLiteral("beta"), kPinB)), context({kPinB})).action,
                 DiscoveryAction::Connect);
        QCOMPARE(decideDiscovery(service(txtOf(QStringLiteral("beta"), kPinB)), context()).action,
                 DiscoveryAction::Pending);
        QCOMPARE(decideDiscovery(service(txtOf(QStringLiteral("beta"), kPinB)),
                                 context({kPinB}, {QStringLiteral("beta")}))
                     .action,
                 DiscoveryAction::Ignore);
        // A 0.7 broker is listed, never connected (its psk_hash would get it our PSK).
        QCOMPARE(
            decideDiscovery(service(record({"psk_hash=a8ae6e6e", "hostname=old"})), context({kPinB})).action,
            DiscoveryAction::Pending);
        // No IPv4 address (0.7 ignores those too).
        DiscoveredService noAddress = service(txtOf(QStringLiteral("beta"), kPinB));
        noAddress.address.clear();
        QCOMPARE(decideDiscovery(noAddress, context({kPinB})).action, DiscoveryAction::Ignore);
    }

    void moduleConnectsToPinnedAndListsTheRest()
    {
        Node alpha = makeNode(QStringLiteral("alpha"), true);
        Node beta = makeNode(QStringLiteral("beta"), false);
        QVERIFY(startNode(alpha));
        QVERIFY(startNode(beta));
        FakeDiscovery *discovery = FakeDiscovery::last;
        QVERIFY(discovery && discovery->active);
        // alpha announces itself: its port, its hostname and fingerprint, no PSK hash.
        QCOMPARE(discovery->instance, QStringLiteral("alpha"));
        QCOMPARE(discovery->port, alpha.module->listeningPort());
        const auto announced = parseDiscoveryTxt(discovery->txt);
        QVERIFY(announced.has_value());
        QCOMPARE(announced->fingerprint, alpha.module->ownPin());
        QVERIFY(!discovery->txt.contains("psk"));
        QCOMPARE(alpha.broker->get(QStringLiteral("/federation/status"))
                     .object()
                     .value(u"mdns")
                     .toObject()
                     .value(u"active"),
                 QJsonValue(true));
        QCOMPARE(beta.broker->get(QStringLiteral("/federation/status"))
                     .object()
                     .value(u"mdns")
                     .toObject()
                     .value(u"reason")
                     .toString(),
                 QStringLiteral("turned off (off in this test)"));

        const QString betaPin = beta.module->ownPin();
        const DiscoveredService betaService {
            QStringLiteral("beta"), QStringLiteral("127.0.0.1"), beta.module->listeningPort(),
            encodeDiscoveryTxt({QStringLiteral("1.0.0"), QStringLiteral("beta"), betaPin, false})};
        const auto statusOfAlpha = [&] {
            return alpha.broker->get(QStringLiteral("/federation/status")).object();
        };

        // Own announcement and garbage: nothing happens.
        discovery->announce({QStringLiteral("alpha"), QStringLiteral("127.0.0.1"),
                             alpha.module->listeningPort(), discovery->txt});
        discovery->announce(
            {QStringLiteral("junk"), QStringLiteral("127.0.0.1"), 1, QByteArray("\x05zz", 3)});
        // Not pinned: listed as discovered, not connected (nothing is sent to it).
        QSignalSpy discovered(alpha.module.get(), &FederationModule::hostDiscovered);
        discovery->announce(betaService);
        QCOMPARE(discovered.count(), 1);
        QJsonArray listed = statusOfAlpha().value(u"discovered").toArray();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().toObject().value(u"hostname").toString(), QStringLiteral("beta"));
        QCOMPARE(listed.first().toObject().value(u"fingerprint").toString(), betaPin);
        // ... and a pairing request for the user (fedpair's /federation/pending).
        const QJsonArray pending = alpha.broker->post(QStringLiteral("/federation/pending"), {})
                                       .object()
                                       .value(u"requests")
                                       .toArray();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(pending.first().toObject().value(u"hostname").toString(), QStringLiteral("beta"));
        QCOMPARE(pending.first().toObject().value(u"fingerprint").toString(), betaPin);
        QCOMPARE(pending.first().toObject().value(u"origin").toString(), QStringLiteral("discovery"));
        QTest::qWait(TestSupport::scaled(1000)); // a connection would have started by now
        QVERIFY(statusOfAlpha().value(u"remotes").toArray().isEmpty());
        QVERIFY(beta.module->remotePeers().isEmpty());

        // Pinned (from an earlier pairing, under another address): connected, the pin checked.
        Broker::ConfigFile config = Broker::ConfigFile::load(alpha.broker->home().configPath());
        config.setPin(QStringLiteral("beta.local"), 7900, betaPin);
        QVERIFY(config.save(alpha.broker->home().configPath()));
        discovery->announce(betaService);
        QTRY_VERIFY_WITH_TIMEOUT(
            !statusOfAlpha().value(u"remotes").toArray().isEmpty() &&
                statusOfAlpha().value(u"remotes").toArray().first().toObject().value(u"state").toString() ==
                    u"connected",
            TestSupport::scaled(10000));
        QCOMPARE(Broker::ConfigFile::load(alpha.broker->home().configPath())
                     .pins()
                     .value(QStringLiteral("127.0.0.1:%1").arg(beta.module->listeningPort())),
                 betaPin);
        // Connected now: no longer waiting for pairing.
        QVERIFY(statusOfAlpha().value(u"discovered").toArray().isEmpty());

        // A pinned fingerprint at an address pinned to another key: listed, not connected.
        Node gamma = makeNode(QStringLiteral("gamma"), false);
        QVERIFY(startNode(gamma));
        config = Broker::ConfigFile::load(alpha.broker->home().configPath());
        config.setPin(QStringLiteral("127.0.0.1"), gamma.module->listeningPort(), kPinB);
        config.setPin(QStringLiteral("gamma.local"), 7900, gamma.module->ownPin());
        QVERIFY(config.save(alpha.broker->home().configPath()));
        discovery->announce({QStringLiteral("gamma"), QStringLiteral("127.0.0.1"),
                             gamma.module->listeningPort(),
                             encodeDiscoveryTxt({QStringLiteral("1.0.0"), QStringLiteral("gamma"),
                                                 gamma.module->ownPin(), false})});
        listed = statusOfAlpha().value(u"discovered").toArray();
        QVERIFY(std::any_of(listed.begin(), listed.end(), [](const QJsonValue &host) {
            return host.toObject().value(u"hostname").toString() == u"gamma" &&
                host.toObject().value(u"reason").toString().contains(u"pinned to another certificate");
        }));
        const QJsonArray remotes = statusOfAlpha().value(u"remotes").toArray();
        QVERIFY(std::none_of(remotes.begin(), remotes.end(), [&](const QJsonValue &remote) {
            return remote.toObject().value(u"port").toInt() == gamma.module->listeningPort();
        }));

        // Lost: the listing goes.
        Q_EMIT discovery->lost(QStringLiteral("gamma"));
        listed = statusOfAlpha().value(u"discovered").toArray();
        QVERIFY(std::none_of(listed.begin(), listed.end(), [](const QJsonValue &host) {
            return host.toObject().value(u"hostname").toString() == u"gamma";
        }));
    }

    // Ignore (reject) a discovered machine: it is remembered by its pin, so the next announcement
    // lists it as discovered but does not bring the card back; unignore lets it ask again.
    void ignoredMachineIsNotProposedAgainUntilUnignored()
    {
        Node alpha = makeNode(QStringLiteral("alpha"), true);
        Node beta = makeNode(QStringLiteral("beta"), false);
        QVERIFY(startNode(alpha));
        QVERIFY(startNode(beta));
        FakeDiscovery *discovery = FakeDiscovery::last;
        QVERIFY(discovery && discovery->active);
        const QString betaPin = beta.module->ownPin();
        const DiscoveredService betaService {
            QStringLiteral("beta"), QStringLiteral("127.0.0.1"), beta.module->listeningPort(),
            encodeDiscoveryTxt({QStringLiteral("1.0.0"), QStringLiteral("beta"), betaPin, false})};
        const auto pendingOfAlpha = [&] {
            QJsonArray waiting;
            for (const QJsonValue &request : alpha.broker->post(QStringLiteral("/federation/pending"), {})
                                                 .object()
                                                 .value(u"requests")
                                                 .toArray())
                if (request.toObject().value(u"state").toString() == u"pending")
                    waiting.append(request);
            return waiting;
        };
        const auto attemptsOfAlpha = [&] {
            return alpha.broker->post(QStringLiteral("/federation/attempts"), {}).object();
        };

        discovery->announce(betaService);
        QJsonArray pending = pendingOfAlpha();
        QCOMPARE(pending.size(), 1);
        const QString id = pending.first().toObject().value(u"id").toString();
        QVERIFY(alpha.broker->post(QStringLiteral("/federation/reject"), {{u"id"_s, id}})
                    .object()
                    .value(u"ok")
                    .toBool());
        const QJsonArray ignored = attemptsOfAlpha().value(u"ignored").toArray();
        QCOMPARE(ignored.size(), 1);
        QCOMPARE(ignored.first().toObject().value(u"fingerprint").toString(), betaPin);
        QCOMPARE(ignored.first().toObject().value(u"hostname").toString(), QStringLiteral("beta"));

        discovery->announce(betaService);
        QCOMPARE(pendingOfAlpha().size(), 0);
        const QJsonArray listed =
            alpha.broker->get(QStringLiteral("/federation/status")).object().value(u"discovered").toArray();
        QCOMPARE(listed.size(), 1);
        QVERIFY(listed.first().toObject().value(u"reason").toString().contains(u"ignored"));

        // Bad inputs are refused with what to send instead; nothing is un-ignored by them.
        for (const QJsonObject &bad : {QJsonObject {}, QJsonObject {{u"fingerprint"_s, 7}},
                                       QJsonObject {{u"fingerprint"_s, QString(300, u'x')}},
                                       QJsonObject {{u"fingerprint"_s, u"sha256-unknown"_s}}}) {
            const QJsonObject answer =
                alpha.broker->post(QStringLiteral("/federation/unignore"), bad).object();
            QCOMPARE(answer.value(u"ok").toBool(true), false);
            QVERIFY(answer.value(u"error").toString().contains(u"federation attempts"));
        }
        QCOMPARE(attemptsOfAlpha().value(u"ignored").toArray().size(), 1);

        const QJsonObject unignored =
            alpha.broker->post(QStringLiteral("/federation/unignore"), {{u"fingerprint"_s, betaPin}})
                .object();
        QVERIFY2(unignored.value(u"ok").toBool(), qPrintable(unignored.value(u"error").toString()));
        QVERIFY(attemptsOfAlpha().value(u"ignored").toArray().isEmpty());
        discovery->announce(betaService);
        QCOMPARE(pendingOfAlpha().size(), 1);
        // The trail has the decision and the un-ignoring, newest first.
        const QJsonArray trail = attemptsOfAlpha().value(u"attempts").toArray();
        QVERIFY(trail.size() >= 2);
        QCOMPARE(trail.at(0).toObject().value(u"kind").toString(), QStringLiteral("unignored"));
        QCOMPARE(trail.at(1).toObject().value(u"kind").toString(), QStringLiteral("rejected"));
    }

    void reloadTurnsDiscoveryOffAndOn()
    {
        Node node = makeNode(QStringLiteral("epsilon"), true);
        QVERIFY(startNode(node));
        QVERIFY(node.module->discoveryActive());
        QVERIFY(FakeDiscovery::last);
        FakeDiscovery::last->announce(
            {QStringLiteral("zeta"), QStringLiteral("127.0.0.1"), 9,
             encodeDiscoveryTxt({QStringLiteral("1.0.0"), QStringLiteral("zeta"), kPinB, false})});
        QCOMPARE(node.module->discoveredHosts().size(), 1);

        node.reloaded->mdnsEnabled = false;
        node.reloaded->mdnsOffReason = QStringLiteral("federation.mdns.enabled is false");
        node.broker->server().reload();
        QVERIFY(!node.module->discoveryActive());
        QVERIFY(node.module->discoveredHosts().isEmpty());
        QCOMPARE(node.broker->get(QStringLiteral("/federation/status"))
                     .object()
                     .value(u"mdns")
                     .toObject()
                     .value(u"reason")
                     .toString(),
                 QStringLiteral("turned off (federation.mdns.enabled is false)"));

        node.reloaded->mdnsEnabled = true;
        node.broker->server().reload();
        QVERIFY(node.module->discoveryActive());
        QVERIFY(FakeDiscovery::last && FakeDiscovery::last->active);
    }

    void unavailableDiscoveryIsReportedNotFatal()
    {
        FederationSettings settings;
        BrokerHarness broker;
        settings.enabled = true;
        settings.port = 0;
        settings.hostname = QStringLiteral("delta");
        settings.home = broker.home().path();
        settings.configPath = broker.home().configPath();
        settings.tokenPath = broker.home().tokenPath();
        FederationModule::Parts parts;
        parts.listenAddress = QHostAddress::LocalHost;
        parts.environment = broker.home().environment();
        parts.discovery = [] {
            return std::make_unique<NullDiscovery>(
                QStringLiteral("no mDNS daemon answers (DNS-SD error -65537)"));
        };
        auto module = std::make_shared<FederationModule>(settings, std::move(parts));
        broker.server().addModule(module);
        broker.server().setFederationLink(module);
        QSignalSpy ready(module.get(), &FederationModule::ready);
        QVERIFY(broker.start());
        QVERIFY(ready.count() || ready.wait(TestSupport::scaled(15000)));
        const QJsonObject status = broker.get(QStringLiteral("/federation/status")).object();
        QCOMPARE(status.value(u"enabled").toBool(), true);
        QVERIFY(module->listeningPort());
        QCOMPARE(status.value(u"mdns").toObject().value(u"active").toBool(), false);
        QVERIFY(status.value(u"mdns").toObject().value(u"reason").toString().contains(u"-65537"));
    }
};

QTEST_GUILESS_MAIN(tst_Discovery)
#include "tst_discovery.moc"
