#include "openchamber/actioncatalog.h"

namespace OpenChamber {

const QList<ActionInfo> &controlActions()
{
    static const QList<ActionInfo> actions {
        {QStringLiteral("projects.list"), QStringLiteral("List configured projects"),
         QStringLiteral("List the configured projects (id, path, label)"), true},
        {QStringLiteral("models.list"), QStringLiteral("Show model preferences"),
         QStringLiteral("Show the default model, variant and agent and the favorite and recent models"),
         true},
        {QStringLiteral("session.list"), QStringLiteral("List sessions"),
         QStringLiteral(
             "List sessions of directory (default: the current one); limit 10 by default, all includes "
             "archived ones, withStatus adds each session's status"),
         true},
        {QStringLiteral("session.create"), QStringLiteral("Create a session"),
         QStringLiteral("Create a session in the current directory by default; prompt is optional"), true},
        {QStringLiteral("session.send"), QStringLiteral("Send a prompt"),
         QStringLiteral("Send a new prompt to sessionId; scope with projectId or directory"), true},
        {QStringLiteral("session.fork"), QStringLiteral("Fork a session"),
         QStringLiteral(
             "Fork sessionId (at messageId when given) and send prompt to the fork; prompt is required"),
         true},
        {QStringLiteral("session.status"), QStringLiteral("Check session status"),
         QStringLiteral("Check the status of sessionId; directory defaults to the current one"), true},
        {QStringLiteral("session.messages"), QStringLiteral("Read session messages"),
         QStringLiteral(
             "Read text-only messages and current sessionStatus for sessionId; directory and limit 10 "
             "are defaults"),
         true},
        {QStringLiteral("schedule.status"), QStringLiteral("Check scheduler status"),
         QStringLiteral("Counts of enabled and running scheduled tasks"), false},
        {QStringLiteral("schedule.list"), QStringLiteral("List tasks and scheduler status"),
         QStringLiteral("List the scheduled tasks of a project; scope with projectId or directory"), true},
        {QStringLiteral("schedule.create"),
         QStringLiteral("Create task; requires name, prompt, model, and one schedule selector"),
         QStringLiteral("Create a scheduled task: name, prompt, model and exactly one of daily, weekly (with "
                        "time), once (with time) or cron; timezone is an IANA zone"),
         true},
        {QStringLiteral("schedule.run"), QStringLiteral("Run taskId; scope with projectId or directory"),
         QStringLiteral("Run taskId now"), true},
        {QStringLiteral("schedule.delete"),
         QStringLiteral("Delete taskId; scope with projectId or directory"), QStringLiteral("Delete taskId"),
         true},
        {QStringLiteral("schedule.toggle"),
         QStringLiteral("Enable or disable taskId; requires the disabled boolean"),
         QStringLiteral("Enable (disabled: false) or disable (disabled: true) taskId"), true},
    };
    return actions;
}

} // namespace OpenChamber
