#include "federation/ignoredmachines.h"

#include "broker/brokermodule.h"
#include "broker/clock.h"

#include <QJsonObject>

namespace Federation {

QList<Broker::ModuleMigration> IgnoredMachines::migrations()
{
    return {migration(
        5, QStringLiteral("create federation_ignored (machines whose pairing request was ignored)"),
        {QStringLiteral("CREATE TABLE federation_ignored (pin TEXT PRIMARY KEY, hostname TEXT NOT NULL, "
                        "address TEXT NOT NULL, ignored_at TEXT NOT NULL)")})};
}

IgnoredMachines::IgnoredMachines(Database database, const Broker::Clock &clock)
    : FederationTable(std::move(database), clock)
{
}

void IgnoredMachines::add(const QString &pin, const QString &hostname, const QString &address)
{
    if (pin.isEmpty())
        return;
    QSqlQuery insert = prepared(QStringLiteral("INSERT OR REPLACE INTO federation_ignored (pin, hostname, "
                                               "address, ignored_at) VALUES (?, ?, ?, ?)"));
    insert.addBindValue(pin);
    insert.addBindValue(text(hostname));
    insert.addBindValue(text(address));
    insert.addBindValue(clock().nowIso());
    if (!run(insert, "recording an ignored machine"))
        return;
    QSqlQuery overflow = prepared(QStringLiteral("DELETE FROM federation_ignored WHERE pin NOT IN (SELECT "
                                                 "pin FROM federation_ignored ORDER BY ignored_at "
                                                 "DESC, rowid DESC LIMIT ?)"));
    overflow.addBindValue(kMaxEntries);
    run(overflow, "bounding the ignored machines");
}

bool IgnoredMachines::remove(const QString &pin)
{
    QSqlQuery query = prepared(QStringLiteral("DELETE FROM federation_ignored WHERE pin = ?"));
    query.addBindValue(pin);
    return run(query, "un-ignoring a machine") && query.numRowsAffected() > 0;
}

bool IgnoredMachines::isIgnored(const QString &pin) const
{
    if (pin.isEmpty())
        return false;
    QSqlQuery query = prepared(QStringLiteral("SELECT 1 FROM federation_ignored WHERE pin = ?"));
    query.addBindValue(pin);
    return run(query, "looking up an ignored machine") && query.next();
}

QJsonArray IgnoredMachines::toJson() const
{
    QJsonArray rows;
    QSqlQuery query = prepared(QStringLiteral("SELECT pin, hostname, address, ignored_at FROM "
                                              "federation_ignored ORDER BY ignored_at DESC, rowid DESC"));
    if (!run(query, "listing ignored machines"))
        return rows;
    while (query.next())
        rows.append(QJsonObject {{QStringLiteral("fingerprint"), query.value(0).toString()},
                                 {QStringLiteral("hostname"), query.value(1).toString()},
                                 {QStringLiteral("address"), query.value(2).toString()},
                                 {QStringLiteral("ignored_at"), query.value(3).toString()}});
    return rows;
}

} // namespace Federation
