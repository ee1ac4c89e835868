#pragma once

#include <QHash>
#include <QNetworkAccessManager>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace OpenChamber {

class OpenCodeClient;

// Follows the sessions of some directories through OpenCode's own event stream (GET /event per
// directory, docs/spec/control-service.md §11.4) and says when a session's status changes or
// OpenCode reports an error for it: what a tray shows, without polling. A stream that ends is
// opened again after a delay that doubles up to 30 s (back to 1 s once it is connected), so
// OpenCode may come and go. At most maxDirectories streams: a further directory replaces the one
// watched longest.
class SessionWatcher final : public QObject
{
    Q_OBJECT
public:
    static constexpr int maxDirectories = 32;
    static constexpr int firstRetryMs = 1000;
    static constexpr int maxRetryMs = 30000;

    explicit SessionWatcher(OpenCodeClient &client, QObject *parent = nullptr);
    ~SessionWatcher() override;

    // Starts following directory (absolute); watching it again changes nothing.
    void watch(const QString &directory);
    QStringList directories() const { return m_order; }
    bool isConnected(const QString &directory) const;
    // The last status seen for the session ("idle" when OpenCode said so; empty when unknown).
    QString status(const QString &sessionId) const { return m_status.value(sessionId); }

Q_SIGNALS:
    void sessionStatusChanged(const QString &directory, const QString &sessionId, const QString &status);
    void sessionFailed(const QString &directory, const QString &sessionId, const QString &message);
    // A watched session waits for the user: waitingFor "permission" (permission.asked, or
    // permission.updated of older servers) or "question" (question.asked), detail what it asks.
    // waitingFor is empty once nothing is pending (replied, rejected, or the session went idle).
    void sessionWaitingChanged(const QString &directory, const QString &sessionId, const QString &waitingFor,
                               const QString &detail);

private:
    struct Watch;

    void open(const QString &directory);
    void received(const QString &directory, const QJsonObject &event);
    void setStatus(const QString &directory, const QString &sessionId, const QString &status);
    void ask(const QString &directory, const QString &sessionId, const QString &requestId,
             const QString &waitingFor, const QString &detail);
    void answer(const QString &directory, const QString &sessionId, const QString &requestId);

    OpenCodeClient &m_client;
    QNetworkAccessManager m_network; // streams hold their connection: not the client's pool
    QHash<QString, std::shared_ptr<Watch>> m_watches;
    QStringList m_order; // oldest first
    QHash<QString, QString> m_status; // sessionId → last status
    struct Request
    {
        QString id;
        QString waitingFor;
        QString detail;
    };
    QHash<QString, QList<Request>> m_waiting; // sessionId → what it asks, oldest first
};

} // namespace OpenChamber
