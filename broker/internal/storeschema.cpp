#include "broker/internal/storeschema.h"

#include <QSqlQuery>
#include <QStringList>

#include <functional>

namespace Broker {

Q_LOGGING_CATEGORY(lcStore, "peers.broker.store", QtInfoMsg)

namespace StoreSchema {
namespace {

struct Column
{
    const char *table;
    const char *name;
    const char *definition; // as the reference's ALTER TABLE adds it
};

// The columns the reference adds with "try ALTER, ignore error", in its order. A database
// made by an older reference lacks some of them; we add exactly those (checked with
// PRAGMA table_info, not by ignoring errors, so a real failure is reported).
constexpr Column referenceAlteredColumns[] = {
    {"peers", "session_name", "TEXT DEFAULT ''"},  {"peers", "channel_push", "TEXT DEFAULT 'unknown'"},
    {"peers", "version", "TEXT DEFAULT ''"},       {"messages", "type", "TEXT NOT NULL DEFAULT 'text'"},
    {"messages", "metadata", "TEXT DEFAULT NULL"}, {"messages", "reply_to", "INTEGER DEFAULT NULL"},
};

// Columns every reference version has had since the first one; a table named like ours
// without them belongs to something else and is not touched.
constexpr Column coreColumns[] = {
    {"peers", "id", ""},
    {"peers", "pid", ""},
    {"peers", "cwd", ""},
    {"peers", "git_root", ""},
    {"peers", "tty", ""},
    {"peers", "summary", ""},
    {"peers", "registered_at", ""},
    {"peers", "last_seen", ""},
    {"messages", "id", ""},
    {"messages", "from_id", ""},
    {"messages", "to_id", ""},
    {"messages", "text", ""},
    {"messages", "sent_at", ""},
    {"messages", "delivered", ""},
};

// The reference's final column order (its CREATE TABLE plus ALTERs). No FOREIGN KEY clauses:
// from_id holds "cli", "system" and "host:peer", and foreign_keys stays off anyway.
const char *const createPeers = R"(CREATE TABLE IF NOT EXISTS peers (
    id TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    cwd TEXT NOT NULL,
    git_root TEXT,
    tty TEXT,
    summary TEXT NOT NULL DEFAULT '',
    registered_at TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    session_name TEXT DEFAULT '',
    channel_push TEXT DEFAULT 'unknown',
    version TEXT DEFAULT ''
))";

const char *const createMessages = R"(CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    from_id TEXT NOT NULL,
    to_id TEXT NOT NULL,
    text TEXT NOT NULL,
    type TEXT NOT NULL DEFAULT 'text',
    metadata TEXT DEFAULT NULL,
    reply_to INTEGER DEFAULT NULL,
    sent_at TEXT NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0
))";

const char *const version2Indexes[] = {
    // undelivered(to_id): the delivery path
    "CREATE INDEX IF NOT EXISTS idx_messages_to_delivered ON messages(to_id, delivered)",
    // purge and orphan sweep
    "CREATE INDEX IF NOT EXISTS idx_messages_delivered_sent ON messages(delivered, sent_at)",
    // registration's eviction lookups
    "CREATE INDEX IF NOT EXISTS idx_peers_tty ON peers(tty)",
    "CREATE INDEX IF NOT EXISTS idx_peers_pid ON peers(pid)",
};

// Partial indexes: a row enters the delivery index when stored and leaves it when
// acknowledged, and enters the purge index then; the old full indexes on `delivered` took two
// index updates per insert and four per acknowledgement (two b-tree pages more per commit).
const char *const version4Statements[] = {
    "DROP INDEX IF EXISTS idx_messages_to_delivered",
    "DROP INDEX IF EXISTS idx_messages_delivered_sent",
    // undelivered(to_id) ordered by id (the rowid every index entry carries), orphans
    "CREATE INDEX IF NOT EXISTS idx_messages_undelivered ON messages(to_id) WHERE delivered = 0",
    // purge of delivered rows by age
    "CREATE INDEX IF NOT EXISTS idx_messages_delivered_at ON messages(sent_at) WHERE delivered = 1",
};

Result<void> exec(QSqlDatabase &db, const QString &sql, const QString &what)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        return std::unexpected(databaseError(what, query.lastError()));
    return {};
}

Result<QStringList> columnNames(QSqlDatabase &db, const QString &table)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA table_info(%1)").arg(table)))
        return std::unexpected(
            databaseError(QStringLiteral("Reading the columns of %1").arg(table), query.lastError()));
    QStringList names;
    while (query.next())
        names << query.value(1).toString();
    return names;
}

