#include "federation/federationtable.h"

#include "broker/brokermodule.h"
#include "federation/federationlogging.h"

#include <QSqlError>

namespace Federation {

Broker::ModuleMigration FederationTable::migration(int version, const QString &what,
                                                   const QStringList &statements)
{
    return {version, what, [statements](QSqlDatabase &db) -> Broker::Result<void> {
                for (const QString &sql : statements) {
                    QSqlQuery query(db);
                    if (!query.exec(sql))
                        return Broker::fail(Broker::ErrorKind::Database, query.lastError().text());
                }
                return {};
            }};
}

FederationTable::FederationTable(Database database, const Broker::Clock &clock)
    : m_database(std::move(database)), m_clock(clock)
{
}

QSqlQuery FederationTable::prepared(const QString &sql) const
{
    QSqlQuery query(m_database());
    query.prepare(sql);
    return query;
}

bool FederationTable::run(QSqlQuery &query, const char *what)
{
    if (query.exec())
        return true;
    qCWarning(lcFederation).noquote() << what << "failed:" << query.lastError().text();
    return false;
}

} // namespace Federation
