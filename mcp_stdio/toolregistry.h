#pragma once

#include "mcp_stdio/clientkind.h"
#include "mcp_stdio/tool.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <expected>
#include <functional>
#include <memory>
#include <vector>

namespace Mcp {

// The helper's tools: what tools/list shows (in the order they were added) and what
// tools/call runs. The built-in peers tools join it like any other module's tool (Tool::add);
// the JSON-RPC dispatcher talks only to it. It owns the calls in flight: each ends in one
// answer, or in a cancellation (the client's notifications/cancelled, or shutdown()) after
// which the tool's answer is dropped.
class ToolRegistry : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(QJsonObject callToolResult)>;
    using ResultFilter = std::function<QJsonObject(QJsonObject callToolResult)>;

    explicit ToolRegistry(QObject *parent = nullptr);
    ~ToolRegistry() override;

    // Appends a tool; refused, with the reason, when its name is not [A-Za-z0-9_-]{1,64} or is
    // taken.
    std::expected<void, QString> add(std::unique_ptr<Tool> tool);

    // The client from initialize: descriptions and answers are worded for it.
    void setClientName(const QString &name);
    ClientKind clientKind() const { return m_context.client; }

    // Every answer passes through it on its way out (the piggyback banner: McpServer).
    void setResultFilter(ResultFilter filter) { m_filter = std::move(filter); }

    QJsonArray toolList() const;
    bool hasTool(const QString &name) const;

    // Runs a tool: done() gets its (filtered) answer once, at once or later, or never when the
    // call is cancelled first. Returns the call's id for cancel(); 0 when it ended at once.
    quint64 call(const QString &name, const QJsonObject &arguments, Done done);
    // The client gave up on the call: its cancellation handlers run, its answer is dropped.
    void cancel(quint64 callId);
    // The helper is shutting down: every call in flight is cancelled, and calls from now on
    // are answered at once with an isError result without running.
    void shutdown();
    int callsInFlight() const { return int(m_calls.size()); }

private:
    friend class ToolReply;

    struct Call
    {
        QString tool;
        Done done;
        std::weak_ptr<ToolReply::State> reply;
    };

    Tool *find(const QString &name) const;
    bool isOpen(quint64 callId) const { return m_calls.contains(callId); }
    void answer(quint64 callId, QJsonObject callToolResult);
    QJsonObject filtered(QJsonObject callToolResult) const;

    std::vector<std::unique_ptr<Tool>> m_tools;
    QHash<quint64, Call> m_calls;
    quint64 m_lastCallId = 0;
    ToolContext m_context;
    ResultFilter m_filter;
    bool m_shuttingDown = false;
};

} // namespace Mcp
