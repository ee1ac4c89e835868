#include "mcp_stdio/discoverytools.h"

#include "common/brokerapi.h"
#include "mcp_stdio/format.h"
#include "mcp_stdio/peerarguments.h"
#include "mcp_stdio/session.h"

#include <QDateTime>

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
    const Broker::ListPeersRequest request {scope, session().cwd(), session().gitRoot(), session().peerId()};
    const ClientKind client = context.client;
    broker().call(request, [scope, client, reply](Broker::Result<Broker::ListPeersAnswer> r) {
        if (!r) {
            reply.error(QStringLiteral("Error listing peers: ") + r.error().message);
            return;
        }
        reply.text(Format::peerList(scope, r->peers, QDateTime::currentDateTimeUtc(), client));
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
    broker().call(Broker::SetSummaryRequest {session().peerId(), text},
                  [this, reply, text](Broker::Result<Broker::OkAnswer> r) {
                      if (!r || !r->ok) {
                          reply.error(QStringLiteral("Error setting summary: ") +
                                      (r ? r->error : r.error().message));
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
    broker().call(Broker::SetNameRequest {session().peerId(), text},
                  [this, reply, text](Broker::Result<Broker::OkAnswer> r) {
                      if (!r || !r->ok) {
                          reply.error(QStringLiteral("Error setting name: ") +
                                      (r ? r->error : r.error().message));
                          return;
                      }
                      session().rememberName(text);
                      // The automatic summary carries the name; a summary the model set itself is kept.
                      const QString summary = session().regenerateAutoSummary();
                      if (!summary.isEmpty())
                          broker().call(Broker::SetSummaryRequest {session().peerId(), summary}, [](auto) {});
                      reply.text(QStringLiteral("Session name set: \"%1\"").arg(text));
                  });
}

} // namespace Mcp