Result<void> migrateTo1(QSqlDatabase &db)
{
    for (const char *sql : {createPeers, createMessages}) {
        if (auto r = exec(db, QString::fromLatin1(sql), QStringLiteral("Creating the tables")); !r)
            return r;
    }
    for (const Column &column : referenceAlteredColumns) {
        const QString table = QString::fromLatin1(column.table);
        const QString name = QString::fromLatin1(column.name);
        auto names = columnNames(db, table);
        if (!names)
            return std::unexpected(names.error());
        if (names->contains(name))
            continue;
        qCInfo(lcStore) << "Adding column" << table << name << "to a reference database";
        const QString sql = QStringLiteral("ALTER TABLE %1 ADD COLUMN %2 %3")
                                .arg(table, name, QString::fromLatin1(column.definition));
        if (auto r = exec(db, sql, QStringLiteral("Adding column %1.%2").arg(table, name)); !r)
            return r;
    }
    for (const Column &column : coreColumns) {
        auto names = columnNames(db, QString::fromLatin1(column.table));
        if (!names)
            return std::unexpected(names.error());
        if (!names->contains(QString::fromLatin1(column.name)))
            return fail(ErrorKind::Database,
                        QStringLiteral("The database's %1 table has no column %2: it was not made by "
                                       "claude-peers. Point CLAUDE_PEERS_DB at another file.")
                            .arg(QString::fromLatin1(column.table), QString::fromLatin1(column.name)));
    }
    return {};
}

Result<void> migrateTo2(QSqlDatabase &db)
{
    auto names = columnNames(db, QStringLiteral("peers"));
    if (!names)
        return std::unexpected(names.error());
    if (!names->contains(QStringLiteral("secret_hash"))) {
        if (auto r = exec(db, QStringLiteral("ALTER TABLE peers ADD COLUMN secret_hash TEXT DEFAULT ''"),
                          QStringLiteral("Adding column peers.secret_hash"));
            !r)
            return r;
    }
    for (const char *sql : version2Indexes) {
        if (auto r = exec(db, QString::fromLatin1(sql), QStringLiteral("Creating an index")); !r)
            return r;
    }
    return {};
}

Result<void> migrateTo3(QSqlDatabase &db)
{
    auto names = columnNames(db, QStringLiteral("peers"));
    if (!names)
        return std::unexpected(names.error());
    if (names->contains(QStringLiteral("client")))
        return {};
    return exec(db, QStringLiteral("ALTER TABLE peers ADD COLUMN client TEXT DEFAULT ''"),
                QStringLiteral("Adding column peers.client"));
}

Result<void> migrateTo4(QSqlDatabase &db)
{
    for (const char *sql : version4Statements) {
        if (auto r = exec(db, QString::fromLatin1(sql), QStringLiteral("Replacing the message indexes")); !r)
            return r;
    }
    return {};
}

// Columns a 0.7 broker does not know: it inserts and selects by name, so it still uses the file.
constexpr Column version5Columns[] = {
    {"peers", "attention", "TEXT DEFAULT ''"},
    {"peers", "attention_since", "TEXT DEFAULT ''"},
    {"peers", "attention_message", "TEXT DEFAULT ''"},
};

// Version 6: how messages reach each session's model (Peer::delivery).
constexpr Column version6Columns[] = {
    {"peers", "delivery", "TEXT DEFAULT ''"},
};

template<std::size_t N> Result<void> addPeerColumns(QSqlDatabase &db, const Column (&columns)[N])
{
    auto names = columnNames(db, QStringLiteral("peers"));
    if (!names)
        return std::unexpected(names.error());
    for (const Column &column : columns) {
        const QString name = QString::fromLatin1(column.name);
        if (names->contains(name))
            continue;
        const QString sql = QStringLiteral("ALTER TABLE peers ADD COLUMN %1 %2")
                                .arg(name, QString::fromLatin1(column.definition));
        if (auto r = exec(db, sql, QStringLiteral("Adding column peers.%1").arg(name)); !r)
            return r;
    }
    return {};
}

Result<void> migrateTo5(QSqlDatabase &db)
{
    return addPeerColumns(db, version5Columns);
}

Result<void> migrateTo6(QSqlDatabase &db)
{
    return addPeerColumns(db, version6Columns);
}

