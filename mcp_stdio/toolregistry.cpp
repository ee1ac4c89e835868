#include "mcp_stdio/toolregistry.h"

#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/toolresult.h"

namespace Mcp {

namespace {

constexpr qsizetype MaxNameLength = 64;

bool isValidName(const QString &name)
{
    if (name.isEmpty() || name.size() > MaxNameLength)
        return false;
    for (const QChar c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') ||
            u == u'_' || u == u'-';
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

ToolRegistry::ToolRegistry(QObject *parent) : QObject(parent) { }

ToolRegistry::~ToolRegistry()
{
    // Replies still held by tools (or dying with them below) must find no open call.
    m_calls.clear();
}

std::expected<void, QString> ToolRegistry::add(std::unique_ptr<Tool> tool)
{
    const QString name = tool ? tool->name() : QString();
    QString refusal;
    if (!isValidName(name))
        refusal = QStringLiteral("Tool name \"%1\" refused: use 1 to 64 of A-Z a-z 0-9 _ -").arg(name);
    else if (find(name))
        refusal =
            QStringLiteral("Tool name \"%1\" refused: a tool of that name is already registered").arg(name);
    if (!refusal.isEmpty()) {
        qCWarning(lcTools).noquote() << refusal;
        return std::unexpected(refusal);
    }
    m_tools.push_back(std::move(tool));
    return {};
}

void ToolRegistry::setClientName(const QString &name)
{
    m_context.clientName = name;
    m_context.client = clientKindFromName(name);
}

Tool *ToolRegistry::find(const QString &name) const
{
    for (const auto &tool : m_tools) {
        if (tool->name() == name)
            return tool.get();
    }
    return nullptr;
}

QJsonArray ToolRegistry::toolList() const
{
    QJsonArray list;
    for (const auto &tool : m_tools) {
        list.append(QJsonObject {{QStringLiteral("name"), tool->name()},
                                 {QStringLiteral("description"), tool->description(m_context.client)},
                                 {QStringLiteral("inputSchema"), tool->inputSchema()}});
    }
    return list;
}

bool ToolRegistry::hasTool(const QString &name) const
{
    return find(name) != nullptr;
}

QJsonObject ToolRegistry::filtered(QJsonObject callToolResult) const
{
    return m_filter ? m_filter(std::move(callToolResult)) : callToolResult;
}

quint64 ToolRegistry::call(const QString &name, const QJsonObject &arguments, Done done)
{
    Tool *tool = find(name);
    if (!tool) { // the dispatcher checks first
        done(filtered(ToolResult::error(QStringLiteral("Unknown tool: ") + name)));
        return 0;
    }
    if (m_shuttingDown) {
        done(ToolResult::error(QStringLiteral("claude-peers is shutting down; %1 was not run.").arg(name)));
        return 0;
    }
    const quint64 id = ++m_lastCallId;
    ToolReply reply = ToolReply::open(this, id, name);
    m_calls.insert(id, Call {name, std::move(done), reply.m_state});
    qCDebug(lcTools) << "call" << id << name;
    tool->call(arguments, m_context, std::move(reply));
    return m_calls.contains(id) ? id : 0;
}

void ToolRegistry::answer(quint64 callId, QJsonObject callToolResult)
{
    const auto it = m_calls.find(callId);
    if (it == m_calls.end())
        return; // cancelled meanwhile
    const Done done = std::move(it->done);
    m_calls.erase(it);
    qCDebug(lcTools) << "answer" << callId;
    done(filtered(std::move(callToolResult)));
}

void ToolRegistry::cancel(quint64 callId)
{
    const auto it = m_calls.find(callId);
    if (it == m_calls.end())
        return;
    const std::shared_ptr<ToolReply::State> reply = it->reply.lock();
    qCInfo(lcTools).noquote() << "call" << callId << "of" << it->tool << "cancelled";
    m_calls.erase(it);
    if (reply)
        ToolReply::cancel(reply);
}

void ToolRegistry::shutdown()
{
    m_shuttingDown = true;
    const QList<quint64> open = m_calls.keys();
    for (const quint64 id : open)
        cancel(id);
}

} // namespace Mcp
