#include "openchamber/controlmodule.h"

#include "common/controlwire.h"
#include "openchamber/agentactions.h"
#include "openchamber/openchamberlogging.h"

#include <QElapsedTimer>

namespace OpenChamber {

namespace {

// The contract's status codes are 4xx and 5xx; anything else a service reports is a bug, and
// the client must still read it as a failure.
int failureStatus(int status)
{
    return status >= 400 && status <= 599 ? status : 500;
}

} // namespace

ControlModule::ControlModule(std::unique_ptr<ControlBackend> backend) : m_backend(std::move(backend)) { }

ControlModule::~ControlModule()
{
    *m_alive = false;
}

Broker::Result<void> ControlModule::start(Broker::ModuleContext &context)
{
    if (auto started = m_backend->start(context); !started)
        return started;
    m_service = m_backend->service();
    if (!m_service)
        return Broker::fail(Broker::ErrorKind::Module,
                            QStringLiteral("the control service could not be built"));
    return {};
}

QList<Broker::Route> ControlModule::routes()
{
    return {
        {"POST", Broker::ControlRequest::path, Broker::RouteAuth::MainToken, false,
         Broker::Wire::maxControlBodyBytes, [this](Broker::RouteCall &call) { control(call); }},
        {"POST", Broker::AgentToolRequest::path, Broker::RouteAuth::Session, false,
         Broker::Wire::maxControlBodyBytes, [this](Broker::RouteCall &call) { agentTool(call); }},
    };
}

void ControlModule::stop()
{
    // The actions in flight end as cancelled; their answers go nowhere (the broker closes the
    // connections), and the service goes with the broker's database.
    const auto tokens = std::exchange(m_inFlight, {});
    for (CancelToken token : tokens)
        token.cancel();
    m_service = nullptr;
    m_backend->stop();
}

void ControlModule::control(Broker::RouteCall &call)
{
    const Broker::ControlRequest request = Broker::ControlRequest::fromJson(call.body);
    const Broker::Http::ResponderPtr responder = call.responder;
    const QString action = request.action;
    run(responder, action, request.input, request.contextDirectory,
        [responder, action](ControlResult result) {
            if (result) {
                Broker::RouteAnswer::json(responder, *result);
                return;
            }
            const int status = failureStatus(result.error().status);
            const Broker::ControlFailure failure {
                status, result.error().message,
                Broker::ControlFailure::partialFields(result.error().details)};
            Broker::RouteAnswer::json(responder, failure.toJson(), status);
        });
}

void ControlModule::agentTool(Broker::RouteCall &call)
{
    const Broker::AgentToolRequest request = Broker::AgentToolRequest::fromJson(call.body);
    const Broker::Http::ResponderPtr responder = call.responder;
    const QString requested = request.action();
    if (!request.tool.isEmpty() && request.tool != QLatin1String("openchamber")) {
        Broker::RouteAnswer::json(
            responder,
            Broker::AgentToolEnvelope::failure(
                requested, 400, QStringLiteral("Unknown OpenChamber tool: %1").arg(request.tool))
                .toJson());
        return;
    }
    const auto action = resolveAgentAction(m_service->catalog(), requested);
    if (!action) {
        Broker::RouteAnswer::json(
            responder, Broker::AgentToolEnvelope::failure(requested, 400, action.error()).toJson());
        return;
    }
    QJsonObject input = request.input;
    input.insert(QStringLiteral("action"), *action);
    run(responder, *action, input, request.contextDirectory,
        [responder, name = *action](ControlResult result) {
            const Broker::AgentToolEnvelope envelope = result
                ? Broker::AgentToolEnvelope::success(name, *result)
                : Broker::AgentToolEnvelope::failure(
                      name, failureStatus(result.error().status), result.error().message,
                      Broker::ControlFailure::partialFields(result.error().details));
            Broker::RouteAnswer::json(responder, envelope.toJson());
        });
}

void ControlModule::run(const Broker::Http::ResponderPtr &responder, const QString &action,
                        const QJsonObject &input, const QString &contextDirectory, Answer answer)
{
    const quint64 id = ++m_lastActionId;
    CancelToken cancel;
    m_inFlight.insert(id, cancel);
    // The client left before the answer: the action stops (a wait ends with 499).
    responder->setOnClosed([cancel, action]() mutable {
        qCInfo(lcControl).noquote() << "Client left: cancelling" << action;
        cancel.cancel();
    });
    auto answered = std::make_shared<bool>(false);
    QElapsedTimer elapsed;
    elapsed.start();
    qCDebug(lcControl).noquote() << "Action" << action << "started";
    m_service->execute(action, input, contextDirectory, cancel,
                       [this, alive = std::weak_ptr<bool>(m_alive), id, action, responder, answered, elapsed,
                        answer = std::move(answer)](ControlResult result) {
                           if (std::exchange(*answered, true)) {
                               qCWarning(lcControl).noquote()
                                   << "The service answered" << action << "twice; the second is dropped";
                               return;
                           }
                           if (const auto module = alive.lock(); module && *module)
                               m_inFlight.remove(id);
                           if (result)
                               qCDebug(lcControl).noquote()
                                   << "Action" << action << "done in" << elapsed.elapsed() << "ms";
                           else
                               qCInfo(lcControl).noquote()
                                   << "Action" << action << "failed with" << result.error().status << "in"
                                   << elapsed.elapsed() << "ms:" << result.error().message;
                           responder->setOnClosed(nullptr);
                           answer(std::move(result));
                       });
}

} // namespace OpenChamber
