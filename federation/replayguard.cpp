#include "federation/replayguard.h"

#include "broker/brokermodule.h"
#include "broker/clock.h"

#include <QJsonObject>

namespace Federation {

QList<Broker::ModuleMigration> ReplayGuard::migrations()
{
    return {migration(
        1, QStringLiteral("create the federation tables (remotes, pins, relay nonces, legacy use)"),
        {QStringLiteral("CREATE TABLE federation_remotes (host TEXT NOT NULL, port INTEGER NOT NULL, "
                        "hostname TEXT, last_connected_at TEXT, PRIMARY KEY (host, port))"),
         QStringLiteral("CREATE TABLE federation_pins (host TEXT NOT NULL, port INTEGER NOT NULL, "
                        "spki_sha256 TEXT NOT NULL, confirmed INTEGER NOT NULL DEFAULT 0, "
                        "pinned_at TEXT NOT NULL, PRIMARY KEY (host, port))"),
         QStringLiteral("CREATE TABLE federation_relay_nonces (sender TEXT NOT NULL, nonce TEXT NOT NULL, "
                        "ts INTEGER NOT NULL, PRIMARY KEY (sender, nonce))"),
         QStringLiteral("CREATE INDEX federation_relay_nonces_ts ON federation_relay_nonces (ts)"),
         QStringLiteral("CREATE TABLE federation_replay_senders (sender TEXT PRIMARY KEY, "
                        "first_at TEXT NOT NULL)"),
         QStringLiteral("CREATE TABLE federation_legacy_use (peer TEXT NOT NULL, kind TEXT NOT NULL, "
                        "uses INTEGER NOT NULL, first_at TEXT NOT NULL, last_at TEXT NOT NULL, "
                        "PRIMARY KEY (peer, kind))")})};
}

ReplayGuard::ReplayGuard(Database database, const Broker::Clock &clock)
    : FederationTable(std::move(database), clock)
{
}

QString ReplayGuard::refusalMessage(ReplayRefusal refusal)
{
    switch (refusal) {
    case ReplayRefusal::Stale:
        return QStringLiteral(
            "Relay timestamp outside the allowed window (±300 s): check both machines' clocks");
    case ReplayRefusal::Replayed:
        return QStringLiteral("Replayed message");
    case ReplayRefusal::Required:
        return QStringLiteral("Relay without ts/nonce refused: this sender sent them before, or "
                              "federation.accept_legacy is off");
    case ReplayRefusal::WrongMachine:
        return QStringLiteral("Relay addressed to another machine");
    case ReplayRefusal::Database:
        return QStringLiteral("The broker could not record the relay's nonce; try again");
    }
    return {};
}

std::expected<void, ReplayRefusal> ReplayGuard::admit(const QString &sender, const QString &nonce, qint64 ts)
{
    const qint64 now = clock().msecsSinceEpoch();
    if (ts < now - kWindowMs || ts > now + kWindowMs)
        return std::unexpected(ReplayRefusal::Stale);
    QSqlQuery insert = prepared(
        QStringLiteral("INSERT OR IGNORE INTO federation_relay_nonces (sender, nonce, ts) VALUES (?, ?, ?)"));
    insert.addBindValue(sender);
    insert.addBindValue(nonce);
    insert.addBindValue(ts);
    if (!run(insert, "recording a relay nonce"))
        return std::unexpected(ReplayRefusal::Database);
    if (insert.numRowsAffected() == 0)
        return std::unexpected(ReplayRefusal::Replayed);
    QSqlQuery known = prepared(
        QStringLiteral("INSERT OR IGNORE INTO federation_replay_senders (sender, first_at) VALUES (?, ?)"));
    known.addBindValue(sender);
    known.addBindValue(clock().nowIso());
    run(known, "recording a replay-aware sender");
    return {};
}

bool ReplayGuard::sendsReplayFields(const QString &sender)
{
    QSqlQuery query = prepared(QStringLiteral("SELECT 1 FROM federation_replay_senders WHERE sender = ?"));
    query.addBindValue(sender);
    return run(query, "looking up a replay-aware sender") && query.next();
}

void ReplayGuard::purgeExpired()
{
    QSqlQuery query = prepared(QStringLiteral("DELETE FROM federation_relay_nonces WHERE ts < ?"));
    query.addBindValue(clock().msecsSinceEpoch() - kKeepMs);
    run(query, "purging relay nonces");
}

bool ReplayGuard::recordLegacyUse(const QString &peer, const QString &kind)
{
    const QString now = clock().nowIso();
    QSqlQuery update = prepared(QStringLiteral(
        "UPDATE federation_legacy_use SET uses = uses + 1, last_at = ? WHERE peer = ? AND kind = ?"));
    update.addBindValue(now);
    update.addBindValue(peer);
    update.addBindValue(kind);
    if (run(update, "counting a legacy use") && update.numRowsAffected() > 0)
        return false;
    QSqlQuery insert = prepared(QStringLiteral(
        "INSERT INTO federation_legacy_use (peer, kind, uses, first_at, last_at) VALUES (?, ?, 1, ?, ?)"));
    insert.addBindValue(peer);
    insert.addBindValue(kind);
    insert.addBindValue(now);
    insert.addBindValue(now);
    return run(insert, "recording a legacy use");
}

QJsonArray ReplayGuard::legacyUses() const
{
    QJsonArray uses;
    QSqlQuery query = prepared(QStringLiteral(
        "SELECT peer, kind, uses, first_at, last_at FROM federation_legacy_use ORDER BY peer, kind"));
    if (!run(query, "listing legacy uses"))
        return uses;
    while (query.next()) {
        uses.append(QJsonObject {{QStringLiteral("peer"), query.value(0).toString()},
                                 {QStringLiteral("kind"), query.value(1).toString()},
                                 {QStringLiteral("uses"), query.value(2).toLongLong()},
                                 {QStringLiteral("first_at"), query.value(3).toString()},
                                 {QStringLiteral("last_at"), query.value(4).toString()}});
    }
    return uses;
}

} // namespace Federation
