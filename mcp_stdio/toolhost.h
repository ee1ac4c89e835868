#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <functional>

namespace Mcp {

// What the JSON-RPC layer needs from the tools: the list and an asynchronous call. The
// ToolRegistry is the implementation; the protocol tests plug in a small fake.
class ToolHost
{
public:
    using Done = std::function<void(QJsonObject callToolResult)>;

    virtual ~ToolHost() = default;
    virtual QJsonArray toolList() const = 0;
    virtual bool hasTool(const QString &name) const = 0;
    // Always ends in exactly one done() call, possibly later; tool faults come back as
    // {content, isError:true}, never as a protocol error.
    virtual void callTool(const QString &name, const QJsonObject &arguments, Done done) = 0;
};

} // namespace Mcp
