// DNS-SD discovery with the real avahi-daemon (issue #9 §2): three claude-peers-broker processes,
// each in its own network namespace on the mesh's bridge, each with its own avahi-daemon and its
// own private D-Bus system bus (avahi's client library, which the broker's dns_sd.h calls, talks
// D-Bus; DBUS_SYSTEM_BUS_ADDRESS points both at it). avahi-daemon runs with --no-drop-root
// --no-chroot, its config in a temp dir and a private /run (its pid and socket files) in its own
// mount namespace. alpha has beta's fingerprint pinned (under another address): it connects to
// beta by itself; gamma is not pinned: listed as discovered, never connected. Skips with its
// reason where namespaces or avahi are unavailable.
#include "tests/federation/mesh/meshnetwork.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>

#include "common/config.h"

using namespace Qt::StringLiterals;

namespace {

constexpr quint16 kLocalPort = 17899;
constexpr quint16 kFederationPort = 17900;

bool writeFile(const QString &path, const QByteArray &contents)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size();
}

// One host's mDNS: a private system bus and an avahi-daemon using it, inside namespace ns.
class Mdns
{
public:
    bool start(const QString &ns, const QString &hostname, QString *error)
    {
        if (!m_dir.isValid()) {
            *error = u"no temporary directory"_s;
            return false;
        }
        const QString bus = m_dir.filePath(u"system_bus_socket"_s);
        m_address = u"unix:path="_s + bus;
        const QByteArray busConfig =
            "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" "
            "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
            "<busconfig><type>system</type><listen>unix:path=" +
            bus.toUtf8() +
            "</listen><auth>EXTERNAL</auth>"
            "<policy context=\"default\"><allow user=\"*\"/><allow own=\"*\"/>"
            "<allow send_destination=\"*\" eavesdrop=\"true\"/><allow eavesdrop=\"true\"/></policy>"
            "</busconfig>\n";
        const QByteArray avahiConfig = "[server]\nhost-name=" + hostname.toUtf8() +
            "\nuse-ipv4=yes\nuse-ipv6=no\nallow-interfaces=eth0\nenable-dbus=yes\n"
            "ratelimit-interval-usec=1000000\nratelimit-burst=1000\n"
            "[wide-area]\nenable-wide-area=no\n"
            "[publish]\npublish-hinfo=no\npublish-workstation=no\n";
        const QString busConfigPath = m_dir.filePath(u"bus.conf"_s);
        const QString avahiConfigPath = m_dir.filePath(u"avahi-daemon.conf"_s);
        if (!writeFile(busConfigPath, busConfig) || !writeFile(avahiConfigPath, avahiConfig)) {
            *error = u"cannot write the bus or avahi config"_s;
            return false;
        }
        QProcessEnvironment env;
        env.insert(u"PATH"_s, qEnvironmentVariable("PATH"));
        if (!m_bus.start(
                Mesh::inNamespace(ns, {}, u"dbus-daemon"_s,
                                  {u"--config-file="_s + busConfigPath, u"--nofork"_s, u"--nopidfile"_s}),
                env, error))
            return false;
        QDeadlineTimer deadline(TestSupport::scaled(10000));
        while (!QFile::exists(bus) && !deadline.hasExpired() && m_bus.running())
            QTest::qWait(50); // waiting for the socket to appear, not proving anything
        if (!QFile::exists(bus)) {
            *error = u"dbus-daemon did not create its socket: "_s + QString::fromUtf8(m_bus.stderrOutput());
            return false;
        }
        env.insert(u"DBUS_SYSTEM_BUS_ADDRESS"_s, m_address);
        // A private /run in its own mount namespace: avahi's pid file and socket are fixed paths.
        const QString script = u"mount -t tmpfs tmpfs /run && mkdir -p /run/avahi-daemon && "
                               "exec avahi-daemon --no-drop-root --no-chroot --no-rlimits -f \"$1\""_s;
        if (!m_avahi.start(Mesh::inNamespace(ns, {}, u"unshare"_s,
                                             {u"--mount"_s, u"--propagation"_s, u"private"_s, u"--"_s,
                                              u"sh"_s, u"-c"_s, script, u"sh"_s, avahiConfigPath}),
                           env, error))
            return false;
        deadline.setRemainingTime(TestSupport::scaled(15000));
        while (!deadline.hasExpired() && m_avahi.running()) {
            if (m_log += m_avahi.stderrOutput(); m_log.contains("Server startup complete"))
                return true;
            QTest::qWait(50); // waiting for its startup line
        }
        *error = u"avahi-daemon did not start: "_s + QString::fromUtf8(m_log + m_avahi.stderrOutput());
        return false;
    }

