#include "revokedremotes.h"

#include "brokermodule.h"
#include "clock.h"
#include "federationlogging.h"

#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>

namespace Federation {

QList<Broker::ModuleMigration> RevokedRemotes::migrations()
{
    return {
        {3, QStringLiteral("create federation_revoked (paired brokers the user revoked)"),
         [](QSqlDatabase &db) -> Broker::Result<void> {
             QSqlQuery query(db);
             if (!query.exec(QStringLiteral(
                     "CREATE TABLE federation_revoked (address TEXT PRIMARY KEY, hostname TEXT NOT NULL, "
                     "pin TEXT NOT NULL, revoked_at TEXT NOT NULL)")))
                 return Broker::fail(Broker::ErrorKind::Database, query.lastError().text());
             return {};
         }},
    };
}

RevokedRemotes::RevokedRemotes(std::function<QSqlDatabase()> database, const Broker::Clock &clock)
    : m_database(std::move(database)), m_clock(clock)
{
}

void RevokedRemotes::add(const QString &host, int port, const QString &hostname, const QString &pin)
{
    QSqlQuery query(m_database());
    query.prepare(
        QStringLiteral("INSERT OR REPLACE INTO federation_revoked (address, hostname, pin, revoked_at) "
                       "VALUES (?, ?, ?, ?)"));
    query.addBindValue(QStringLiteral("%1:%2").arg(host).arg(port));
    query.addBindValue(hostname);
    query.addBindValue(pin);
    query.addBindValue(m_clock.nowIso());
    if (!query.exec())
        qCWarning(lcFederation).noquote() << "recording the revocation failed:" << query.lastError().text();
}

void RevokedRemotes::lift(const QString &pin, const QString &addressKey, const QString &hostname)
{
    QSqlQuery query(m_database());
    query.prepare(
        QStringLiteral("DELETE FROM federation_revoked WHERE (pin <> '' AND pin = ?) OR address = ? OR "
                       "(hostname <> '' AND hostname = ?)"));
    query.addBindValue(pin);
    query.addBindValue(addressKey);
    query.addBindValue(hostname);
    if (!query.exec())
        qCWarning(lcFederation).noquote() << "lifting a revocation failed:" << query.lastError().text();
}

QString RevokedRemotes::refusal(const QString &hostname, const QString &pin) const
{
    if (hostname.isEmpty() && pin.isEmpty())
        return {};
    QSqlQuery query(m_database());
    query.prepare(QStringLiteral("SELECT hostname FROM federation_revoked WHERE (pin <> '' AND pin = ?) OR "
                                 "(hostname <> '' AND hostname = ?) LIMIT 1"));
    query.addBindValue(pin);
    query.addBindValue(hostname);
    if (!query.exec() || !query.next())
        return {};
    return QStringLiteral("The pairing of %1 was revoked on this machine; pair again with a new code "
                          "(claude-peers federation pair-code there)")
        .arg(query.value(0).toString());
}

QJsonArray RevokedRemotes::toJson() const
{
    QJsonArray rows;
    QSqlQuery query(m_database());
    if (!query.exec(QStringLiteral("SELECT address, hostname, pin, revoked_at FROM federation_revoked ORDER "
                                   "BY revoked_at DESC LIMIT 256")))
        return rows;
    while (query.next())
        rows.append(QJsonObject {{QStringLiteral("address"), query.value(0).toString()},
                                 {QStringLiteral("hostname"), query.value(1).toString()},
                                 {QStringLiteral("fingerprint"), query.value(2).toString()},
                                 {QStringLiteral("revoked_at"), query.value(3).toString()}});
    return rows;
}

} // namespace Federation
