#pragma once

#include "openchamber/controlservice.h"
#include "openchamber/controlsettings.h"

#include <QNetworkAccessManager>
#include <QObject>

#include <functional>
#include <memory>

namespace Broker {
class Clock;
}

namespace OpenChamber {

class OpenCodeClient;
class ActionRun;

// Time for the service's waits: the wall clock (OpenCode's timestamps are epoch milliseconds) and
// a sleep that calls back after ms unless its context object is destroyed first. Tests pass a
// manual clock and a sleep that moves it, so a 5 s landing window takes no real time.
struct ControlTimers
{
    std::shared_ptr<Broker::Clock> clock;
    std::function<void(int ms, QObject *context, std::function<void()> done)> sleep;

    static ControlTimers system(); // system clock, QTimer
};

// A scheduled task's prompt (docs/spec/control-service.md §9.3): run in a new session of directory.
struct ScheduledPrompt
{
    QString directory;
    QString title;
    QString prompt;
    QString providerID;
    QString modelID;
    QString agent;
    QString variant;
};
using ScheduledRunDone = std::function<void(std::expected<QString /* sessionId */, ControlError>)>;

// The control service (docs/spec/control-service.md): projects.list, models.list and
// session.list|create|send|fork|status|messages against an OpenCode server; schedule.* go to the
// scheduled-task service given at construction, verbatim. Every call is one ActionRun that
// answers once; cancelling its token answers 499 at once (with the partial-result details
// gathered so far, e.g. a fork already created) and drops its pending requests and timers.
// Destroying the service drops the calls still running without answering them (broker exit).
class SessionService final : public QObject, public ControlService
{
    Q_OBJECT
public:
    struct Options
    {
        // GET /global/health before a create/send/fork (docs/spec/control-service.md §1: 10 s there)
        int readyTimeoutMs = 3000;
        int readyIntervalMs = 250;
        int landingPollMs = 150; // docs/spec/control-service.md §6.5
        int landingWindowMs = 5000;
        int waitPollMs = 500; // docs/spec/control-service.md §8
        int worktreePollMs = 150; // docs/spec/control-service.md §5.1 step 7: the worktree's bootstrap
        int worktreeBootstrapTimeoutMs = 60000;
        bool useEventStream = true; // /event wakes the polls early; off = polling only
    };

    using SettingsProvider = std::function<ControlSettings()>;

    // openCode must outlive the service; schedules may be null (schedule.* then answer 503).
    SessionService(OpenCodeClient &openCode, SettingsProvider settings, ControlService *schedules,
                   QObject *parent = nullptr);
    ~SessionService() override;

    void setOptions(const Options &options) { m_options = options; }
    const Options &options() const { return m_options; }
    void setTimers(ControlTimers timers);
    const ControlTimers &timers() const { return m_timers; }
    void setScheduleService(ControlService *schedules) { m_schedules = schedules; }

    QList<ActionInfo> catalog() const override;
    void execute(const QString &action, const QJsonObject &input, const QString &contextDirectory,
                 CancelToken cancel, ControlCallback done) override;

    // For the scheduler: like session.create with a prompt (selection checked against OpenCode
    // first, then the session, then a command or prompt_async) but, as
    // docs/spec/control-service.md §9.3, success is OpenCode accepting the dispatch: no landing
    // check. Answers the new session's id.
    void startScheduledRun(const ScheduledPrompt &run, CancelToken cancel, ScheduledRunDone done);

    int runningCount() const { return m_running; }

    // For ActionRun.
    OpenCodeClient &openCode() { return m_openCode; }
    ControlSettings settings() const { return m_settings(); }
    QNetworkAccessManager &eventNetwork() { return m_eventNetwork; }

Q_SIGNALS:
    // A prompt reached a session (promptDispatched true), for the tray and the logs.
    void promptDispatched(const QString &directory, const QString &sessionId);

private:
    friend class ActionRun;

    OpenCodeClient &m_openCode;
    SettingsProvider m_settings;
    ControlService *m_schedules;
    Options m_options;
    ControlTimers m_timers;
    QNetworkAccessManager m_eventNetwork;
    int m_running = 0;
};

// The 14 actions of docs/spec/control-service.md §4 with their titles and descriptions
// (schedule.status is not agent-exposed).
QList<ActionInfo> controlCatalog();

} // namespace OpenChamber
