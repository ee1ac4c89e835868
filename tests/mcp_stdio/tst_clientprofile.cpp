// ClientProfile: what the helper concludes about its client's channel support from
// initialize and from what it sees of the process that started it (issue 7 §2.2, §2.4).
#include "mcp_stdio/clientprofile.h"

#include <QTest>

using namespace Mcp;
using Channel = ClientProfile::Channel;

Q_DECLARE_METATYPE(Mcp::ClientProfile::Host)

namespace {

QJsonObject initialize(const QString &name, const QJsonObject &capabilities = {})
{
    return QJsonObject {
        {QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
        {QStringLiteral("capabilities"), capabilities},
        {QStringLiteral("clientInfo"),
         QJsonObject {{QStringLiteral("name"), name}, {QStringLiteral("version"), QStringLiteral("1")}}}};
}

// Claude Code 2.1.197's own initialize (the same with channels on or off).
QJsonObject claudeCode()
{
    return initialize(QStringLiteral("claude-code"),
                      QJsonObject {{QStringLiteral("roots"), QJsonObject()},
                                   {QStringLiteral("elicitation"), QJsonObject()}});
}

ClientProfile::Host host(const QStringList &parentArgs,
                         std::initializer_list<QPair<QString, QString>> env = {}, bool harbor = true)
{
    ClientProfile::Host h;
    h.parentArguments = parentArgs;
    for (const auto &[k, v] : env)
        h.environment.insert(k, v);
    if (harbor)
        h.claudeJson = QJsonObject {{QStringLiteral("cachedGrowthBookFeatures"),
                                     QJsonObject {{QStringLiteral("tengu_harbor"), true}}}};
    return h;
}

const QStringList withChannels {QStringLiteral("claude"),
                                QStringLiteral("--dangerously-load-development-channels"),
                                QStringLiteral("server:claude-peers")};

} // namespace

class tst_ClientProfile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decidesFromInitializeAndHost_data()
    {
        QTest::addColumn<QJsonObject>("params");
        QTest::addColumn<ClientProfile::Host>("host");
        QTest::addColumn<int>("expected");
        const QJsonObject declares {{QStringLiteral("experimental"),
                                     QJsonObject {{QStringLiteral("claude/channel"), QJsonObject()}}}};
        QTest::newRow("declares claude/channel")
            << initialize(QStringLiteral("any"), declares) << host({}) << int(Channel::Shown);
        QTest::newRow("opencode") << initialize(QStringLiteral("opencode")) << host({})
                                  << int(Channel::Ignored);
        QTest::newRow("other client")
            << initialize(QStringLiteral("inspector")) << host({}) << int(Channel::Unknown);
        QTest::newRow("claude code, no flag")
            << claudeCode() << host({QStringLiteral("claude")}) << int(Channel::Ignored);
        QTest::newRow("claude code, command line unreadable")
            << claudeCode() << host({}) << int(Channel::Unknown);
        QTest::newRow("claude code, channels on")
            << claudeCode() << host(withChannels) << int(Channel::Shown);
        QTest::newRow("flag=value, list")
            << claudeCode()
            << host({QStringLiteral("node"), QStringLiteral("cli.js"),
                     QStringLiteral("--dangerously-load-development-channels=server:x,server:claude-peers"),
                     QStringLiteral("--debug")})
            << int(Channel::Shown);
        QTest::newRow("flag names another server")
            << claudeCode()
            << host({QStringLiteral("claude"), QStringLiteral("--dangerously-load-development-channels"),
                     QStringLiteral("server:peers")})
            << int(Channel::Unknown);
        QTest::newRow("flag names our configured name")
            << claudeCode()
            << host({QStringLiteral("claude"), QStringLiteral("--dangerously-load-development-channels"),
                     QStringLiteral("server:peers")},
                    {{QStringLiteral("CLAUDE_PEERS_SERVER_NAME"), QStringLiteral("peers")}})
            << int(Channel::Shown);
        QTest::newRow("DISABLE_TELEMETRY")
            << claudeCode()
            << host(withChannels, {{QStringLiteral("DISABLE_TELEMETRY"), QStringLiteral("1")}})
            << int(Channel::Ignored);
        QTest::newRow("DO_NOT_TRACK")
            << claudeCode() << host(withChannels, {{QStringLiteral("DO_NOT_TRACK"), QStringLiteral("1")}})
            << int(Channel::Ignored);
        QTest::newRow("Bedrock") << claudeCode()
                                 << host(withChannels,
                                         {{QStringLiteral("CLAUDE_CODE_USE_BEDROCK"), QStringLiteral("1")}})
                                 << int(Channel::Ignored);
        QTest::newRow("feature flag not cached")
            << claudeCode() << host(withChannels, {}, false) << int(Channel::Unknown);
        ClientProfile::Host managed = host(withChannels);
        managed.hasManagedSettings = true;
        QTest::newRow("managed policy without channelsEnabled")
            << claudeCode() << managed << int(Channel::Unknown);
        managed.managedSettings.insert(QStringLiteral("channelsEnabled"), true);
        QTest::newRow("managed policy with channelsEnabled")
            << claudeCode() << managed << int(Channel::Shown);
        QTest::newRow("override on") << initialize(QStringLiteral("x"))
                                     << host(
                                            {},
                                            {{QStringLiteral("CLAUDE_PEERS_CHANNELS"), QStringLiteral("on")}})
                                     << int(Channel::Shown);
        QTest::newRow("override off")
            << claudeCode()
            << host(withChannels, {{QStringLiteral("CLAUDE_PEERS_CHANNELS"), QStringLiteral("off")}})
            << int(Channel::Ignored);
    }
    void decidesFromInitializeAndHost()
    {
        QFETCH(QJsonObject, params);
        QFETCH(ClientProfile::Host, host);
        QFETCH(int, expected);
        const ClientProfile p = ClientProfile::fromInitialize(params, host);
        QCOMPARE(int(p.channel), expected);
        QVERIFY(!p.channelReason.isEmpty());
    }

    void channelPushStates()
    {
        ClientProfile p;
        p.channel = Channel::Shown;
        QCOMPARE(p.channelPushState(false, false), QStringLiteral("unknown"));
        QCOMPARE(p.channelPushState(true, false), QStringLiteral("working"));
        QCOMPARE(p.channelPushState(false, true), QStringLiteral("unverified"));
        p.channel = Channel::Unknown;
        QCOMPARE(p.channelPushState(true, false), QStringLiteral("unknown"));
        p.channel = Channel::Ignored;
        QCOMPARE(p.channelPushState(false, false), QStringLiteral("unverified"));
        QCOMPARE(p.bannerGraceMs(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_ClientProfile)
#include "tst_clientprofile.moc"
