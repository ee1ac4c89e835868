// Reload without a restart (issue #9 §3): real claude-peers-broker processes whose config file
// is changed, then SIGHUP (or POST /reload) — federation enabled and disabled (its port opens and
// closes), subnets, remotes added and removed, certificate files replaced — each effect seen from
// outside. And the certificate renewal job: a short-lived certificate, a ManualClock moved past
// the renewal point, the broker's own job renews it with the same key and serves the new one.
#include "common/config.h"
#include "federation/certificate.h"
#include "federation/federationmodule.h"
#include "federation/pinnedtlsclient.h"
#include "tests/broker/brokerharness.h"
#include "tests/federation/federationmachine.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QTcpSocket>
#include <QTest>

#include <csignal>

using TestSupport::HttpResult;

namespace {

const QByteArray kPsk = QByteArrayLiteral("0ddba11c0ddba11c0ddba11c0ddba11c0ddba11c0ddba11c0ddba11c0ddba11c");

struct Machine : FederationTest::FederationMachine
{
    // Changes the config file as the user (or the CLI) would, keeping what the broker wrote.
    bool editConfig(const std::function<void(Broker::ConfigFile &)> &edit)
    {
        Broker::ConfigFile config = Broker::ConfigFile::load(home.configPath());
        edit(config);
        return bool(config.save(home.configPath()));
    }
    void sighup() { ::kill(pid_t(broker->pid()), SIGHUP); }
};

// The federation settings come from the config file only (no CLAUDE_PEERS_FEDERATION_ENABLED,
// _PORT or _SUBNET, which would override it): what a reload re-reads.
bool startMachine(Machine &machine, const QString &hostname, bool enabled)
{
    return machine.prepare(hostname, kPsk) && machine.editConfig([&](Broker::ConfigFile &config) {
        config.setFederationEnabled(enabled);
        config.setFederationPort(machine.federationPort);
        config.setFederationSubnets({QStringLiteral("127.0.0.0/8")});
    }) &&
        machine.start();
}

bool federationReady(Machine &machine)
{
    const QJsonObject status = machine.status();
    return status.value(u"enabled").toBool() && status.contains(u"psk_source");
}

bool portOpen(quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    return socket.waitForConnected(TestSupport::scaled(2000));
}

// GET /health on a federation port from 127.0.0.1, accepting any certificate: what it answers
// (200 past the subnet filter, which comes first, docs/spec/peers-api.md §4.1; 403 with its message
// when refused) and the certificate it presented.
struct HealthLook
{
    HttpResult answer;
    QString pin; // "" when no TLS answer
    QSslCertificate certificate;
};

HealthLook lookAtHealth(quint16 port)
{
    Federation::PinnedTlsClient client;
    Federation::TlsRequest request;
    request.host = QStringLiteral("127.0.0.1");
    request.port = port;
    request.path = "/health";
    request.method = "GET";
    HealthLook look;
    request.acceptPin = [&](const QString &pin, const QSslCertificate &certificate) {
        look.pin = pin;
        look.certificate = certificate;
        return true;
    };
    request.timeoutMs = TestSupport::scaled(5000);
    bool done = false;
    client.send(request, [&](const Federation::TlsRequestResult &result) {
        look.answer = result ? HttpResult {result->status, result->body}
                             : HttpResult {result.error().httpStatus, result.error().body};
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, TestSupport::scaled(10000)))
        return HealthLook();
    return look;
}

QString presentedPin(quint16 port)
{
    return lookAtHealth(port).pin;
}

HttpResult healthFromLoopback(quint16 port)
{
    return lookAtHealth(port).answer;
}

bool linkedTo(Machine &machine, quint16 port)
{
    const QJsonArray remotes = machine.status().value(u"remotes").toArray();
    for (const QJsonValue &remote : remotes) {
        const QJsonObject object = remote.toObject();
        if (object.value(u"port").toInt() == port && object.value(u"state").toString() == u"connected")
            return true;
    }
    return false;
}

bool listsRemote(Machine &machine, quint16 port)
{
    const QJsonArray remotes = machine.status().value(u"remotes").toArray();
    return std::any_of(remotes.begin(), remotes.end(), [&](const QJsonValue &remote) {
        return remote.toObject().value(u"port").toInt() == port;
    });
}

} // namespace

