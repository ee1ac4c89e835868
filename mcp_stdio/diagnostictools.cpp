#include "mcp_stdio/diagnostictools.h"

#include "common/brokerapi.h"
#include "mcp_stdio/clientprofile.h"
#include "mcp_stdio/delivery.h"
#include "mcp_stdio/serverinfo.h"
#include "mcp_stdio/session.h"

#include <QStringList>

#include <unistd.h>

namespace Mcp {

namespace {

constexpr int HealthTimeoutMs = 2000; // docs/spec/peers-api.md §7.2.8

// "Channel push: …" as whoami and channel_health say it; explain: say so when the client does
// not show pushes (channel_health gives its own "Why:" line instead).
QString channelPushLine(const Session &session, const Delivery &delivery, bool explain)
{
    QString line = QStringLiteral("Channel push: ") +
        (session.channelPush().isEmpty() ? QStringLiteral("unknown") : session.channelPush());
    if (explain && delivery.clientProfile().channel == ClientProfile::Channel::Ignored)
        line +=
            QStringLiteral("\n  (not used by this client: messages reach you at the top of tool results and "
                           "through check_messages)");
    return line;
}

} // namespace

ChannelHealthTool::ChannelHealthTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::channelHealth, Needs::Nothing, deps)
{
}

void ChannelHealthTool::run(const QJsonObject &, const ToolContext &, const ToolReply &reply)
{
    broker().health(
        [this, reply](Broker::Result<Broker::HealthAnswer> r) {
            QStringList lines {QStringLiteral("Channel Health Report"), QString(21, QLatin1Char('=')),
                               QString()};
            if (r) {
                lines << QStringLiteral("Broker: %1 (%2 peers)").arg(r->status, QString::number(r->peers));
                if (const qint64 uptime = r->uptimeMs.value_or(0) / 1000; uptime > 0)
                    lines << QStringLiteral("  Uptime: %1s").arg(uptime);
                lines << QStringLiteral("  Requests/min: %1").arg(r->requestsLastMinute.value_or(0));
                lines << QStringLiteral("  Pending in broker: %1").arg(r->pendingMessages.value_or(0));
            } else if (r.error().httpStatus > 0) {
                lines << QStringLiteral("Broker: error (HTTP %1)").arg(r.error().httpStatus);
            } else if (r.error().kind == Broker::ErrorKind::BadJson) {
                lines << QStringLiteral("Broker: error (%1)").arg(r.error().message);
            } else {
                lines << QStringLiteral("Broker: unreachable");
            }
            lines << QString();
            lines << QStringLiteral("Pushed message IDs tracked (dedup): %1").arg(delivery().dedupSize());
            lines << QStringLiteral("Piggyback queue: %1 message(s) awaiting tool call delivery")
                         .arg(delivery().bannerSize());
            if (delivery().bannerSize() > 0)
                lines
                    << QStringLiteral("  Oldest queued: %1s ago").arg(delivery().oldestQueuedAgeMs() / 1000);
            lines << QStringLiteral("Push stream: ") + delivery().streamState();
            lines << channelPushLine(session(), delivery(), false);
            if (const QString why = delivery().clientProfile().channelReason; !why.isEmpty())
                lines << QStringLiteral("  Why: ") + why;
            lines << QStringLiteral("Registered as: ") +
                    (session().isRegistered() ? session().peerId() : QStringLiteral("(not registered)"));
            reply.text(lines.join(QLatin1Char('\n')));
        },
        HealthTimeoutMs);
}

WhoamiTool::WhoamiTool(const PeerToolDeps &deps) : PeerTool(ToolDefinitions::whoami, Needs::Nothing, deps) { }

void WhoamiTool::run(const QJsonObject &, const ToolContext &context, const ToolReply &reply)
{
    const Session &s = session();
    QStringList lines;
    if (s.isRegistered()) {
        lines << QStringLiteral("ID: ") + s.peerId() +
                (s.idNote().isEmpty() ? QString() : QStringLiteral(" (%1)").arg(s.idNote()));
    } else {
        lines << QStringLiteral("ID: (not registered yet%1)")
                     .arg(s.lastError().isEmpty() ? QString() : QStringLiteral(": ") + s.lastError());
    }
    lines << QStringLiteral("Name: ") +
            (s.sessionName().isEmpty() ? QStringLiteral("(unnamed)") : s.sessionName());
    lines << QStringLiteral("CWD: ") + s.cwd();
    lines << QStringLiteral("Git root: ") +
            (s.gitRoot().isEmpty() ? QStringLiteral("(not a git repository)") : s.gitRoot());
    lines << QStringLiteral("TTY: ") + (s.tty().isEmpty() ? QStringLiteral("(none)") : s.tty());
    lines << QStringLiteral("Summary: ") + s.summary();
    lines << QStringLiteral("Broker: ") + broker().client().location().baseUrl().toString();
    lines << QStringLiteral("Push stream: ") + delivery().streamState();
    lines << channelPushLine(s, delivery(), true);
    lines << QStringLiteral("Client: ") +
            (context.clientName.isEmpty() ? QStringLiteral("(not said)")
                                          : QStringLiteral("%1 (%2)").arg(
                                                Broker::clientLabel(context.clientName), context.clientName));
    lines << QStringLiteral("Helper: claude-peers-mcp %1, pid %2")
                 .arg(ServerInfo::version())
                 .arg(qint64(::getpid()));
    reply.text(lines.join(QLatin1Char('\n')));
}

} // namespace Mcp
