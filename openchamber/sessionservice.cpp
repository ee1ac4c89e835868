#include "openchamber/sessionservice.h"

#include "broker/clock.h"
#include "openchamber/actioncatalog.h"
#include "openchamber/actionrun.h"
#include "openchamber/controlinput.h"
#include "openchamber/openchamberlogging.h"
#include "openchamber/opencodeclient.h"

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
    // One list for the service and the helper's openchamber tool (actioncatalog.h, Qt Core).
    return controlActions();
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

SessionService::~SessionService()
{
    // Runs in flight are children: they must end while the members they use (the OpenCode
    // client, the event network, the running count) still exist, not in ~QObject after them.
    qDeleteAll(findChildren<ActionRun *>(Qt::FindDirectChildrenOnly));
}

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
