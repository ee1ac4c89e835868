#include "openchamber/scheduleruntime.h"

#include "broker/brokerserver.h"
#include "openchamber/openchamberlogging.h"

namespace OpenChamber {

ScheduleRuntime::ScheduleRuntime(ScheduledSessionStarter starter, ScheduleProjects projects,
                                 Scheduler::Limits limits)
    : m_starter(std::move(starter)), m_projects(std::move(projects)), m_limits(limits)
{
}

ScheduleRuntime::~ScheduleRuntime()
{
    stop();
}

Broker::Result<void> ScheduleRuntime::start(Broker::ModuleContext &context)
{
    stop();
    m_store.emplace(context.database());
    m_scheduler = std::make_unique<Scheduler>(*m_store, context.clock(), m_starter, m_projects, m_limits,
                                              brokerSender(context.server()));
    const auto recovered = m_scheduler->recoverInterrupted();
    if (!recovered) {
        stop();
        return Broker::fail(
            Broker::ErrorKind::Module,
            QStringLiteral("scheduled tasks: cannot resolve the runs left by the previous broker: %1")
                .arg(recovered.error().message));
    }
    m_recovered = *recovered;
    if (m_recovered > 0)
        qCWarning(lcSchedule) << m_recovered
                              << "scheduled run(s) were interrupted by the last stop; not repeated";
    m_service = std::make_unique<ScheduleService>(*m_store, *m_scheduler, context.clock(), m_projects);
    return {};
}

QList<Broker::ModuleJob> ScheduleRuntime::jobs()
{
    if (!m_scheduler)
        return {};
    return {m_scheduler->job()};
}

void ScheduleRuntime::stop()
{
    m_service.reset();
    m_scheduler.reset();
    m_store.reset(); // drops its copy of the broker's connection
}

} // namespace OpenChamber
