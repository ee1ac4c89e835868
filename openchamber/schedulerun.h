#pragma once

#include "openchamber/controlservice.h"

#include <QList>
#include <QString>

#include <expected>
#include <functional>
#include <optional>

namespace OpenChamber {

// What running a scheduled task asks of the session service (docs/spec/control-service.md
// §9.3): create a session in directory titled title, then dispatch prompt with the model, agent
// and variant (slash commands as commands); success = the dispatch was accepted, no landing check.
struct ScheduledRunRequest
{
    QString taskId;
    QString directory;
    QString title;
    QString prompt;
    QString providerID;
    QString modelID;
    QString agent;
    QString variant;
    bool goalEnabled = false;
    std::optional<qint64> goalTokenBudget;
};

// The new session's id, or why the run failed.
using ScheduledRunResult = std::expected<QString, ControlError>;

// Injected by the composition (the control service's session side); tests give a fake. Calls
// done exactly once, on the broker's thread, now or later; the token is cancelled when the run
// exceeds its maximum duration.
using ScheduledSessionStarter = std::function<void(const ScheduledRunRequest &request, CancelToken cancel,
                                                   std::function<void(ScheduledRunResult)> done)>;

// A configured project (the control service's settings): schedules are kept per project.
struct ScheduleProject
{
    QString id;
    QString path;
};
using ScheduleProjects = std::function<QList<ScheduleProject>()>;

} // namespace OpenChamber
