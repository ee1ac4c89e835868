#pragma once

#include "broker/internal/privateheader.h"

#include "broker/brokermodule.h"
#include "broker/internal/store.h"
#include "broker/settings.h"
#include "common/result.h"

#include <QList>
#include <QObject>

#include <memory>

namespace Broker {

class Api;
class Authenticator;
class BrokerServer;
class Clock;
class DeliveryHub;
class FederationLink;
class GroupCommit;
class JobScheduler;
class RateLimiter;
class SecretStore;
class Service;
class TokenKeeper;

// The broker without its socket, lock and timers: token, store (core schema and the modules'
// schemas), the request pipeline (Api) with the built-in and the modules' routes, delivery,
// group commit, the modules and their jobs, wired together once. BrokerServer puts an HTTP
// server and the host plumbing around it; the fuzz harness drives api() on ":memory:".
class BrokerCore : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        std::shared_ptr<Clock> clock;
        std::shared_ptr<FederationLink> federation; // null: disabled
        std::shared_ptr<SecretStore> keychain; // null: the token file alone
        QList<std::shared_ptr<BrokerModule>> modules;
        BrokerServer *server = nullptr; // what ModuleContext::server() gives; needed with modules
    };

    BrokerCore(const Settings &settings, Parts parts, QObject *parent = nullptr);
    ~BrokerCore() override;

    // Error codes: "token", "database", "module_schema", "module" (a module's start failed or
    // its routes or jobs are refused; the message names the module). On failure everything
    // opened so far is closed again.
    Result<void> open();
    // Stops jobs and modules (reverse order), answers held waits, commits, closes the store.
    void close();
    bool isOpen() const { return m_api != nullptr; }

    Store &store() { return m_store; }
    TokenKeeper &tokens() { return *m_tokens; }
    Authenticator &auth() { return *m_auth; }
    RateLimiter &rateLimiter() { return *m_rateLimiter; }
    Service &service() { return *m_service; }
    DeliveryHub &hub() { return *m_hub; }
    GroupCommit &commit() { return *m_commit; }
    Api &api() { return *m_api; }
    JobScheduler &jobs() { return *m_jobs; }

private:
    class Context;
    Result<void> migrateModules();
    Result<void> startModules();

    const Settings &m_settings;
    Parts m_parts;
    Store m_store;
    std::unique_ptr<TokenKeeper> m_tokens;
    std::unique_ptr<Authenticator> m_auth;
    std::unique_ptr<RateLimiter> m_rateLimiter;
    std::unique_ptr<Service> m_service;
    std::unique_ptr<DeliveryHub> m_hub;
    std::unique_ptr<GroupCommit> m_commit;
    std::unique_ptr<Api> m_api;
    std::unique_ptr<JobScheduler> m_jobs;
    std::unique_ptr<Context> m_context;
    qsizetype m_startedModules = 0;
};

} // namespace Broker
