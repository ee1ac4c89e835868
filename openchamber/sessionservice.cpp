#include "sessionservice.h"

#include "actionrun.h"
#include "clock.h"
#include "controlinput.h"
#include "openchamberlogging.h"
#include "opencodeclient.h"

#include <QTimer>

namespace OpenChamber {

namespace {

const QStringList kScheduleActions {QStringLiteral("schedule.status"), QStringLiteral("schedule.list"),
                                    QStringLiteral("schedule.create"), QStringLiteral("schedule.run"),
                                    QStringLiteral("schedule.delete"), QStringLiteral("schedule.toggle")};

const QStringList kSessionActions {QStringLiteral("projects.list"),  QStringLiteral("models.list"),
                                   QStringLiteral("session.list"),   QStringLiteral("session.create"),
                                   QStringLiteral("session.send"),   QStringLiteral("session.fork"),
                                   QStringLiteral("session.status"), QStringLiteral("session.messages")};

} // namespace

ControlTimers ControlTimers::system()
{
    return {Broker::systemClock(), [](int ms, QObject *context, std::function<void()> done) {
                QTimer::singleShot(ms, context, std::move(done));
            }};
}

QList<ActionInfo> controlCatalog()
{
    auto s = [](const char *text) { return QString::fromUtf8(text); };
    return {
        {s("projects.list"), s("List configured projects"),
         s("List the projects configured for claude-peers"), true},
        {s("models.list"), s("Show model preferences"),
         s("Show the default model, variant and agent and the favorite and recent models"), true},
        {s("session.list"), s("List sessions"),
         s("List OpenCode sessions of a directory, most recently updated first; limit 10, archived excluded "
           "by "
           "default"),
         true},
        {s("session.create"), s("Create a session"),
         s("Create a session in the current directory by default; prompt is optional"), true},
        {s("session.send"), s("Send a prompt"),
         s("Send a new prompt to sessionId; scope with projectId or directory"), true},
        {s("session.fork"), s("Fork a session"),
         s("Fork sessionId (up to messageId when given) and send prompt to the fork; prompt is required"),
         true},
        {s("session.status"), s("Check session status"),
         s("Check whether sessionId is idle, busy or retrying"), true},
        {s("session.messages"), s("Read session messages"),
         s("Read text-only messages and current sessionStatus for sessionId; directory and limit 10 are "
           "defaults"),
         true},
        {s("schedule.status"), s("Check scheduler status"), s("Count enabled and running scheduled tasks"),
         false},
        {s("schedule.list"), s("List tasks and scheduler status"),
         s("List the scheduled tasks of a project and the scheduler's status"), true},
        {s("schedule.create"), s("Create a scheduled task"),
         s("Create task; requires name, prompt, model, and one schedule selector"), true},
        {s("schedule.run"), s("Run a scheduled task now"), s("Run taskId; scope with projectId or directory"),
         true},
        {s("schedule.delete"), s("Delete a scheduled task"),
         s("Delete taskId; scope with projectId or directory"), true},
        {s("schedule.toggle"), s("Enable or disable a scheduled task"),
         s("Enable or disable taskId; requires the disabled boolean"), true},
    };
}

SessionService::SessionService(OpenCodeClient &openCode, SettingsProvider settings, ControlService *schedules,
                               QObject *parent)
    : QObject(parent),
      m_openCode(openCode),
      m_settings(std::move(settings)),
      m_schedules(schedules),
      m_timers(ControlTimers::system())
{
    // An event stream holds its connection while it runs; none of them should time out.
    m_eventNetwork.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_eventNetwork.setTransferTimeout(0);
}

SessionService::~SessionService() = default;

void SessionService::setTimers(ControlTimers timers)
{
    Q_ASSERT(timers.clock && timers.sleep);
    m_timers = std::move(timers);
}

QList<ActionInfo> SessionService::catalog() const
{
    return controlCatalog();
}

void SessionService::execute(const QString &action, const QJsonObject &input, const QString &contextDirectory,
                             CancelToken cancel, ControlCallback done)
{
    const QString name = action.trimmed();
    qCDebug(lcControl).noquote() << "execute" << name;
    if (kScheduleActions.contains(name)) {
        if (!m_schedules)
            return done(std::unexpected(
                ControlError {503, QStringLiteral("Scheduled tasks are not available in this broker"), {}}));
        return m_schedules->execute(name, input, contextDirectory, std::move(cancel), std::move(done));
    }
    if (!kSessionActions.contains(name))
        return done(std::unexpected(usageError(QStringLiteral("Unsupported OpenChamber action: %1")
                                                   .arg(name.isEmpty() ? QStringLiteral("missing") : name))));
    if (cancel.isCancelled())
        return done(
            std::unexpected(ControlError {499, QStringLiteral("OpenChamber action was cancelled"), {}}));
    auto *run = new ActionRun(*this, name, input, contextDirectory, std::move(cancel), std::move(done));
    run->start();
}

void SessionService::startScheduledRun(const ScheduledPrompt &run, CancelToken cancel, ScheduledRunDone done)
{
    QJsonObject input {{QStringLiteral("directory"), run.directory},
                       {QStringLiteral("prompt"), run.prompt},
                       {QStringLiteral("model"), QString(run.providerID + QLatin1Char('/') + run.modelID)}};
    if (!run.title.isEmpty())
        input.insert(QStringLiteral("title"), run.title);
    if (!run.agent.isEmpty())
        input.insert(QStringLiteral("agent"), run.agent);
    if (!run.variant.isEmpty())
        input.insert(QStringLiteral("variant"), run.variant);
    if (run.prompt.trimmed().isEmpty())
        return done(std::unexpected(usageError(QStringLiteral("prompt is required"))));
    auto *action = new ActionRun(*this, QStringLiteral("session.create"), input, {}, std::move(cancel),
                                 [done = std::move(done)](ControlResult result) {
                                     if (!result)
                                         return done(std::unexpected(result.error()));
                                     done(result->value(QStringLiteral("sessionId")).toString());
                                 });
    action->setConfirmLanding(false);
    action->start();
}

} // namespace OpenChamber
