#pragma once

#include "mcp_stdio/clientkind.h"

#include <QJsonObject>
#include <QList>
#include <QString>

// Names, descriptions and input schemas of the built-in tools (docs/spec/peers-api.md §7.2, plus whoami).
// Kept apart from the handlers: this is what the model reads in tools/list, worded for the
// client (Claude Code: the reference's words; others: no client named, no /rename). Names and
// schemas are the 0.7 contract and do not change.
namespace Mcp::ToolDefinitions {

struct Definition
{
    const char *name;
    QString (*description)(ClientKind client);
    QJsonObject (*inputSchema)();
};

extern const Definition listPeers;
extern const Definition sendMessage;
extern const Definition setSummary;
extern const Definition setName;
extern const Definition checkMessages;
extern const Definition broadcastMessage;
extern const Definition messageStatus;
extern const Definition channelHealth;
extern const Definition whoami;

// All nine in tools/list order: the reference's eight, then whoami.
const QList<const Definition *> &all();

} // namespace Mcp::ToolDefinitions
