#pragma once

#include <QObject>
#include <QString>

namespace OpenChamber {

// What the control service tells a front end that shows it (the tray: issue 10 §2 "expose what
// it needs"), in one object that lives as long as the broker host's backend, across the
// module's stops and starts, so that a GUI connects once. Emitted on the broker's thread; the
// arguments are plain strings, so queued connections to a GUI thread need nothing registered.
class ControlEvents final : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

Q_SIGNALS:
    // A prompt reached a session (a dispatch the service confirmed, or a scheduled run's).
    void promptDispatched(const QString &directory, const QString &sessionId);
    // A watched session's status changed (OpenCode's SessionStatus type: "busy", "retry",
    // "idle", …), from OpenCode's /event stream of its directory (sessionwatcher.h).
    void sessionStatusChanged(const QString &directory, const QString &sessionId, const QString &status);
    // OpenCode reported an error for a session of a watched directory (session.error); the
    // session id is empty when OpenCode names none.
    void sessionFailed(const QString &directory, const QString &sessionId, const QString &message);
    // A watched session waits for the user ("permission" or "question", and what it asks), or no
    // longer does (waitingFor empty): what makes an OpenCode session "needs you" in the tray.
    void sessionWaitingChanged(const QString &directory, const QString &sessionId, const QString &waitingFor,
                               const QString &detail);
    // A scheduled task's run (manual = schedule.run) started or ended.
    void scheduledRunStarted(const QString &taskId, const QString &projectId, bool manual);
    void scheduledRunFinished(const QString &taskId, const QString &projectId, bool succeeded);
    // The OpenCode the broker runs itself (managedopencode.h) changed state: "starting",
    // "running", "restarting", "failed", "stopped"; detail says why where there is a reason.
    void managedOpenCodeChanged(const QString &state, const QString &detail);
};

} // namespace OpenChamber
