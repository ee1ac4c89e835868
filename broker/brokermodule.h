#pragma once

#include "broker/routes.h"
#include "common/result.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <functional>

namespace Broker {

class BrokerServer;
class Clock;

// One step of a module's own schema: its own tables, its own version track (the table
// module_versions(name, version)); the core's PRAGMA user_version track is never touched, so a
// claude-peers 0.7 broker still opens the file. Steps run in order at start, each in its own
// write transaction on the broker's one SQLite connection; a failed step rolls back and the
// broker refuses to start, naming the module, the step and SQLite's reason.
struct ModuleMigration
{
    int version = 0; // 1, 2, 3, … without gaps
    QString what; // in plain words, for the error and the log ("create table remotes")
    std::function<Result<void>(QSqlDatabase &db)> apply;
};

// Periodic work on the broker's event loop, from the module's start to its stop: first run one
// interval after start, then every interval, measured by the broker's clock (a test's
// ManualClock moves it; BrokerServer::runDueJobs() then runs what is due). A run that falls
// behind is not repeated to catch up.
struct ModuleJob
{
    QString name; // for the log
    qint64 intervalMs = 0; // > 0
    std::function<void()> run; // must not throw; errors are the module's to log
};

// What a started module may use, on the broker's thread only.
class ModuleContext
{
public:
    virtual ~ModuleContext() = default;
    virtual BrokerServer &server() = 0;
    virtual const Clock &clock() const = 0;
    // The broker's one writer. Writes made while a request is handled join that pass's group
    // commit (its answers go out after the commit); elsewhere they autocommit. Drop every copy
    // in stop(): the connection closes after it.
    virtual QSqlDatabase database() const = 0;
};

// A module plugged into the broker by a composition root (app/), so that the broker library
// never depends on a module: federation/, openchamber/, tests. BrokerServer::addModule() before
// start(); start() runs every module's migrations, starts the modules in the order added,
// registers their routes and jobs, then listens; stop() stops them in reverse order.
class BrokerModule
{
public:
    virtual ~BrokerModule() = default;

    // [a-z0-9-]+, fixed forever: the module's row in module_versions, and its name in errors.
    virtual QString name() const = 0;
    virtual QList<ModuleMigration> migrations() const { return {}; }
    // After the migrations, before routes() and jobs(). A failure stops the broker's start.
    virtual Result<void> start(ModuleContext &context)
    {
        Q_UNUSED(context);
        return {};
    }
    // Routes on the broker's HTTP server; a path the broker (or another module) already serves
    // with the same method refuses the start.
    virtual QList<Route> routes() { return {}; }
    virtual QList<ModuleJob> jobs() { return {}; }
    // SIGHUP / POST /reload, after the broker re-read its token and config: the module re-reads
    // its own settings and applies what it can without a restart. Routes and jobs stay as
    // registered at start.
    virtual void reload() { }
    // The broker stops: no more requests or jobs; kept responders get no answer from the
    // module after this (the broker closes their connections). A host may start the same
    // server, and so the module, again later (the tray after a hand-over).
    virtual void stop() { }
};

} // namespace Broker
