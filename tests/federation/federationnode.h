#pragma once

// A broker with the federation module in-process (temp HOME, loopback, real SQLite), shared by
// the module's integration tests.
#include "federation/federationmodule.h"
#include "federation/linktransport.h"
#include "tests/broker/brokerharness.h"

#include <QFile>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

namespace FederationTest {

inline const QByteArray kSharedPsk =
    QByteArrayLiteral("5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed");

struct Node
{
    std::unique_ptr<BrokerHarness> broker;
    std::shared_ptr<Federation::FederationModule> module;

    Federation::FederationModule &federation() { return *module; }
    quint16 fedPort() const { return module->listeningPort(); }
};

inline Federation::FederationSettings settingsFor(BrokerHarness &broker, const QString &hostname)
{
    Federation::FederationSettings settings;
    settings.enabled = true;
    settings.port = 0; // the OS picks
    settings.hostname = hostname;
    settings.home = broker.home().path();
    settings.configPath = broker.home().configPath();
    settings.tokenPath = broker.home().tokenPath();
    settings.subnets = {QStringLiteral("127.0.0.0/8")};
    return settings;
}

struct NodeOptions
{
    std::function<void(Federation::FederationSettings &)> tweak;
    QByteArray psk = kSharedPsk; // empty: none yet (migrated from the token)
    bool tls = false;
    bool manualClock = false;
};

inline Node makeNode(const QString &hostname, const NodeOptions &options)
{
    Node node;
    node.broker =
        std::make_unique<BrokerHarness>(std::function<void(Broker::Settings &)> {}, options.manualClock);
    Federation::FederationSettings settings = settingsFor(*node.broker, hostname);
    if (options.tweak)
        options.tweak(settings);
    if (!options.psk.isEmpty()) {
        QFile file(settings.home + QStringLiteral("/.claude-peers-federation-psk"));
        if (file.open(QIODevice::WriteOnly))
            file.write(options.psk + '\n');
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }
    Federation::FederationModule::Parts parts;
    parts.listenAddress = QHostAddress::LocalHost;
    parts.plainHttp = !options.tls;
    parts.environment = node.broker->home().environment(); // certificates in the test's HOME
    node.module = std::make_shared<Federation::FederationModule>(settings, std::move(parts));
    node.broker->server().addModule(node.module);
    node.broker->server().setFederationLink(node.module);
    return node;
}

inline Node makeNode(const QString &hostname,
                     const std::function<void(Federation::FederationSettings &)> &tweak = {},
                     const QByteArray &psk = kSharedPsk, bool tls = false, bool manualClock = false)
{
    return makeNode(hostname, NodeOptions {tweak, psk, tls, manualClock});
}

// Starts the node's broker and waits until its module is ready (the PSK read, saved remotes being
// reached).
inline bool startNode(Node &node)
{
    QSignalSpy ready(node.module.get(), &Federation::FederationModule::ready);
    return node.broker->start() && (ready.count() || ready.wait(TestSupport::scaled(15000)));
}

// The body of /federation/connect|disconnect|revoke for a node's federation port on loopback.
inline QJsonObject loopbackTarget(quint16 port)
{
    return {{QStringLiteral("host"), QStringLiteral("127.0.0.1")}, {QStringLiteral("port"), port}};
}

// One request to a federation port through the module's own outbound transport (plain HTTP).
inline Federation::LinkReply fedPostWith(quint16 port, const QByteArray &path, const QByteArray &body,
                                         const Federation::LinkCredential &credential)
{
    Federation::PlainHttpTransport transport(TestSupport::scaled(5000));
    std::optional<Federation::LinkReply> answer;
    transport.post({QStringLiteral("127.0.0.1"), port}, path, body, credential,
                   [&](Federation::LinkReply r) { answer = r; });
    if (!QTest::qWaitFor([&] { return answer.has_value(); }, TestSupport::scaled(10000)))
        return {};
    return *answer;
}

// The same with 0.7's PSK header (none when psk is empty).
inline Federation::LinkReply fedPost(quint16 port, const QByteArray &path, const QByteArray &body,
                                     const QByteArray &psk)
{
    return fedPostWith(port, path, body, Federation::LinkCredential(psk));
}

} // namespace FederationTest
