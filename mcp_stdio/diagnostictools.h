#pragma once

#include "mcp_stdio/peertool.h"

// What the model asks when something seems wrong: channel_health (delivery) and whoami
// (identity). Neither waits for the registration: they report its absence.
namespace Mcp {

class ChannelHealthTool final : public PeerTool
{
public:
    explicit ChannelHealthTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

class WhoamiTool final : public PeerTool
{
public:
    explicit WhoamiTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

} // namespace Mcp
