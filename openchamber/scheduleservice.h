#pragma once

#include "openchamber/controlservice.h"
#include "openchamber/scheduledtask.h"
#include "openchamber/schedulerun.h"

namespace Broker {
class Clock;
}

namespace OpenChamber {

class ScheduleStore;
class Scheduler;

// The schedule.* actions of the control service (docs/spec/control-service.md §4.9–4.14)
// with §3's scope rules for schedules: status, list, create, run, delete, toggle. The main
// control service forwards every schedule.* action here.
class ScheduleService final : public ControlService
{
public:
    ScheduleService(ScheduleStore &store, Scheduler &scheduler, const Broker::Clock &clock,
                    ScheduleProjects projects);

    QList<ActionInfo> catalog() const override;
    void execute(const QString &action, const QJsonObject &input, const QString &contextDirectory,
                 CancelToken cancel, ControlCallback done) override;

private:
    std::expected<ScheduleProject, ControlError> resolveProject(const QJsonObject &input,
                                                                const QString &contextDirectory) const;
    // run, delete, toggle: a task that targets a peer is kept outside the projects (empty id) and
    // found by its id alone when the input names no project; every other task by
    // docs/spec/control-service.md §3's rules.
    std::expected<ScheduleProject, ControlError>
    resolveTaskScope(const QJsonObject &input, const QString &contextDirectory, const QString &taskId) const;
    ControlResult status() const;
    ControlResult list(const QJsonObject &input, const QString &contextDirectory);
    ControlResult create(const QJsonObject &input, const QString &contextDirectory);
    ControlResult createForPeer(const QJsonObject &input, const QString &peer);
    ControlResult save(ScheduledTask task);
    void run(const QJsonObject &input, const QString &contextDirectory, ControlCallback done);
    ControlResult remove(const QJsonObject &input, const QString &contextDirectory);
    ControlResult toggle(const QJsonObject &input, const QString &contextDirectory);

    ScheduleStore &m_store;
    Scheduler &m_scheduler;
    const Broker::Clock &m_clock;
    ScheduleProjects m_projects;
};

} // namespace OpenChamber
