#pragma once

#include "app/tray/attention.h"
#include "app/tray/notifications/notificationkind.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

namespace OpenChamber {
class ControlEvents;
}

namespace App {

class ControlCalls;
class FederationPresenter;
class OpenCodeActivity;

// Notifications about what happens away from the peers list: an OpenCode session that finished
// its turn (SessionDone), a scheduled run that failed (ScheduleFailed), another broker asking to
// pair (PairingRequest). Each says which item, why and a short quote (the session's last answer,
// the run's error, the asking machine's address and code), looked up through the control service
// where the event alone does not carry it. GUI-free; the composition hands each event to the
// Notifier, which applies the preferences.
class ActivityNotifications : public QObject
{
    Q_OBJECT
public:
    static constexpr int QuoteLength = 160; // characters of a quoted answer or error

    // calls: how the session's last answer and the failed task's name and error are read
    // (null: the notifications say less).
    explicit ActivityNotifications(ControlCalls *calls, QObject *parent = nullptr);

    void watchSessions(OpenCodeActivity *activity);
    void watchFederation(FederationPresenter *presenter);
    // Connects the control service's scheduled runs (emitted on the broker thread; queued to
    // this object's thread). Safe to call from the broker thread.
    void follow(OpenChamber::ControlEvents *events);

    // "…" past length characters, on one line.
    static QString quote(const QString &text, int length = QuoteLength);

public Q_SLOTS:
    void pairingRequestArrived(const QString &requestId, const QString &hostname);
    void scheduledRunFinished(const QString &taskId, const QString &projectId, bool succeeded);

Q_SIGNALS:
    void notificationRequested(const App::NotificationEvent &event);

private:
    void sessionChanged(const QString &sessionId);
    void sessionDone(const QString &directory, const QString &sessionId, const QString &name,
                     const QString &error);

    ControlCalls *m_calls;
    QPointer<OpenCodeActivity> m_activity;
    QPointer<FederationPresenter> m_federation;
    QHash<QString, Broker::Attention> m_sessionStates; // as last seen, per session id
    QSet<QString> m_pairingRequests; // notified once each
};

} // namespace App
