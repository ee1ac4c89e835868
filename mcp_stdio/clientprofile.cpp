#include "mcp_stdio/clientprofile.h"

#include "common/processtty.h"
#include "mcp_stdio/bannerqueue.h"

#include <QFile>
#include <QJsonDocument>

#include <algorithm>

#include <unistd.h>

namespace Mcp {

namespace {

constexpr qint64 MaxSettingsBytes = 32 * 1024 * 1024; // ~/.claude.json grows with history

QJsonObject readJsonObject(const QString &path, bool *exists = nullptr)
{
    QFile f(path);
    if (exists)
        *exists = f.exists();
    if (!f.open(QIODevice::ReadOnly) || f.size() > MaxSettingsBytes)
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Switches that keep Claude Code (2.1.197) from ever enabling channels: the telemetry and
// traffic switches (it then never reads the feature flag) and third-party providers.
constexpr const char *ChannelsOffSwitches[] = {
    "DISABLE_TELEMETRY",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
    "DO_NOT_TRACK",
    "DISABLE_GROWTHBOOK",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_USE_FOUNDRY",
};

// Values of a flag: "--flag a b", "--flag a,b" or "--flag=a", up to the next option.
QStringList flagValues(const QStringList &args, const QString &flag)
{
    QStringList values;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg.startsWith(flag + QLatin1Char('='))) {
            values << arg.mid(flag.size() + 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
            continue;
        }
        if (arg != flag)
            continue;
        for (qsizetype j = i + 1; j < args.size() && !args.at(j).startsWith(QLatin1Char('-')); ++j)
            values << args.at(j).split(QLatin1Char(','), Qt::SkipEmptyParts);
    }
    return values;
}

// Claude Code shows our pushes only when all of this holds (measured with 2.1.197, issue 7
// §2.4): started with the development-channels flag naming this server, the channels feature
// flag cached as on, none of the switches that turn it off, and no managed policy without
// channelsEnabled. Seen from outside the client, so a heuristic: the docs say so, and
// CLAUDE_PEERS_CHANNELS=on|off overrides it.
std::pair<ClientProfile::Channel, QString> claudeCodeChannels(const ClientProfile::Host &host)
{
    using Channel = ClientProfile::Channel;
    const QString serverName =
        host.environment.value(QStringLiteral("CLAUDE_PEERS_SERVER_NAME"), QStringLiteral("claude-peers"));
    if (host.parentArguments.isEmpty()) // no /proc (macOS) or not readable
        return {Channel::Unknown, QStringLiteral("the command line of Claude Code cannot be read here")};
    const QString flag = QStringLiteral("--dangerously-load-development-channels");
    const QStringList listed = flagValues(host.parentArguments, flag);
    const bool flagGiven =
        std::any_of(host.parentArguments.cbegin(), host.parentArguments.cend(), [&flag](const QString &arg) {
            return arg == flag || arg.startsWith(flag + QLatin1Char('='));
        });
    if (!flagGiven)
        return {Channel::Ignored, QStringLiteral("Claude Code was not started with %1").arg(flag)};
    if (!listed.contains(QStringLiteral("server:") + serverName))
        // Perhaps this server is configured under another name: we cannot tell.
        return {Channel::Unknown,
                QStringLiteral("%1 does not name server:%2 (set CLAUDE_PEERS_SERVER_NAME to the name this "
                               "server has in Claude Code)")
                    .arg(flag, serverName)};
    for (const char *name : ChannelsOffSwitches) {
        if (!host.environment.value(QLatin1String(name)).isEmpty())
            return {
                Channel::Ignored,
                QStringLiteral("%1 is set, which turns Claude Code's channels off").arg(QLatin1String(name))};
    }
    if (host.hasManagedSettings && !host.managedSettings.value(QLatin1String("channelsEnabled")).toBool())
        return {Channel::Unknown, QStringLiteral("a managed policy does not set channelsEnabled")};
    const bool featureOn = host.claudeJson.value(QLatin1String("cachedGrowthBookFeatures"))
                               .toObject()
                               .value(QLatin1String("tengu_harbor"))
                               .toBool();
    if (!featureOn)
        return {Channel::Unknown,
                QStringLiteral("Claude Code has not cached its channels feature flag as on")};
    return {Channel::Shown, QStringLiteral("Claude Code was started with channels for this server")};
}

} // namespace

ClientProfile::Host ClientProfile::Host::current(const QString &clientName)
{
    Host h;
    h.environment = QProcessEnvironment::systemEnvironment();
    h.home = h.environment.value(QStringLiteral("HOME"));
    if (clientName != QLatin1String("claude-code"))
        return h;
    // Claude Code starts the helper directly; a wrapper script or two in between are allowed.
    qint64 pid = qint64(::getppid());
    for (int depth = 0; depth < 4 && pid > 1; ++depth) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly)) {
            for (const QByteArray &arg : cmdline.read(256 * 1024).split('\0'))
                h.parentArguments << QString::fromLocal8Bit(arg);
        }
        pid = Broker::ProcessTty::parentOf(pid);
    }
    if (!h.home.isEmpty())
        h.claudeJson = readJsonObject(h.home + QStringLiteral("/.claude.json"));
    h.managedSettings =
        readJsonObject(QStringLiteral("/etc/claude-code/managed-settings.json"), &h.hasManagedSettings);
    return h;
}

ClientProfile ClientProfile::fromInitialize(const QJsonObject &params, const Host &host)
{
    ClientProfile p;
    const QJsonObject info = params.value(QLatin1String("clientInfo")).toObject();
    p.name = info.value(QLatin1String("name")).toString();
    p.version = info.value(QLatin1String("version")).toString();
    const QJsonObject experimental = params.value(QLatin1String("capabilities"))
                                         .toObject()
                                         .value(QLatin1String("experimental"))
                                         .toObject();
    const QString override = host.environment.value(QStringLiteral("CLAUDE_PEERS_CHANNELS")).toLower();
    if (override == QLatin1String("on")) {
        p.channel = Channel::Shown;
        p.channelReason = QStringLiteral("CLAUDE_PEERS_CHANNELS=on");
    } else if (override == QLatin1String("off")) {
        p.channel = Channel::Ignored;
        p.channelReason = QStringLiteral("CLAUDE_PEERS_CHANNELS=off");
    } else if (experimental.contains(QLatin1String("claude/channel"))) {
        p.channel = Channel::Shown;
        p.channelReason = QStringLiteral("the client declares the claude/channel capability");
    } else if (p.name == QLatin1String("claude-code")) {
        std::tie(p.channel, p.channelReason) = claudeCodeChannels(host);
    } else if (p.name.compare(QLatin1String("opencode"), Qt::CaseInsensitive) == 0) {
        p.channel = Channel::Ignored;
        p.channelReason = QStringLiteral("OpenCode does not show channel notifications");
    } else {
        p.channelReason = QStringLiteral("the client does not say whether it shows channel notifications");
    }
    return p;
}

qint64 ClientProfile::bannerGraceMs() const
{
    return channel == Channel::Ignored ? 0 : BannerQueue::DefaultGraceMs;
}

QString ClientProfile::channelPushState(bool pushesStarted, bool writeFailed) const
{
    if (channel == Channel::Ignored || writeFailed)
        return QStringLiteral("unverified");
    if (channel == Channel::Shown && pushesStarted)
        return QStringLiteral("working");
    return QStringLiteral("unknown");
}

} // namespace Mcp
