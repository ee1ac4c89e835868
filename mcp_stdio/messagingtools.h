#pragma once

#include "mcp_stdio/peertool.h"

// Sending and reading messages: send_message, broadcast_message, check_messages and
// message_status.
namespace Mcp {

class SendMessageTool final : public PeerTool
{
public:
    explicit SendMessageTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

class BroadcastMessageTool final : public PeerTool
{
public:
    explicit BroadcastMessageTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

class CheckMessagesTool final : public PeerTool
{
public:
    explicit CheckMessagesTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

class MessageStatusTool final : public PeerTool
{
public:
    explicit MessageStatusTool(const PeerToolDeps &deps);

protected:
    void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) override;
};

} // namespace Mcp
