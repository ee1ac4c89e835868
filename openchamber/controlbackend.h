#pragma once

#include "broker/brokermodule.h"
#include "openchamber/controlservice.h"

#include <QProcessEnvironment>

#include <memory>

namespace Broker {
class SecretStore;
}

namespace OpenChamber {

class ControlEvents;
class ManagedOpenCode;
class OpenCodeClient;
class SessionWatcher;
class ScheduleRuntime;
class SessionService;

// What ControlModule runs behind its routes: the service and whatever it needs in the broker
// (its tables, its jobs). start() after the migrations, stop() when the broker stops; the
// module may start it again later (the tray after a hand-over).
class ControlBackend
{
public:
    virtual ~ControlBackend() = default;

    virtual QList<Broker::ModuleMigration> migrations() const { return {}; }
    virtual Broker::Result<void> start(Broker::ModuleContext &context) = 0;
    virtual QList<Broker::ModuleJob> jobs() { return {}; }
    virtual void stop() { }
    // Between start() and stop(); null otherwise.
    virtual ControlService *service() = 0;
};

// The broker hosts' backend: the OpenCode client (URL from CLAUDE_PEERS_OPENCODE_URL or the
// config file, password from the secret store — or the OpenCode the broker runs itself when
// openchamber.manage_opencode is true, with a password generated once and kept in the secret
// store), the session service, and the scheduled tasks (their table, their job, their runs
// started through the session service).
class OpenCodeBackend final : public ControlBackend
{
public:
    explicit OpenCodeBackend(std::shared_ptr<Broker::SecretStore> secrets,
                             QProcessEnvironment environment = QProcessEnvironment::systemEnvironment());
    ~OpenCodeBackend() override;

    QList<Broker::ModuleMigration> migrations() const override;
    Broker::Result<void> start(Broker::ModuleContext &context) override;
    QList<Broker::ModuleJob> jobs() override;
    void stop() override;
    ControlService *service() override;

    // For the tray: prompts dispatched and scheduled runs (between start() and stop()).
    SessionService *sessions() const { return m_sessions.get(); }
    ScheduleRuntime &schedules() const { return *m_schedules; }
    // The OpenCode the broker runs itself; null when it uses a configured URL.
    ManagedOpenCode *managedOpenCode() const { return m_managed.get(); }

    // For the tray: prompts dispatched, sessions' status changes, scheduled runs, the managed
    // OpenCode's state. One object for the backend's life (connect once, across restarts).
    ControlEvents &events() const { return *m_events; }
    // Session status changes need an event stream per directory to OpenCode (the configured
    // projects' and those the service sent prompts to): only when a front end shows them.
    // Takes effect at the next start().
    void setWatchSessions(bool watch) { m_watchSessions = watch; }
    SessionWatcher *sessionWatcher() const { return m_watcher.get(); }

private:
    void connectEvents();
    void startManaged();

    std::shared_ptr<Broker::SecretStore> m_secrets;
    QProcessEnvironment m_environment;
    QString m_configPath;
    std::unique_ptr<ScheduleRuntime> m_schedules;
    std::unique_ptr<OpenCodeClient> m_openCode;
    std::unique_ptr<ManagedOpenCode> m_managed; // after m_openCode: it steers the client
    std::unique_ptr<SessionService> m_sessions;
    std::unique_ptr<SessionWatcher> m_watcher;
    std::unique_ptr<ControlEvents> m_events;
    bool m_watchSessions = false;
};

} // namespace OpenChamber
