#include "federation/revokedremotes.h"

#include "broker/brokermodule.h"
#include "broker/clock.h"

#include <QJsonObject>

namespace Federation {

QList<Broker::ModuleMigration> RevokedRemotes::migrations()
{
    return {migration(
        3, QStringLiteral("create federation_revoked (paired brokers the user revoked)"),
        {QStringLiteral("CREATE TABLE federation_revoked (address TEXT PRIMARY KEY, hostname TEXT NOT "
                        "NULL, pin TEXT NOT NULL, revoked_at TEXT NOT NULL)")})};
}

RevokedRemotes::RevokedRemotes(Database database, const Broker::Clock &clock)
    : FederationTable(std::move(database), clock)
{
}

void RevokedRemotes::add(const QString &host, int port, const QString &hostname, const QString &pin)
{
    QSqlQuery query = prepared(
        QStringLiteral("INSERT OR REPLACE INTO federation_revoked (address, hostname, pin, revoked_at) "
                       "VALUES (?, ?, ?, ?)"));
    query.addBindValue(QStringLiteral("%1:%2").arg(host).arg(port));
    query.addBindValue(hostname);
    query.addBindValue(pin);
    query.addBindValue(clock().nowIso());
    run(query, "recording the revocation");
}

void RevokedRemotes::lift(const QString &pin, const QString &addressKey, const QString &hostname)
{
    QSqlQuery query = prepared(
        QStringLiteral("DELETE FROM federation_revoked WHERE (pin <> '' AND pin = ?) OR address = ? OR "
                       "(hostname <> '' AND hostname = ?)"));
    query.addBindValue(pin);
    query.addBindValue(addressKey);
    query.addBindValue(hostname);
    run(query, "lifting a revocation");
}

QString RevokedRemotes::refusal(const QString &hostname, const QString &pin) const
{
    if (hostname.isEmpty() && pin.isEmpty())
        return {};
    QSqlQuery query =
        prepared(QStringLiteral("SELECT hostname FROM federation_revoked WHERE (pin <> '' AND pin = "
                                "?) OR (hostname <> '' AND hostname = ?) LIMIT 1"));
    query.addBindValue(pin);
    query.addBindValue(hostname);
    if (!run(query, "looking up a revocation") || !query.next())
        return {};
    return QStringLiteral("The pairing of %1 was revoked on this machine; pair again with a new code "
                          "(claude-peers federation pair-code there)")
        .arg(query.value(0).toString());
}

QJsonArray RevokedRemotes::toJson() const
{
    QJsonArray rows;
    QSqlQuery query = prepared(QStringLiteral("SELECT address, hostname, pin, revoked_at FROM "
                                              "federation_revoked ORDER BY revoked_at DESC LIMIT 256"));
    if (!run(query, "listing revocations"))
        return rows;
    while (query.next())
        rows.append(QJsonObject {{QStringLiteral("address"), query.value(0).toString()},
                                 {QStringLiteral("hostname"), query.value(1).toString()},
                                 {QStringLiteral("fingerprint"), query.value(2).toString()},
                                 {QStringLiteral("revoked_at"), query.value(3).toString()}});
    return rows;
}

} // namespace Federation
