#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <optional>

namespace Mcp {

// MCP logging (the "logging" capability): what the client should show its user about the
// helper's own trouble, as notifications/message. OpenCode drops the helper's stderr and shows
// "connected" with no broker; this is how such a client learns why the tools fail. Respects
// logging/setLevel; only sends once initialize has been answered.
class ClientLog : public QObject
{
    Q_OBJECT
public:
    // RFC 5424 severities as MCP names them, least severe first.
    enum class Level { Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency };
    Q_ENUM(Level)

    explicit ClientLog(QObject *parent = nullptr);

    static std::optional<Level> levelFromName(const QString &name);
    static QString levelName(Level level);
    // The whole notification for one line of text.
    static QJsonObject notification(Level level, const QString &text);

    // On once initialize is answered: trouble that began before goes out then.
    void setEnabled(bool enabled);
    void setMinimumLevel(Level level) { m_minimum = level; }
    Level minimumLevel() const { return m_minimum; }

    // Broker trouble began (text = the reason), changed, or ended (empty): one notification
    // per change, never a repeat of the same text.
    void reportTrouble(const QString &reason);

Q_SIGNALS:
    void notify(const QJsonObject &notification);

private:
    void send(Level level, const QString &text);

    bool m_enabled = false;
    Level m_minimum = Level::Info; // until the client sets its own
    QString m_trouble;
};

} // namespace Mcp
