#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>

#include <functional>

namespace Broker {
class Clock;
struct ModuleMigration;
} // namespace Broker

namespace Federation {

// What each of the federation's tables in the broker's SQLite file has in common (module
// "federation": ReplayGuard's migration 1, ChallengeSpeakers' 2, RevokedRemotes' 3, AttemptLog's
// 4): the broker's one connection, reached through a function so that no copy outlives the
// module's stop(); the broker's clock; and a failed statement logged with what it was for, while
// the caller decides what the failure means (a refusal, a "not known", a lost audit row).
class FederationTable
{
public:
    using Database = std::function<QSqlDatabase()>;

    // A migration step that runs `statements` in order; the first failure is the step's error.
    static Broker::ModuleMigration migration(int version, const QString &what, const QStringList &statements);

protected:
    FederationTable(Database database, const Broker::Clock &clock);

    // A query on the broker's connection, prepared with `sql`.
    QSqlQuery prepared(const QString &sql) const;
    // Runs the query; on failure logs "<what> failed: <SQLite's reason>" and answers false.
    static bool run(QSqlQuery &query, const char *what);
    // A null QString binds as SQL NULL, which NOT NULL columns refuse and `=` never matches.
    static QString text(const QString &value) { return value.isNull() ? QStringLiteral("") : value; }
    QSqlDatabase database() const { return m_database(); }
    const Broker::Clock &clock() const { return m_clock; }

private:
    Database m_database;
    const Broker::Clock &m_clock;
};

} // namespace Federation
