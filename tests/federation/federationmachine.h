#pragma once

// A claude-peers-broker process as one "machine" of a federation test: its own HOME, database,
// ports on 127.0.0.1 and federation hostname. Shared by the process-level federation tests,
// which add what each needs on top.
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTest>

#include <functional>
#include <memory>

namespace FederationTest {

struct FederationMachine
{
    QString hostname;
    TestSupport::TestHome home;
    quint16 federationPort = 0;
    std::unique_ptr<TestSupport::BrokerProcess> broker;
    int postTimeoutMs = 10000; // before scaling

    TestSupport::HttpResult post(const QString &path, const QJsonObject &body = {})
    {
        return TestSupport::httpPostJson(home.port(), path, body, home.token(),
                                         TestSupport::scaled(postTimeoutMs));
    }
    QJsonObject status()
    {
        return TestSupport::httpGet(home.port(), QStringLiteral("/federation/status")).object();
    }

    // The PSK file (0600) the broker reads when the keychain has none; picks the federation port.
    bool prepare(const QString &name, const QByteArray &psk)
    {
        hostname = name;
        federationPort = TestSupport::freePort();
        QFile file(home.path() + QStringLiteral("/.claude-peers-federation-psk"));
        if (!file.open(QIODevice::WriteOnly) || file.write(psk + '\n') < 0)
            return false;
        file.close();
        return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }

    // Federation on by environment, on loopback (tests that drive the config file leave it out).
    QProcessEnvironment federationEnvironment() const
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("CLAUDE_PEERS_FEDERATION_ENABLED"), QStringLiteral("true"));
        env.insert(QStringLiteral("CLAUDE_PEERS_FEDERATION_PORT"), QString::number(federationPort));
        env.insert(QStringLiteral("CLAUDE_PEERS_FEDERATION_SUBNET"), QStringLiteral("127.0.0.0/8"));
        return env;
    }

    // Starts the broker under this machine's hostname, with no mDNS announcements from tests.
    bool start(QProcessEnvironment env = {})
    {
        env.insert(QStringLiteral("CLAUDE_PEERS_FEDERATION_HOSTNAME"), hostname);
        env.insert(QStringLiteral("CLAUDE_PEERS_MDNS_ENABLED"), QStringLiteral("false"));
        broker = std::make_unique<TestSupport::BrokerProcess>(home, env);
        return broker->start(TestSupport::scaled(15000));
    }

    // The federation port answers once the module listens; its PSK is read just after.
    bool waitForFederation(const std::function<bool(const QJsonObject &)> &alsoReady = {})
    {
        return QTest::qWaitFor(
            [&] {
                const QJsonObject now = status();
                return now.value(u"enabled").toBool() && now.contains(u"psk_source") &&
                    (!alsoReady || alsoReady(now));
            },
            TestSupport::scaled(15000));
    }
};

} // namespace FederationTest
