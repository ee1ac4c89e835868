#pragma once

#include "app/tray/attention.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace OpenChamber {
class ControlEvents;
}

namespace App {

// One OpenCode session as the tray knows it.
struct OpenCodeSession
{
    QString sessionId;
    QString directory;
    QString title; // empty until a listing named it
    QString status; // OpenCode's SessionStatus type: busy, retry, idle, …; empty: unknown
    QString waitingFor; // permission, question; empty: it asks nothing
    QString detail; // what it asks
    QString error; // the last error OpenCode reported for it
    QDateTime since; // when it entered its current state (as seen here)
    bool watched = false; // an event (status, question, error) came for it while the tray ran

    bool needsYou() const { return !waitingFor.isEmpty(); }
    Broker::Attention attention() const;
    // Worth a row among the peers: it needs you or works, or it was active while the tray ran
    // (a session that is only in a listing stays on the Sessions page).
    bool isCurrent() const;
    bool operator==(const OpenCodeSession &) const = default;
};

// The live state of OpenCode sessions, on the GUI thread, GUI-free: fed by the control
// service's session watcher (ControlEvents, pushed from the broker thread: status changes,
// permission and question requests, errors) and by the Sessions page's listings. It feeds the
// tray's attention (sessions that need you or are busy) and the Sessions page's live status.
class OpenCodeActivity : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxSessions = 1000; // beyond that, the longest-idle ones are forgotten

    explicit OpenCodeActivity(QObject *parent = nullptr);

    // The clock of the times in state (tests set a fixed one).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }
    QDateTime now() const { return m_clock ? m_clock() : QDateTime::currentDateTimeUtc(); }

    // Connects the control service's events (emitted on the broker thread; queued to this
    // object's thread). Safe to call from the broker thread.
    void follow(OpenChamber::ControlEvents *events);

    bool contains(const QString &sessionId) const { return m_sessions.contains(sessionId); }
    std::optional<OpenCodeSession> session(const QString &sessionId) const;
    // Sessions that need you, then busy ones; for the tray icon, menu and tooltip.
    QList<AttentionItem> attentionItems() const;

    // What a listing (session.list withStatus) said: title and status. A status that differs
    // from the known one starts a new time in state; idle ends any question.
    void noteListed(const QString &directory, const QString &sessionId, const QString &title,
                    const QString &status);

public Q_SLOTS:
    void setStatus(const QString &directory, const QString &sessionId, const QString &status);
    void setWaiting(const QString &directory, const QString &sessionId, const QString &waitingFor,
                    const QString &detail);
    void setFailed(const QString &directory, const QString &sessionId, const QString &message);

Q_SIGNALS:
    void sessionChanged(const QString &sessionId);
    // attentionItems() changed (not emitted for changes it does not show).
    void attentionChanged();

private:
    OpenCodeSession &entry(const QString &directory, const QString &sessionId);
    void changed(const QString &sessionId, const QList<AttentionItem> &before);
    void forgetOldest();

    QHash<QString, OpenCodeSession> m_sessions;
    std::function<QDateTime()> m_clock;
};

} // namespace App