class tst_FederationReload : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sighupEnablesAndDisablesTheFederationPort()
    {
        Machine beta;
        QVERIFY(startMachine(beta, QStringLiteral("beta"), false));
        QCOMPARE(beta.status().value(u"enabled").toBool(), false);
        QVERIFY(!portOpen(beta.federationPort));

        QVERIFY(beta.editConfig([](Broker::ConfigFile &config) { config.setFederationEnabled(true); }));
        beta.sighup();
        QTRY_VERIFY_WITH_TIMEOUT(federationReady(beta), TestSupport::scaled(15000));
        QVERIFY(portOpen(beta.federationPort));
        QVERIFY(presentedPin(beta.federationPort).startsWith(QStringLiteral("sha256-")));

        // Another port: the federation side moves there.
        const quint16 oldPort = beta.federationPort;
        beta.federationPort = TestSupport::freePort();
        QVERIFY(beta.editConfig(
            [&](Broker::ConfigFile &config) { config.setFederationPort(beta.federationPort); }));
        beta.sighup();
        QTRY_VERIFY_WITH_TIMEOUT(portOpen(beta.federationPort) && !portOpen(oldPort),
                                 TestSupport::scaled(10000));
        QTRY_COMPARE_WITH_TIMEOUT(beta.status().value(u"port").toInt(), int(beta.federationPort),
                                  TestSupport::scaled(10000));

        // POST /reload does the same as SIGHUP.
        QVERIFY(beta.editConfig([](Broker::ConfigFile &config) { config.setFederationEnabled(false); }));
        QVERIFY(beta.post(QStringLiteral("/reload")).object().value(u"ok").toBool());
        QTRY_VERIFY_WITH_TIMEOUT(!portOpen(beta.federationPort), TestSupport::scaled(10000));
        QCOMPARE(beta.status().value(u"enabled").toBool(), false);
    }

    void sighupAppliesSubnetsRemotesAndCertificates()
    {
        Machine alpha;
        Machine beta;
        QVERIFY(startMachine(alpha, QStringLiteral("alpha"), true));
        QVERIFY(startMachine(beta, QStringLiteral("beta"), true));
        QTRY_VERIFY_WITH_TIMEOUT(federationReady(alpha) && federationReady(beta), TestSupport::scaled(15000));

        // Subnets: loopback is allowed, then not (403), then again.
        QCOMPARE(healthFromLoopback(beta.federationPort).status, 200);
        QVERIFY(beta.editConfig(
            [](Broker::ConfigFile &config) { config.setFederationSubnets({QStringLiteral("10.0.0.0/8")}); }));
        beta.sighup();
        QTRY_COMPARE_WITH_TIMEOUT(beta.status().value(u"subnet").toString(), QStringLiteral("10.0.0.0/8"),
                                  TestSupport::scaled(10000));
        const HttpResult refused = healthFromLoopback(beta.federationPort);
        QCOMPARE(refused.status, 403);
        QVERIFY2(refused.body.contains("subnet"), refused.body.constData());
        QVERIFY(beta.editConfig([](Broker::ConfigFile &config) {
            config.setFederationSubnets({QStringLiteral("127.0.0.0/8")});
        }));
        beta.sighup();
        QTRY_COMPARE_WITH_TIMEOUT(healthFromLoopback(beta.federationPort).status, 200,
                                  TestSupport::scaled(10000));

        // Remotes: added to alpha's config → connected; removed → disconnected.
        QVERIFY(!listsRemote(alpha, beta.federationPort));
        QVERIFY(alpha.editConfig([&](Broker::ConfigFile &config) {
            config.upsertRemote({QStringLiteral("127.0.0.1"), beta.federationPort, QString()});
        }));
        alpha.sighup();
        QTRY_VERIFY_WITH_TIMEOUT(linkedTo(alpha, beta.federationPort), TestSupport::scaled(15000));
        QVERIFY(alpha.editConfig([&](Broker::ConfigFile &config) {
            config.removeRemote(QStringLiteral("127.0.0.1"), beta.federationPort);
        }));
        alpha.sighup();
        QTRY_VERIFY_WITH_TIMEOUT(!listsRemote(alpha, beta.federationPort), TestSupport::scaled(10000));

        // Certificates: new files (a new key) are served from the next handshake on.
        const QString oldPin = presentedPin(beta.federationPort);
        QVERIFY(oldPin.startsWith(QStringLiteral("sha256-")));
        QCOMPARE(beta.status().value(u"fingerprint").toString(), oldPin);
        const auto files =
            Federation::CertificateFiles::fromEnvironment(QProcessEnvironment(), beta.home.path());
        auto replaced = Federation::generateIdentity(files, QStringLiteral("beta"));
        QVERIFY2(replaced.has_value(), replaced ? "" : qPrintable(replaced.error().message));
        QVERIFY(replaced->pin != oldPin);
        QCOMPARE(presentedPin(beta.federationPort), oldPin); // nothing changes before the signal
        beta.sighup();
        QTRY_COMPARE_WITH_TIMEOUT(presentedPin(beta.federationPort), replaced->pin,
                                  TestSupport::scaled(10000));
        QCOMPARE(beta.status().value(u"fingerprint").toString(), replaced->pin);
    }

    void renewalJobRenewsAShortLivedCertificateWhileRunning()
    {
        BrokerHarness broker({}, true);
        const auto files =
            Federation::CertificateFiles::fromEnvironment(broker.home().environment(), broker.home().path());
        Federation::GenerateOptions shortLived;
        shortLived.validityDays = 40; // renewal is due 30 days before expiry
        auto original = Federation::generateIdentity(files, QStringLiteral("gamma"), shortLived);
        QVERIFY(original.has_value());

        Federation::FederationSettings settings;
        settings.enabled = true;
        settings.port = 0;
        settings.hostname = QStringLiteral("gamma");
        settings.home = broker.home().path();
        settings.configPath = broker.home().configPath();
        settings.tokenPath = broker.home().tokenPath();
        settings.subnets = {QStringLiteral("127.0.0.0/8")};
        settings.mdnsEnabled = false;
        Federation::FederationModule::Parts parts;
        parts.listenAddress = QHostAddress::LocalHost;
        parts.environment = broker.home().environment();
        auto module = std::make_shared<Federation::FederationModule>(settings, std::move(parts));
        broker.server().addModule(module);
        broker.server().setFederationLink(module);
        QVERIFY(broker.start());
        const quint16 port = module->listeningPort();
        QVERIFY(port);
        QCOMPARE(module->ownPin(), original->pin);
        const auto servedExpiry = [&] { return lookAtHealth(port).certificate.expiryDate(); };
        QCOMPARE(servedExpiry(), original->expiresAt());

        // Nine days on (31 left): the job runs and leaves it alone.
        broker.clock().advance(9LL * 24 * 3600 * 1000);
        broker.server().runDueJobs();
        QCOMPARE(servedExpiry(), original->expiresAt());
        // Two more days (29 left): renewed by the job, same key, served at once.
        broker.clock().advance(2LL * 24 * 3600 * 1000);
        broker.server().runDueJobs();
        const QDateTime renewedExpiry = servedExpiry();
        QVERIFY2(renewedExpiry > original->expiresAt().addDays(30),
                 qPrintable(renewedExpiry.toString(Qt::ISODate)));
        QCOMPARE(module->ownPin(), original->pin);
        QCOMPARE(presentedPin(port), original->pin);
        auto onDisk = Federation::loadIdentity(files);
        QVERIFY(onDisk.has_value());
        QCOMPARE(onDisk->expiresAt(), renewedExpiry);
    }
};

QTEST_GUILESS_MAIN(tst_FederationReload)
#include "tst_federationreload.moc"
