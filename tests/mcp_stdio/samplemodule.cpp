#include "tests/mcp_stdio/samplemodule.h"

#include "mcp_stdio/toolregistry.h"
#include "mcp_stdio/toolschema.h"

#include <QTimer>

namespace SampleModule {

using namespace Mcp;

void addTools(ToolRegistry &registry, Probe &probe)
{
    [[maybe_unused]] const auto echo = registry.add(std::make_unique<EchoTool>());
    [[maybe_unused]] const auto later = registry.add(std::make_unique<LaterTool>(probe));
    Q_ASSERT(echo && later);
}

QString EchoTool::description(ClientKind client) const
{
    return client == ClientKind::ClaudeCode ? QStringLiteral("Echo, worded for Claude Code.")
                                            : QStringLiteral("Echo, worded for any client.");
}

QJsonObject EchoTool::inputSchema() const
{
    return ToolSchema::object(
        {{QStringLiteral("text"), ToolSchema::string(QStringLiteral("The words to echo."))}},
        {QStringLiteral("text")});
}

void EchoTool::call(const QJsonObject &arguments, const ToolContext &context, ToolReply reply)
{
    const QJsonValue text = arguments.value(QLatin1String("text"));
    if (!text.isString()) {
        reply.error(QStringLiteral("Missing required parameter: text (the words to echo back)"));
        return;
    }
    reply.text(text.toString() + QStringLiteral(" (for %1)").arg(context.clientName));
}

QString LaterTool::description(ClientKind) const
{
    return QStringLiteral("Answers later.");
}

QJsonObject LaterTool::inputSchema() const
{
    return ToolSchema::object(
        {{QStringLiteral("text"), ToolSchema::string(QStringLiteral("The answer."))},
         {QStringLiteral("ms"), ToolSchema::number(QStringLiteral("When to answer."))}});
}

void LaterTool::call(const QJsonObject &arguments, const ToolContext &, ToolReply reply)
{
    const QString text = arguments.value(QLatin1String("text")).toString();
    if (!arguments.contains(QLatin1String("ms"))) {
        reply.onCancelled(&m_lifetime, [this] { ++m_probe.cancelled; });
        m_probe.held.append(reply);
        return;
    }
    auto *timer = new QTimer(&m_lifetime);
    timer->setSingleShot(true);
    ++m_probe.timersRunning;
    QObject::connect(timer, &QTimer::timeout, timer, [this, timer, reply, text] {
        --m_probe.timersRunning;
        timer->deleteLater();
        reply.text(text);
    });
    reply.onCancelled(timer, [this, timer] {
        ++m_probe.cancelled;
        --m_probe.timersRunning;
        timer->stop();
        timer->deleteLater(); // with it the reply it holds: nothing is left to answer
    });
    timer->start(arguments.value(QLatin1String("ms")).toInt());
}

} // namespace SampleModule
