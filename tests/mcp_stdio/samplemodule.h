#pragma once

#include "mcp_stdio/tool.h"

#include <QList>
#include <QObject>

namespace Mcp {
class ToolRegistry;
}

// A stand-in for another module's tools (the openchamber tool is next): what such a module
// writes to join the helper, through the public interface only (tool.h, toolreply.h,
// toolschema.h, ToolRegistry::add).
//   sample_echo   answers at once: its "text" argument, or an isError result in plain words
//   sample_later  answers its "text" after "ms" milliseconds (a timer it stops when the call
//                 is cancelled); without "ms" it holds the reply for the test to answer
namespace SampleModule {

// What the tools report to the test.
struct Probe
{
    QList<Mcp::ToolReply> held; // sample_later calls without "ms"
    int cancelled = 0; // cancellation handlers run
    int timersRunning = 0;
};

void addTools(Mcp::ToolRegistry &registry, Probe &probe);

class EchoTool final : public Mcp::Tool
{
public:
    QString name() const override { return QStringLiteral("sample_echo"); }
    QString description(Mcp::ClientKind client) const override;
    QJsonObject inputSchema() const override;
    void call(const QJsonObject &arguments, const Mcp::ToolContext &context, Mcp::ToolReply reply) override;
};

class LaterTool final : public Mcp::Tool
{
public:
    explicit LaterTool(Probe &probe) : m_probe(probe) { }
    QString name() const override { return QStringLiteral("sample_later"); }
    QString description(Mcp::ClientKind client) const override;
    QJsonObject inputSchema() const override;
    void call(const QJsonObject &arguments, const Mcp::ToolContext &context, Mcp::ToolReply reply) override;

private:
    Probe &m_probe;
    QObject m_lifetime; // parent of the timers: none outlives the tool
};

} // namespace SampleModule
