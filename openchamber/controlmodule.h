#pragma once

#include "broker/brokermodule.h"
#include "openchamber/controlbackend.h"
#include "openchamber/controlservice.h"

#include <QHash>

#include <memory>

namespace OpenChamber {

// The broker side of the control service (docs/spec/control-service.md §2.1, §10.1): a
// BrokerModule that owns the service and serves its two adapters.
//
// - POST /control (main token; the CLI): {action, input[, contextDirectory]} → 200 and the
//   action's result verbatim, or the service's status and {"error", partial fields}.
// - POST /agent-tool (a session's credential; the helper's openchamber tool):
//   {input: {action, …}, contextDirectory, tool} → always 200 with the versioned envelope
//   {schemaVersion:1, ok, action, data|error}; only agent-exposed actions run.
//
// Both take at most 1 MB. A client that closes its connection before the answer cancels its
// action (the CancelToken the service holds): the CLI's Ctrl-C, the MCP client's cancellation.
class ControlModule final : public Broker::BrokerModule
{
public:
    explicit ControlModule(std::unique_ptr<ControlBackend> backend);
    ~ControlModule() override;

    QString name() const override { return QStringLiteral("openchamber"); }
    QList<Broker::ModuleMigration> migrations() const override { return m_backend->migrations(); }
    Broker::Result<void> start(Broker::ModuleContext &context) override;
    QList<Broker::Route> routes() override;
    QList<Broker::ModuleJob> jobs() override { return m_backend->jobs(); }
    void stop() override;

    ControlService *service() const { return m_service; }
    ControlBackend &backend() const { return *m_backend; }
    int actionsInFlight() const { return int(m_inFlight.size()); }

private:
    using Answer = std::function<void(ControlResult)>;

    void control(Broker::RouteCall &call);
    void agentTool(Broker::RouteCall &call);
    // Runs one action for the request whose responder this is: cancelled when the client
    // leaves, answered once through answer.
    void run(const Broker::Http::ResponderPtr &responder, const QString &action, const QJsonObject &input,
             const QString &contextDirectory, Answer answer);

    std::unique_ptr<ControlBackend> m_backend;
    ControlService *m_service = nullptr; // the backend's, while started
    QHash<quint64, CancelToken> m_inFlight;
    quint64 m_lastActionId = 0;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true); // callbacks that outlive us
};

} // namespace OpenChamber
