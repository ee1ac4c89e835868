#include "app/tray/notifications/activitynotifications.h"

#include "app/tray/pages/controlcalls.h"
#include "app/tray/pages/federationmodels.h"
#include "app/tray/pages/federationpresenter.h"
#include "app/tray/pages/opencodeactivity.h"
#include "openchamber/controlevents.h"

#include <QJsonArray>

namespace App {

ActivityNotifications::ActivityNotifications(ControlCalls *calls, QObject *parent)
    : QObject(parent), m_calls(calls)
{
}

QString ActivityNotifications::quote(const QString &text, int length)
{
    QString line = text.simplified();
    if (line.size() > length)
        line = line.left(length - 1).trimmed() + QStringLiteral("…");
    return line;
}

void ActivityNotifications::watchSessions(OpenCodeActivity *activity)
{
    m_activity = activity;
    connect(activity, &OpenCodeActivity::sessionChanged, this, &ActivityNotifications::sessionChanged);
}

void ActivityNotifications::watchFederation(FederationPresenter *presenter)
{
    m_federation = presenter;
    connect(presenter, &FederationPresenter::pendingRequestArrived, this,
            &ActivityNotifications::pairingRequestArrived);
}

void ActivityNotifications::follow(OpenChamber::ControlEvents *events)
{
    // Queued: the events come from the broker thread; this object lives on the GUI thread.
    connect(events, &OpenChamber::ControlEvents::scheduledRunFinished, this,
            &ActivityNotifications::scheduledRunFinished, Qt::QueuedConnection);
}

void ActivityNotifications::sessionChanged(const QString &sessionId)
{
    if (!m_activity)
        return;
    const std::optional<OpenCodeSession> session = m_activity->session(sessionId);
    if (!session) {
        m_sessionStates.remove(sessionId);
        return;
    }
    const Broker::Attention now = session->attention();
    const Broker::Attention was = m_sessionStates.value(sessionId, Broker::Attention::Unknown);
    if (m_sessionStates.size() >= 4 * OpenCodeActivity::MaxSessions && !m_sessionStates.contains(sessionId))
        m_sessionStates.clear(); // the activity forgets old sessions; so do we, in one go
    m_sessionStates.insert(sessionId, now);
    // A turn ends when a session that worked (or waited for you mid-turn) goes idle.
    if (now != Broker::Attention::Idle ||
        (was != Broker::Attention::Busy && was != Broker::Attention::NeedsYou))
        return;
    const QString name = session->title.isEmpty() ? tr("OpenCode %1").arg(sessionId) : session->title;
    sessionDone(session->directory, sessionId, name, session->error);
}

void ActivityNotifications::sessionDone(const QString &directory, const QString &sessionId,
                                        const QString &name, const QString &error)
{
    NotificationEvent event {NotificationKind::SessionDone,        sessionId, name, {}, {},
                             NotificationSubject::OpenCodeSession, directory};
    if (!error.isEmpty()) {
        event.title = tr("%1 stopped with an error").arg(name);
        event.body = quote(error);
        Q_EMIT notificationRequested(event);
        return;
    }
    event.title = tr("%1 finished").arg(name);
    //: %1 is the session's folder
    event.body = tr("Its turn in %1 is over.").arg(directory);
    if (!m_calls) {
        Q_EMIT notificationRequested(event);
        return;
    }
    // The quote is its last answer (`claude-peers session messages … --last-assistant --json`).
    const QJsonObject input {{QStringLiteral("sessionId"), sessionId},
                             {QStringLiteral("directory"), directory},
                             {QStringLiteral("lastAssistant"), true}};
    m_calls->run(QStringLiteral("session.messages"), input, [this, event](ControlOutcome outcome) mutable {
        if (outcome) {
            const QJsonArray messages = outcome->value(QLatin1String("messages")).toArray();
            const QString text =
                messages.isEmpty() ? QString() : messages.last().toObject().value(u"text").toString();
            if (!text.trimmed().isEmpty())
                event.body = quote(text);
        }
        Q_EMIT notificationRequested(event);
    });
}

void ActivityNotifications::pairingRequestArrived(const QString &requestId, const QString &hostname)
{
    if (requestId.isEmpty() || m_pairingRequests.contains(requestId))
        return;
    m_pairingRequests.insert(requestId);
    QString address;
    if (m_federation) {
        if (const auto *request = m_federation->pending()->find(requestId))
            address = request->port > 0 ? QStringLiteral("%1:%2").arg(request->host).arg(request->port)
                                        : request->host;
    }
    const QString name = hostname.isEmpty() ? address : hostname;
    NotificationEvent event {NotificationKind::PairingRequest,    requestId, name, {}, {},
                             NotificationSubject::PairingRequest, {}};
    event.title = name.isEmpty() ? tr("A broker asks to pair with this machine")
                                 : tr("%1 asks to pair with this machine").arg(name);
    event.body = address.isEmpty() || address == name
        ? tr("Compare the codes on the Federation page before you accept.")
        //: %1 is host:port
        : tr("From %1. Compare the codes on the Federation page before you accept.").arg(address);
    Q_EMIT notificationRequested(event);
}

void ActivityNotifications::scheduledRunFinished(const QString &taskId, const QString &projectId,
                                                 bool succeeded)
{
    if (succeeded || taskId.isEmpty())
        return;
    NotificationEvent event {NotificationKind::ScheduleFailed, taskId,   taskId, {}, {},
                             NotificationSubject::Schedule,    projectId};
    event.title = tr("Scheduled run of %1 failed").arg(taskId);
    event.body = tr("See the Schedules page for its error.");
    if (!m_calls) {
        Q_EMIT notificationRequested(event);
        return;
    }
    // Its name and error are in the task's state, written before the run was reported.
    m_calls->run(QStringLiteral("schedule.list"), {{QStringLiteral("projectId"), projectId}},
                 [this, event, taskId](ControlOutcome outcome) mutable {
                     const QJsonArray tasks =
                         outcome ? outcome->value(QLatin1String("tasks")).toArray() : QJsonArray();
                     for (const QJsonValue &value : tasks) {
                         const QJsonObject task = value.toObject();
                         if (task.value(u"id").toString() != taskId)
                             continue;
                         const QString name = task.value(u"name").toString();
                         const QString error = task.value(u"state").toObject().value(u"lastError").toString();
                         if (!name.isEmpty()) {
                             event.peerName = name;
                             event.title = tr("Scheduled run of %1 failed").arg(name);
                         }
                         if (!error.isEmpty())
                             event.body = quote(error);
                     }
                     Q_EMIT notificationRequested(event);
                 });
}

} // namespace App
