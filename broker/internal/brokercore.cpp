#include "broker/internal/brokercore.h"
#include "broker/brokerlogging.h"
#include "broker/clock.h"
#include "broker/federationlink.h"
#include "broker/internal/api.h"
#include "broker/internal/auth.h"
#include "broker/internal/deliveryhub.h"
#include "broker/internal/groupcommit.h"
#include "broker/internal/jobscheduler.h"
#include "broker/internal/moduleschema.h"
#include "broker/internal/ratelimiter.h"
#include "broker/internal/service.h"
#include "broker/internal/tokenkeeper.h"

#include <QSqlDatabase>

namespace Broker {

class BrokerCore::Context final : public ModuleContext
{
public:
    explicit Context(BrokerCore &core) : m_core(core) { }

    BrokerServer &server() override
    {
        Q_ASSERT(m_core.m_parts.server);
        return *m_core.m_parts.server;
    }
    const Clock &clock() const override { return *m_core.m_parts.clock; }
    QSqlDatabase database() const override { return m_core.m_store.database(); }

private:
    BrokerCore &m_core;
};

BrokerCore::BrokerCore(const Settings &settings, Parts parts, QObject *parent)
    : QObject(parent), m_settings(settings), m_parts(std::move(parts))
{
    if (!m_parts.clock)
        m_parts.clock = systemClock();
    if (!m_parts.federation)
        m_parts.federation = std::make_shared<DisabledFederationLink>(m_settings.federationPort);
}

BrokerCore::~BrokerCore()
{
    close();
}

Result<void> BrokerCore::open()
{
    if (isOpen())
        return {};
    m_tokens =
        std::make_unique<TokenKeeper>(m_settings.location, m_parts.keychain, m_settings.keychainRetryMs);
    auto token = m_tokens->start();
    if (!token) {
        close();
        return fail(ErrorKind::Token, token.error().message);
    }
    if (auto opened = m_store.open(m_settings.location.databasePath); !opened) {
        close();
        return fail(ErrorKind::Database, opened.error().message);
    }
    if (auto migrated = migrateModules(); !migrated) {
        close();
        return migrated;
    }

    m_auth = std::make_unique<Authenticator>(m_store);
    m_auth->setToken(*token);
    connect(m_tokens.get(), &TokenKeeper::tokenChanged, this,
            [auth = m_auth.get()](const QByteArray &fresh) { auth->setToken(fresh); });
    m_rateLimiter = std::make_unique<RateLimiter>(m_settings.rateLimitPerMinute);
    m_service = std::make_unique<Service>(m_store, *m_parts.clock, *m_parts.federation);
    m_service->setHeartbeatTimeoutMs(m_settings.heartbeatTimeoutMs);
    m_hub = std::make_unique<DeliveryHub>(*m_service);
    m_commit = std::make_unique<GroupCommit>(m_store);
    m_api = std::make_unique<Api>(*m_service, *m_auth, *m_rateLimiter, *m_hub, *m_parts.federation, *m_commit,
                                  *m_tokens);
    m_jobs = std::make_unique<JobScheduler>(*m_parts.clock);

    DeliveryHub *hub = m_hub.get();
    Authenticator *auth = m_auth.get();
    // A new registration replaces the row and its secret: the old secret stops working now.
    connect(m_service.get(), &Service::peerRegistered, this,
            [auth](const QString &peerId) { auth->forget(peerId); });
    connect(m_service.get(), &Service::peerRemoved, this, [hub, auth](const QString &peerId) {
        auth->forget(peerId);
        hub->release(peerId);
    });
    // The hot path: a stored message marks the recipient's wait, answered after this pass.
    connect(m_service.get(), &Service::messageStored, hub, &DeliveryHub::wake);
    connect(m_commit.get(), &GroupCommit::rolledBack, hub, &DeliveryHub::forgetStored);

    if (auto started = startModules(); !started) {
        close();
        return started;
    }
    return {};
}

Result<void> BrokerCore::migrateModules()
{
    if (m_parts.modules.isEmpty())
        return {};
    QSqlDatabase db = m_store.database();
    for (const auto &module : std::as_const(m_parts.modules)) {
        if (auto migrated = ModuleSchema::migrate(db, module->name(), module->migrations()); !migrated)
            return std::unexpected(migrated.error());
    }
    return {};
}

Result<void> BrokerCore::startModules()
{
    m_context = std::make_unique<Context>(*this);
    for (const auto &module : std::as_const(m_parts.modules)) {
        const QString name = module->name();
        if (auto started = module->start(*m_context); !started)
            return fail(ErrorKind::Module,
                        QStringLiteral("Module \"%1\" did not start: %2").arg(name, started.error().message));
        ++m_startedModules;
        const QList<Route> routes = module->routes();
        for (const Route &route : routes) {
            if (auto added = m_api->addRoute(route); !added)
                return fail(ErrorKind::Module,
                            QStringLiteral("Module \"%1\": %2").arg(name, added.error().message));
        }
        const QList<ModuleJob> jobs = module->jobs();
        for (const ModuleJob &job : jobs) {
            if (auto added = m_jobs->add(name, job); !added)
                return fail(ErrorKind::Module, added.error().message);
        }
        qCInfo(lcServer).noquote()
            << QStringLiteral("Module %1: %2 routes, %3 jobs").arg(name).arg(routes.size()).arg(jobs.size());
    }
    return {};
}

void BrokerCore::close()
{
    if (m_jobs)
        m_jobs->stop();
    while (m_startedModules > 0)
        m_parts.modules.at(--m_startedModules)->stop();
    if (m_hub)
        m_hub->releaseAll();
    if (m_commit)
        m_commit->flush(); // commit, then send what waited for it
    m_context.reset();
    m_jobs.reset();
    m_api.reset();
    m_hub.reset();
    m_commit.reset();
    m_service.reset();
    m_rateLimiter.reset();
    m_auth.reset();
    m_tokens.reset();
    m_store.close();
}

} // namespace Broker
