#include "discoverytools.h"

#include "brokerclient.h"
#include "format.h"
#include "peerarguments.h"
#include "session.h"

#include <QDateTime>
#include <QJsonArray>

namespace Mcp {

using namespace PeerArguments;

ListPeersTool::ListPeersTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::listPeers, Needs::Registration, deps)
{
}

void ListPeersTool::run(const QJsonObject &args, const ToolContext &context, const ToolReply &reply)
{
    const QString scope = args.value(QLatin1String("scope")).toString();
    if (!args.value(QLatin1String("scope")).isString() || scope.isEmpty()) {
        reply.error(QStringLiteral("Missing required parameter: scope (machine, directory, repo or lan)"));
        return;
    }
    if (!isScope(scope)) {
        reply.error(QStringLiteral("Error listing peers: ") + scopeError(scope));
        return;
    }
    const QJsonObject body {{QStringLiteral("scope"), scope},
                            {QStringLiteral("cwd"), session().cwd()},
                            {QStringLiteral("git_root"), nullIfEmpty(session().gitRoot())},
                            {QStringLiteral("exclude_id"), session().peerId()}};
    const ClientKind client = context.client;
    broker().post(QStringLiteral("/list-peers"), body, [scope, client, reply](Broker::Result<QJsonValue> r) {
        if (!r) {
            reply.error(QStringLiteral("Error listing peers: ") + r.error().message);
            return;
        }
        auto peers = Broker::peersFromJson(r->toArray());
        if (!peers) {
            reply.error(QStringLiteral("Error listing peers: ") + peers.error().message);
            return;
        }
        reply.text(Format::peerList(scope, *peers, QDateTime::currentDateTimeUtc(), client));
    });
}

SetSummaryTool::SetSummaryTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::setSummary, Needs::Registration, deps)
{
}

void SetSummaryTool::run(const QJsonObject &args, const ToolContext &, const ToolReply &reply)
{
    const QJsonValue summary = args.value(QLatin1String("summary"));
    if (!summary.isString()) {
        reply.error(summary.isUndefined() || summary.isNull()
                        ? QStringLiteral("Missing required parameter: summary")
                        : QStringLiteral("Invalid parameter: summary must be a string"));
        return;
    }
    const QString text = summary.toString();
    broker().post(QStringLiteral("/set-summary"),
                  QJsonObject {{QStringLiteral("id"), session().peerId()}, {QStringLiteral("summary"), text}},
                  [this, reply, text](Broker::Result<QJsonValue> r) {
                      if (!r) {
                          reply.error(QStringLiteral("Error setting summary: ") + r.error().message);
                          return;
                      }
                      session().rememberSummary(text, false);
                      reply.text(QStringLiteral("Summary updated: \"%1\"").arg(text));
                  });
}

SetNameTool::SetNameTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::setName, Needs::Registration, deps)
{
}

void SetNameTool::run(const QJsonObject &args, const ToolContext &, const ToolReply &reply)
{
    const QJsonValue name = args.value(QLatin1String("name"));
    if (!name.isString() || name.toString().trimmed().isEmpty()) {
        reply.error(name.isUndefined() || name.isNull() || name.isString()
                        ? QStringLiteral("Missing required parameter: name")
                        : QStringLiteral("Invalid parameter: name must be a string"));
        return;
    }
    const QString text = name.toString().trimmed();
    broker().post(
        QStringLiteral("/set-name"),
        QJsonObject {{QStringLiteral("id"), session().peerId()}, {QStringLiteral("session_name"), text}},
        [this, reply, text](Broker::Result<QJsonValue> r) {
            if (!r) {
                reply.error(QStringLiteral("Error setting name: ") + r.error().message);
                return;
            }
            session().rememberName(text);
            // The automatic summary carries the name; a summary the model set itself is kept.
            const QString summary = session().regenerateAutoSummary();
            if (!summary.isEmpty()) {
                broker().post(QStringLiteral("/set-summary"),
                              QJsonObject {{QStringLiteral("id"), session().peerId()},
                                           {QStringLiteral("summary"), summary}},
                              [](Broker::Result<QJsonValue>) {});
            }
            reply.text(QStringLiteral("Session name set: \"%1\"").arg(text));
        });
}

} // namespace Mcp