    QString busAddress() const { return m_address; }

private:
    QTemporaryDir m_dir;
    QString m_address;
    Mesh::Process m_bus;
    Mesh::Process m_avahi;
    QByteArray m_log;
};

QString missingTool()
{
    for (const QString &tool : {u"avahi-daemon"_s, u"dbus-daemon"_s, u"curl"_s})
        if (QStandardPaths::findExecutable(tool).isEmpty() &&
            QStandardPaths::findExecutable(tool, {u"/usr/sbin"_s, u"/sbin"_s}).isEmpty())
            return tool;
    return {};
}

QJsonObject remoteAt(const QJsonObject &status, const QString &host)
{
    for (const QJsonValue &remote : status.value(u"remotes"_s).toArray())
        if (remote.toObject().value(u"host"_s).toString() == host)
            return remote.toObject();
    return {};
}

bool lists(const QJsonObject &status, const QString &hostname)
{
    const QJsonArray discovered = status.value(u"discovered"_s).toArray();
    return std::any_of(discovered.begin(), discovered.end(), [&](const QJsonValue &host) {
        return host.toObject().value(u"hostname"_s).toString() == hostname;
    });
}

} // namespace

class tst_FederationDnsSd : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // Like the external tests: what the test needs missing is a failure, never a skip.
        if (const QString reason = Mesh::Network::unavailableReason(); !reason.isEmpty())
            QFAIL(qPrintable(reason));
        if (const QString tool = missingTool(); !tool.isEmpty())
            QFAIL(qPrintable(
                u"%1 is not installed (tools/install-deps.sh test installs avahi-daemon and dbus)"_s.arg(
                    tool)));
        Mesh::Network::removeStale();
    }

    void pinnedHostIsConnectedUnpinnedIsOnlyListed()
    {
        Mesh::Network network;
        QString error;
        QVERIFY2(network.setUp(&error), qPrintable(error));
        const QStringList names {u"alpha"_s, u"beta"_s, u"gamma"_s};
        QStringList namespaces;
        for (int i = 0; i < names.size(); ++i) {
            namespaces << network.addHost(names[i], i + 1, &error);
            QVERIFY2(!namespaces.last().isEmpty(), qPrintable(error));
        }
        std::vector<std::unique_ptr<Mdns>> mdns;
        for (int i = 0; i < names.size(); ++i) {
            mdns.push_back(std::make_unique<Mdns>());
            QVERIFY2(mdns.back()->start(namespaces[i], u"dnssd-"_s + names[i], &error), qPrintable(error));
        }
        const QByteArray token = QByteArray::number(QRandomGenerator::system()->generate64(), 16).repeated(4);
        std::vector<std::unique_ptr<Mesh::Broker>> brokers;
        for (int i = 0; i < names.size(); ++i) {
            Mesh::Broker::Options options;
            options.ns = namespaces[i];
            options.hostname = names[i];
            options.address = u"10.77.0.%1"_s.arg(i + 1);
            options.localPort = kLocalPort;
            options.federationPort = kFederationPort;
            options.subnet = u"10.77.0.0/24"_s;
            options.sharedToken = token; // the PSK starts as the token's copy: the same on all three
            options.extraEnvironment.insert(u"DBUS_SYSTEM_BUS_ADDRESS"_s, mdns[i]->busAddress());
            options.extraEnvironment.insert(u"CLAUDE_PEERS_MDNS_ENABLED"_s, u"true"_s);
            brokers.push_back(std::make_unique<Mesh::Broker>(options));
        }
        Mesh::Broker &alpha = *brokers[0];
        Mesh::Broker &beta = *brokers[1];
        Mesh::Broker &gamma = *brokers[2];

        // beta and gamma first: beta's fingerprint exists once it has started.
        QVERIFY2(beta.start(&error), qPrintable(error));
        QVERIFY2(gamma.start(&error), qPrintable(error));
        QString betaPin;
        QTRY_VERIFY_WITH_TIMEOUT(
            !(betaPin = beta.federationStatus().value(u"fingerprint"_s).toString()).isEmpty(),
            TestSupport::scaled(15000));
        // Paired earlier under its name: the pin is found by fingerprint, not by address.
        Broker::ConfigFile config;
        config.setPin(u"beta.example"_s, kFederationPort, betaPin);
        QVERIFY(config.save(alpha.home() + u"/.claude-peers-config.json"_s));
        QVERIFY2(alpha.start(&error), qPrintable(error));
        const QString betaPeer = beta.registerPeer(u"/work/beta"_s, &error);
        QVERIFY2(!betaPeer.isEmpty(), qPrintable(error));

        // Each announces itself through its own avahi-daemon and the others see it.
        QTRY_VERIFY_WITH_TIMEOUT(
            alpha.federationStatus().value(u"mdns"_s).toObject().value(u"active"_s).toBool(),
            TestSupport::scaled(15000));
        QTRY_VERIFY_WITH_TIMEOUT(
            remoteAt(alpha.federationStatus(), u"10.77.0.2"_s).value(u"state"_s).toString() == u"connected"_s,
            TestSupport::scaled(60000));
        QTRY_VERIFY_WITH_TIMEOUT(alpha.lanPeerIds().contains(u"beta:"_s + betaPeer),
                                 TestSupport::scaled(15000));
        QTRY_VERIFY_WITH_TIMEOUT(lists(alpha.federationStatus(), u"gamma"_s), TestSupport::scaled(60000));
        QTRY_VERIFY_WITH_TIMEOUT(lists(beta.federationStatus(), u"gamma"_s) &&
                                     lists(gamma.federationStatus(), u"beta"_s),
                                 TestSupport::scaled(60000));
        const QJsonObject alphaStatus = alpha.federationStatus();
        QVERIFY(!lists(alphaStatus, u"alpha"_s)); // its own announcement is ignored
        QVERIFY(!lists(alphaStatus, u"beta"_s)); // pinned: connected, not waiting for pairing

        // gamma stays unconnected: nothing was sent to it (its status shows no handshake from
        // alpha), also after several more announcements and sync rounds.
        QTest::qWait(TestSupport::scaled(5000));
        QVERIFY(remoteAt(alpha.federationStatus(), u"10.77.0.3"_s).isEmpty());
        QVERIFY(remoteAt(gamma.federationStatus(), u"10.77.0.1"_s).isEmpty());
        QVERIFY(!alpha.lanPeerIds().join(u' ').contains(u"gamma:"_s));
        QVERIFY(Broker::ConfigFile::load(alpha.home() + u"/.claude-peers-config.json"_s)
                    .pins()
                    .value(u"10.77.0.3:%1"_s.arg(kFederationPort))
                    .isEmpty());

        // gamma waits as a pairing request; accepting it pins gamma's key and connects.
        QString requestId;
        for (const QJsonValue &request :
             alpha.post(u"/federation/pending"_s, {}).object().value(u"requests"_s).toArray())
            if (request.toObject().value(u"hostname"_s).toString() == u"gamma"_s &&
                request.toObject().value(u"origin"_s).toString() == u"discovery"_s)
                requestId = request.toObject().value(u"id"_s).toString();
        QVERIFY(!requestId.isEmpty());
        const Mesh::Reply accepted = alpha.post(u"/federation/accept"_s, {{u"id"_s, requestId}});
        QVERIFY2(accepted.object().value(u"ok"_s).toBool(), accepted.body.constData());
        QTRY_VERIFY_WITH_TIMEOUT(
            remoteAt(alpha.federationStatus(), u"10.77.0.3"_s).value(u"state"_s).toString() == u"connected"_s,
            TestSupport::scaled(30000));
    }
};

QTEST_GUILESS_MAIN(tst_FederationDnsSd)
#include "tst_federationdnssd.moc"
