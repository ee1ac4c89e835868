#include "mcp_stdio/clientlog.h"

#include "mcp_stdio/serverinfo.h"

namespace Mcp {

namespace {

constexpr const char *levelNames[] = {"debug", "info",     "notice", "warning",
                                      "error", "critical", "alert",  "emergency"};

} // namespace

ClientLog::ClientLog(QObject *parent) : QObject(parent) { }

std::optional<ClientLog::Level> ClientLog::levelFromName(const QString &name)
{
    for (int i = 0; i < int(std::size(levelNames)); ++i) {
        if (name == QLatin1String(levelNames[i]))
            return Level(i);
    }
    return std::nullopt;
}

QString ClientLog::levelName(Level level)
{
    return QLatin1String(levelNames[int(level)]);
}

QJsonObject ClientLog::notification(Level level, const QString &text)
{
    return QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("method"), QStringLiteral("notifications/message")},
                        {QStringLiteral("params"),
                         QJsonObject {{QStringLiteral("level"), levelName(level)},
                                      {QStringLiteral("logger"), ServerInfo::name()},
                                      {QStringLiteral("data"), text}}}};
}

void ClientLog::setEnabled(bool enabled)
{
    const bool wasEnabled = m_enabled;
    m_enabled = enabled;
    if (enabled && !wasEnabled && !m_trouble.isEmpty())
        send(Level::Error, m_trouble);
}

void ClientLog::reportTrouble(const QString &reason)
{
    if (reason == m_trouble)
        return;
    const bool wasTrouble = !m_trouble.isEmpty();
    m_trouble = reason;
    if (!reason.isEmpty())
        send(Level::Error, reason);
    else if (wasTrouble)
        send(Level::Info, QStringLiteral("claude-peers is connected to its broker again."));
}

void ClientLog::send(Level level, const QString &text)
{
    if (!m_enabled || level < m_minimum)
        return;
    Q_EMIT notify(notification(level, text));
}

} // namespace Mcp
