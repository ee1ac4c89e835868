#pragma once

#include "mcp_stdio/peertool.h"

// How peers find each other: list_peers, and the name and summary this session shows them.
namespace Mcp {

class ListPeersTool final : public PeerTool
{
public:
    explicit ListPeersTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

class SetSummaryTool final : public PeerTool
{
public:
    explicit SetSummaryTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

class SetNameTool final : public PeerTool
{
public:
    explicit SetNameTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

} // namespace Mcp