// One step in its own write transaction. BEGIN IMMEDIATE takes the write lock first, then
// user_version is read again: another process may have upgraded the file meanwhile.
Result<void> runStep(QSqlDatabase &db, int target, const std::function<Result<void>(QSqlDatabase &)> &step)
{
    if (auto r = exec(db, QStringLiteral("BEGIN IMMEDIATE"), QStringLiteral("Starting the upgrade")); !r)
        return r;
    auto rollback = [&db] {
        QSqlQuery query(db);
        query.exec(QStringLiteral("ROLLBACK"));
    };
    auto version = userVersion(db);
    if (!version) {
        rollback();
        return std::unexpected(version.error());
    }
    if (*version >= target) {
        rollback();
        return {};
    }
    if (auto r = step(db); !r) {
        rollback();
        return r;
    }
    if (auto r = exec(db, QStringLiteral("PRAGMA user_version = %1").arg(target),
                      QStringLiteral("Setting the schema version"));
        !r) {
        rollback();
        return r;
    }
    if (auto r = exec(db, QStringLiteral("COMMIT"),
                      QStringLiteral("Committing the upgrade to version %1").arg(target));
        !r) {
        rollback();
        return r;
    }
    qCInfo(lcStore) << "Database upgraded to schema version" << target;
    return {};
}

} // namespace

QString whatToDo(const QSqlError &error)
{
    // QSQLITE reports sqlite3_errcode(), possibly an extended code: the low byte is the primary.
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok) & 0xff;
    if (!ok)
        return {};
    switch (code) {
    case 5: // SQLITE_BUSY
    case 6: // SQLITE_LOCKED
        return QStringLiteral("Another program holds a lock on the database (an sqlite3 shell, a backup "
                              "tool, a claude-peers 0.7 broker?): close it and try again.");
    case 8: // SQLITE_READONLY
        return QStringLiteral("The database cannot be written: check the permissions of the file and "
                              "its directory.");
    case 10: // SQLITE_IOERR
        return QStringLiteral("The disk reported an error: check it and its free space.");
    case 11: // SQLITE_CORRUPT
    case 26: // SQLITE_NOTADB
        return QStringLiteral("The file is damaged or is not a claude-peers database. It was left as it "
                              "is: move it away to start with a fresh one, restore it from a backup, or "
                              "set CLAUDE_PEERS_DB.");
    case 13: // SQLITE_FULL
        return QStringLiteral("The disk holding the database is full: free some space. Nothing of this "
                              "request was saved; the broker goes on once there is room.");
    case 14: // SQLITE_CANTOPEN
        return QStringLiteral("Check that the directory exists and is writable, or set CLAUDE_PEERS_DB.");
    default:
        return {};
    }
}

Error databaseError(const QString &what, const QSqlError &error)
{
    // databaseText() is SQLite's own words ("database is locked"); driverText() only Qt's
    // generic "Unable to fetch row".
    const QString text = error.databaseText().isEmpty() ? error.driverText() : error.databaseText();
    const QString hint = whatToDo(error);
    Error e {ErrorKind::Database,
             QStringLiteral("%1 failed: %2").arg(what, text) +
                 (hint.isEmpty() ? QString() : QStringLiteral(". ") + hint)};
    qCWarning(lcStore).noquote() << e.message;
    return e;
}

Result<int> userVersion(QSqlDatabase &db)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next())
        return std::unexpected(
            databaseError(QStringLiteral("Reading the schema version"), query.lastError()));
    return query.value(0).toInt();
}

Result<int> migrate(QSqlDatabase &db)
{
    auto version = userVersion(db);
    if (!version)
        return version;
    if (*version > currentVersion)
        return fail(ErrorKind::Database,
                    QStringLiteral("The database %1 has schema version %2, but this claude-peers knows "
                                   "versions up to %3. It was written by a newer claude-peers: upgrade "
                                   "claude-peers to use it.")
                        .arg(db.databaseName())
                        .arg(*version)
                        .arg(currentVersion));
    const std::function<Result<void>(QSqlDatabase &)> steps[] = {migrateTo1, migrateTo2, migrateTo3,
                                                                 migrateTo4, migrateTo5, migrateTo6};
    for (int target = *version + 1; target <= currentVersion; ++target) {
        if (auto r = runStep(db, target, steps[target - 1]); !r)
            return std::unexpected(r.error());
    }
    return userVersion(db);
}

} // namespace StoreSchema
} // namespace Broker
