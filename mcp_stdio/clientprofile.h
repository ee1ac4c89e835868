#pragma once

#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace Mcp {

// What the helper can know about its MCP client, and the rules that follow from it
// (docs/mcp-helper.md, "What the model sees"). One place, so the delivery layers, the
// channel_push state and the acknowledgements agree.
struct ClientProfile
{
    // Does the client show notifications/claude/channel to its model?
    enum class Channel {
        Unknown, // cannot tell: push, and repeat in the banner and check_messages
        Shown, // yes: push only; a written push is what the model saw
        Ignored, // no (OpenCode, or channels off): no push; the banner at the next tool result
    };

    // What the helper sees of the process that started it (Claude Code says nothing about
    // channels in initialize; its command line, environment and cached flags do).
    struct Host
    {
        QStringList parentArguments; // the parent's command line (Linux: /proc/<ppid>/cmdline)
        QProcessEnvironment environment;
        QString home;
        QJsonObject claudeJson; // $HOME/.claude.json (what Claude Code caches)
        QJsonObject managedSettings; // /etc/claude-code/managed-settings.json
        bool hasManagedSettings = false;
        // This process's view; the parent chain and Claude Code's files only for claude-code.
        static Host current(const QString &clientName);
    };

    QString name; // clientInfo.name, as sent
    QString version;
    Channel channel = Channel::Unknown;
    QString channelReason; // why, in plain words (logged, shown by channel_health)

    static ClientProfile fromInitialize(const QJsonObject &params, const Host &host);

    // A message written as a channel notification counts as seen by the model.
    bool pushIsSeen() const { return channel == Channel::Shown; }
    bool pushes() const { return channel != Channel::Ignored; }
    // How long a message waits before the banner shows it: the channel block comes first
    // where there may be one.
    qint64 bannerGraceMs() const;

    // channel_push as the broker stores it (0.7's values, docs/spec/peers-api.md §3.10): "working" where the
    // client shows pushes and they started (it answered the ping after tools/list, or one was written),
    // "unverified" where it will not show them or a write failed, "unknown" otherwise. A tool
    // call proves nothing about pushes.
    QString channelPushState(bool pushesStarted, bool writeFailed) const;
};

} // namespace Mcp
