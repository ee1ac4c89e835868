#pragma once

#include "broker/brokermodule.h"
#include "openchamber/scheduler.h"
#include "openchamber/scheduleservice.h"
#include "openchamber/schedulestore.h"

#include <memory>
#include <optional>

namespace OpenChamber {

// The scheduled-task side of the openchamber module, whole: the module returns migrations() and
// jobs() from its own, calls start() from its start() and stop() from its stop(), and forwards
// schedule.* to service(). Built once; start() and stop() may alternate (the tray restarts the
// broker), each start on the database the context gives.
class ScheduleRuntime
{
public:
    ScheduleRuntime(ScheduledSessionStarter starter, ScheduleProjects projects,
                    Scheduler::Limits limits = {});
    ~ScheduleRuntime();

    static QList<Broker::ModuleMigration> migrations() { return ScheduleStore::migrations(); }
    // Opens the store on the broker's database and records the runs a previous broker left
    // unfinished (decisions.md "Scheduled runs exactly once").
    Broker::Result<void> start(Broker::ModuleContext &context);
    QList<Broker::ModuleJob> jobs(); // after start()
    void stop();

    // Between start() and stop(); null otherwise.
    ScheduleService *service() { return m_service.get(); }
    Scheduler *scheduler() { return m_scheduler.get(); }
    ScheduleStore *store() { return m_store ? &*m_store : nullptr; }
    int recoveredAtStart() const { return m_recovered; }

private:
    ScheduledSessionStarter m_starter;
    ScheduleProjects m_projects;
    Scheduler::Limits m_limits;
    std::optional<ScheduleStore> m_store;
    std::unique_ptr<Scheduler> m_scheduler;
    std::unique_ptr<ScheduleService> m_service;
    int m_recovered = 0;
};

} // namespace OpenChamber
