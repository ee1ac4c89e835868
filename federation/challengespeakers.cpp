#include "federation/challengespeakers.h"

#include "broker/brokermodule.h"
#include "broker/clock.h"

namespace Federation {

QList<Broker::ModuleMigration> ChallengeSpeakers::migrations()
{
    return {migration(
        2, QStringLiteral("create federation_challenge_speakers (remotes that spoke the challenge exchange)"),
        {QStringLiteral(
            "CREATE TABLE federation_challenge_speakers (identity TEXT PRIMARY KEY, address TEXT NOT "
            "NULL, hostname TEXT NOT NULL, first_at TEXT NOT NULL, last_at TEXT NOT NULL)")})};
}

ChallengeSpeakers::ChallengeSpeakers(Database database, const Broker::Clock &clock)
    : FederationTable(std::move(database), clock)
{
}

QString ChallengeSpeakers::identity(const QString &pin, const QString &addressKey)
{
    return pin.isEmpty() ? QStringLiteral("address:") + addressKey : pin;
}

bool ChallengeSpeakers::speaks(const QString &identity) const
{
    QSqlQuery query =
        prepared(QStringLiteral("SELECT 1 FROM federation_challenge_speakers WHERE identity = ?"));
    query.addBindValue(identity);
    return run(query, "looking up a challenge speaker") && query.next();
}

void ChallengeSpeakers::record(const QString &identity, const QString &addressKey, const QString &hostname)
{
    const QString now = clock().nowIso();
    QSqlQuery query = prepared(QStringLiteral(
        "INSERT INTO federation_challenge_speakers (identity, address, hostname, first_at, last_at) VALUES "
        "(?, ?, ?, ?, ?) ON CONFLICT (identity) DO UPDATE SET address = excluded.address, hostname = "
        "excluded.hostname, last_at = excluded.last_at"));
    query.addBindValue(identity);
    query.addBindValue(addressKey);
    query.addBindValue(hostname);
    query.addBindValue(now);
    query.addBindValue(now);
    run(query, "recording a remote that speaks the challenge exchange");
}

} // namespace Federation
