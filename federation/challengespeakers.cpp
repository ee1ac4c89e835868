#include "challengespeakers.h"

#include "brokermodule.h"
#include "clock.h"
#include "federationlogging.h"

#include <QSqlError>
#include <QSqlQuery>

namespace Federation {

QList<Broker::ModuleMigration> ChallengeSpeakers::migrations()
{
    return {
        {2,
         QStringLiteral("create federation_challenge_speakers (remotes that spoke the challenge exchange)"),
         [](QSqlDatabase &db) -> Broker::Result<void> {
             QSqlQuery query(db);
             if (!query.exec(QStringLiteral(
                     "CREATE TABLE federation_challenge_speakers (identity TEXT PRIMARY KEY, address TEXT "
                     "NOT "
                     "NULL, hostname TEXT NOT NULL, first_at TEXT NOT NULL, last_at TEXT NOT NULL)")))
                 return Broker::fail(Broker::ErrorKind::Database, query.lastError().text());
             return {};
         }},
    };
}

ChallengeSpeakers::ChallengeSpeakers(std::function<QSqlDatabase()> database, const Broker::Clock &clock)
    : m_database(std::move(database)), m_clock(clock)
{
}

QString ChallengeSpeakers::identity(const QString &pin, const QString &addressKey)
{
    return pin.isEmpty() ? QStringLiteral("address:") + addressKey : pin;
}

bool ChallengeSpeakers::speaks(const QString &identity) const
{
    QSqlQuery query(m_database());
    query.prepare(QStringLiteral("SELECT 1 FROM federation_challenge_speakers WHERE identity = ?"));
    query.addBindValue(identity);
    return query.exec() && query.next();
}

void ChallengeSpeakers::record(const QString &identity, const QString &addressKey, const QString &hostname)
{
    const QString now = m_clock.nowIso();
    QSqlQuery query(m_database());
    query.prepare(QStringLiteral(
        "INSERT INTO federation_challenge_speakers (identity, address, hostname, first_at, last_at) VALUES "
        "(?, ?, ?, ?, ?) ON CONFLICT (identity) DO UPDATE SET address = excluded.address, hostname = "
        "excluded.hostname, last_at = excluded.last_at"));
    query.addBindValue(identity);
    query.addBindValue(addressKey);
    query.addBindValue(hostname);
    query.addBindValue(now);
    query.addBindValue(now);
    if (!query.exec())
        qCWarning(lcFederation).noquote()
            << "recording that" << addressKey
            << "speaks the challenge exchange failed:" << query.lastError().text();
}

} // namespace Federation
