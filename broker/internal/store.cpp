#include "internal/store.h"

#include "internal/storeschema.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <array>

namespace Broker {

namespace {

using StoreSchema::databaseError;

QAtomicInteger<quint64> connectionCounter;

const QString peerColumns = QStringLiteral(
    "id, pid, cwd, git_root, tty, summary, registered_at, last_seen, session_name, channel_push, version");
const QString messageColumns =
    QStringLiteral("id, from_id, to_id, text, type, metadata, reply_to, sent_at, delivered");

// QSQLITE binds a null QString as NULL, which NOT NULL columns refuse: strings are bound
// through text(), which keeps them non-null.
QVariant text(const QString &value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

// Empty = NULL for the nullable text columns (git_root, tty), as the reference stores them.
QVariant nullIfEmpty(const QString &value)
{
    return value.isEmpty() ? QVariant() : QVariant(value);
}

Peer peerFromRow(const QSqlQuery &q)
{
    Peer p;
    p.id = q.value(0).toString();
    p.pid = q.value(1).toLongLong();
    p.cwd = q.value(2).toString();
    p.gitRoot = q.value(3).toString();
    p.tty = q.value(4).toString();
    p.summary = q.value(5).toString();
    p.registeredAt = q.value(6).toString();
    p.lastSeen = q.value(7).toString();
    p.sessionName = q.value(8).toString();
    p.channelPush = q.value(9).toString();
    p.version = q.value(10).toString();
    return p;
}

Message messageFromRow(const QSqlQuery &q)
{
    Message m;
    m.id = q.value(0).toLongLong();
    m.fromId = q.value(1).toString();
    m.toId = q.value(2).toString();
    m.text = q.value(3).toString();
    m.type = q.value(4).toString();
    if (m.type.isEmpty())
        m.type = QStringLiteral("text");
    const QVariant metadata = q.value(5);
    if (!metadata.isNull()) {
        const QJsonDocument doc = QJsonDocument::fromJson(metadata.toString().toUtf8());
        if (doc.isObject())
            m.metadata = doc.object();
    }
    const QVariant replyTo = q.value(6);
    if (!replyTo.isNull())
        m.replyTo = replyTo.toLongLong();
    m.sentAt = q.value(7).toString();
    m.delivered = q.value(8).toLongLong() != 0;
    return m;
}

// LIKE pattern matching `text` literally anywhere; '\' is the ESCAPE character.
QString containsPattern(const QString &text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('%'), QStringLiteral("\\%"))
        .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

// Any ISO-8601 form ("2026-03-27", "…T12:00:00Z", "…+02:00") → our fixed-width stored form
// "YYYY-MM-DDTHH:MM:SS.mmmZ". A time without offset counts as UTC.
Result<QString> normalizedTimestamp(const QString &iso, const QString &field)
{
    QDateTime dt = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!dt.isValid())
        return fail(
            QStringLiteral("invalid"),
            QStringLiteral("%1 must be an ISO-8601 timestamp such as 2026-03-27T12:00:00.000Z, not \"%2\"")
                .arg(field, iso));
    if (dt.timeSpec() == Qt::LocalTime)
        dt.setTimeSpec(Qt::UTC);
    return dt.toUTC().toString(Qt::ISODateWithMs);
}

Error notOpen()
{
    return Error {QStringLiteral("database"), QStringLiteral("The message store is not open.")};
}

// Every statement of the store, prepared once at open and reused (sqlite3_reset + rebind
// per call is far cheaper than parsing SQL per call).
struct Statements
{
    explicit Statements(const QSqlDatabase &db)
        : begin(db),
          commit(db),
          rollback(db),
          peerById(db),
          allPeers(db),
          peerBySecret(db),
          touchPeer(db),
          setSummary(db),
          setSessionName(db),
          setChannelPush(db),
          deletePeer(db),
          samePid(db),
          sameTty(db),
          insertPeer(db),
          insertMessage(db),
          messageExists(db),
          messageById(db),
          undelivered(db),
          acknowledge(db),
          history(db),
          orphans(db),
          deleteMessage(db),
          deleteUndeliveredFor(db),
          purge(db),
          counts(db)
    {
    }

    QSqlQuery begin, commit, rollback;
    QSqlQuery peerById, allPeers, peerBySecret, touchPeer, setSummary, setSessionName, setChannelPush,
        deletePeer, samePid, sameTty, insertPeer;
    QSqlQuery insertMessage, messageExists, messageById, undelivered, acknowledge, history, orphans,
        deleteMessage, deleteUndeliveredFor, purge, counts;

    Result<void> prepareAll()
    {
        const std::pair<QSqlQuery *, QString> all[] = {
            // IMMEDIATE takes the write lock up front, so a transaction never fails half-way
            // on a lock upgrade; busy_timeout covers the wait.
            {&begin, QStringLiteral("BEGIN IMMEDIATE")},
            {&commit, QStringLiteral("COMMIT")},
            {&rollback, QStringLiteral("ROLLBACK")},
            {&peerById, QStringLiteral("SELECT %1 FROM peers WHERE id = ?").arg(peerColumns)},
            {&allPeers, QStringLiteral("SELECT %1 FROM peers ORDER BY rowid").arg(peerColumns)},
            {&peerBySecret,
             QStringLiteral("SELECT id FROM peers WHERE secret_hash = ? AND secret_hash != ''")},
            {&touchPeer, QStringLiteral("UPDATE peers SET last_seen = ? WHERE id = ?")},
            {&setSummary, QStringLiteral("UPDATE peers SET summary = ? WHERE id = ?")},
            {&setSessionName, QStringLiteral("UPDATE peers SET session_name = ? WHERE id = ?")},
            {&setChannelPush, QStringLiteral("UPDATE peers SET channel_push = ? WHERE id = ?")},
            {&deletePeer, QStringLiteral("DELETE FROM peers WHERE id = ?")},
            {&samePid,
             QStringLiteral(
                 "SELECT id, session_name, summary FROM peers WHERE pid = ? AND id != ? ORDER BY rowid")},
            {&sameTty,
             QStringLiteral("SELECT id, session_name, summary FROM peers "
                            "WHERE tty = ? AND pid != ? AND id != ? ORDER BY rowid")},
            {&insertPeer,
             QStringLiteral(
                 "INSERT INTO peers (id, pid, cwd, git_root, tty, session_name, summary, version, "
                 "registered_at, last_seen, secret_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")},
            {&insertMessage,
             QStringLiteral("INSERT INTO messages (from_id, to_id, text, type, metadata, reply_to, "
                            "sent_at, delivered) VALUES (?, ?, ?, ?, ?, ?, ?, 0)")},
            {&messageExists, QStringLiteral("SELECT 1 FROM messages WHERE id = ?")},
            {&messageById, QStringLiteral("SELECT %1 FROM messages WHERE id = ?").arg(messageColumns)},
            {&undelivered,
             QStringLiteral("SELECT %1 FROM messages WHERE to_id = ? AND delivered = 0 "
                            "ORDER BY id LIMIT ?")
                 .arg(messageColumns)},
            {&acknowledge,
             QStringLiteral(
                 "UPDATE messages SET delivered = 1 WHERE id = ? AND to_id = ? AND delivered = 0")},
            // An empty filter value disables its condition, so one prepared statement serves
            // every combination.
            {&history,
             QStringLiteral("SELECT %1 FROM messages WHERE "
                            "(? = '' OR from_id LIKE ? ESCAPE '\\') AND "
                            "(? = '' OR to_id LIKE ? ESCAPE '\\') AND "
                            "(? = '' OR text LIKE ? ESCAPE '\\') AND "
                            "sent_at >= ? ORDER BY id DESC LIMIT ?")
                 .arg(messageColumns)},
            {&orphans,
             QStringLiteral("SELECT %1 FROM messages m WHERE m.delivered = 0 AND m.from_id != 'system' "
                            "AND NOT EXISTS (SELECT 1 FROM peers p WHERE p.id = m.to_id) ORDER BY m.id")
                 .arg(messageColumns)},
            {&deleteMessage, QStringLiteral("DELETE FROM messages WHERE id = ?")},
            {&deleteUndeliveredFor, QStringLiteral("DELETE FROM messages WHERE to_id = ? AND delivered = 0")},
            // sent_at and the cutoff are both "YYYY-MM-DDTHH:MM:SS.mmmZ" (ours and the
            // reference's JS toISOString()): fixed width, most significant field first, so
            // string order is time order. The reference compares against datetime('now'),
            // whose "YYYY-MM-DD HH:MM:SS" sorts 'T' after ' ' and purges a day late (§13.12).
            {&purge, QStringLiteral("DELETE FROM messages WHERE delivered = 1 AND sent_at < ?")},
            {&counts,
             QStringLiteral("SELECT (SELECT COUNT(*) FROM peers), (SELECT COUNT(*) FROM messages), "
                            "(SELECT COUNT(*) FROM messages WHERE delivered != 0), "
                            "(SELECT COUNT(*) FROM messages WHERE delivered = 0)")},
        };
        for (const auto &[query, sql] : all) {
            query->setForwardOnly(true);
            if (!query->prepare(sql))
                return std::unexpected(
                    databaseError(QStringLiteral("Preparing \"%1\"").arg(sql), query->lastError()));
        }
        return {};
    }
};

Result<void> run(QSqlQuery &query, const char *what)
{
    if (!query.exec()) {
        Error e = databaseError(QString::fromLatin1(what), query.lastError());
        query.finish();
        return std::unexpected(std::move(e));
    }
    return {};
}

// Rolls back unless committed; a failed COMMIT (SQLITE_BUSY) leaves the transaction open, so
// the destructor still ends it.
class Transaction
{
public:
    explicit Transaction(Statements &s) : m_s(s) { }
    ~Transaction()
    {
        if (m_active) {
            m_s.rollback.exec();
            m_s.rollback.finish();
        }
    }
    Result<void> begin()
    {
        auto r = run(m_s.begin, "Starting a transaction");
        m_s.begin.finish();
        m_active = r.has_value();
        return r;
    }
    Result<void> commit()
    {
        auto r = run(m_s.commit, "Committing a transaction");
        m_s.commit.finish();
        if (r)
            m_active = false;
        return r;
    }

private:
    Statements &m_s;
    bool m_active = false;
};

} // namespace

class Store::Private
{
public:
    QString connectionName;
    std::unique_ptr<Statements> statements;
    int version = 0;

    Result<bool> updatePeer(QSqlQuery &query, const QString &value, const QString &id, const char *what)
    {
        query.bindValue(0, text(value));
        query.bindValue(1, text(id));
        if (auto r = run(query, what); !r)
            return std::unexpected(r.error());
        const bool changed = query.numRowsAffected() > 0;
        query.finish();
        return changed;
    }

    Result<qint64> insert(const NewMessage &m, const QString &now)
    {
        QSqlQuery &q = statements->insertMessage;
        q.bindValue(0, text(m.fromId));
        q.bindValue(1, text(m.toId));
        q.bindValue(2, text(m.text));
        q.bindValue(3, m.type.isEmpty() ? QStringLiteral("text") : m.type);
        q.bindValue(4,
                    m.metadata ? QVariant(QString::fromUtf8(
                                     QJsonDocument(*m.metadata).toJson(QJsonDocument::Compact)))
                               : QVariant());
        q.bindValue(5, m.replyTo ? QVariant(*m.replyTo) : QVariant());
        q.bindValue(6, text(now));
        if (auto r = run(q, "Storing a message"); !r)
            return std::unexpected(r.error());
        const qint64 id = q.lastInsertId().toLongLong();
        q.finish();
        return id;
    }

    Result<QList<Message>> messages(QSqlQuery &q, const char *what)
    {
        if (auto r = run(q, what); !r)
            return std::unexpected(r.error());
        QList<Message> list;
        while (q.next())
            list.append(messageFromRow(q));
        q.finish();
        return list;
    }

    Result<int> deleteEach(QSqlQuery &q, const QList<qint64> &ids, const char *what)
    {
        if (ids.isEmpty())
            return 0;
        Transaction tx(*statements);
        if (auto r = tx.begin(); !r)
            return std::unexpected(r.error());
        int changed = 0;
        for (qint64 id : ids) {
            q.bindValue(0, id);
            if (auto r = run(q, what); !r)
                return std::unexpected(r.error());
            changed += q.numRowsAffected();
        }
        q.finish();
        if (auto r = tx.commit(); !r)
            return std::unexpected(r.error());
        return changed;
    }
};

Store::Store() : d(std::make_unique<Private>()) { }

Store::~Store()
{
    close();
}

Result<void> Store::open(const QString &path)
{
    close();
    d->connectionName = QStringLiteral("peers.broker.store.%1").arg(connectionCounter.fetchAndAddRelaxed(1));
    auto opened = [&]() -> Result<void> {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), d->connectionName);
        if (!db.isValid())
            return fail(QStringLiteral("database"),
                        QStringLiteral("The Qt SQLite driver (QSQLITE) is not available: install the Qt 6 "
                                       "SQLite plugin (Debian: libqt6sql6-sqlite)."));
        db.setDatabaseName(path);
        if (!db.open())
            return std::unexpected(
                databaseError(QStringLiteral("Opening the database %1").arg(path), db.lastError()));
        QSqlQuery pragma(db);
        // busy_timeout first: every later statement, the upgrade included, waits up to 3 s for
        // a lock held by another process (a reference broker, the CLI) instead of failing.
        for (const char *sql : {"PRAGMA busy_timeout = 3000", "PRAGMA foreign_keys = OFF"}) {
            if (!pragma.exec(QString::fromLatin1(sql)))
                return std::unexpected(
                    databaseError(QStringLiteral("Opening the database %1").arg(path), pragma.lastError()));
        }
        // Refuse a newer schema before anything writes to the file (WAL switch included).
        auto found = StoreSchema::userVersion(db);
        if (!found)
            return std::unexpected(found.error());
        if (*found > StoreSchema::currentVersion)
            return std::unexpected(StoreSchema::migrate(db).error());
        if (!pragma.exec(QStringLiteral("PRAGMA journal_mode = WAL")))
            return std::unexpected(databaseError(QStringLiteral("Switching to WAL"), pragma.lastError()));
        if (pragma.next() && pragma.value(0).toString() != QLatin1String("wal"))
            qCInfo(lcStore) << "Journal mode is" << pragma.value(0).toString() << "not wal";
        // NORMAL in WAL mode: a power cut may lose the last commits, never corrupts.
        if (!pragma.exec(QStringLiteral("PRAGMA synchronous = NORMAL")))
            return std::unexpected(databaseError(QStringLiteral("Setting synchronous"), pragma.lastError()));
        pragma.finish();
        auto version = StoreSchema::migrate(db);
        if (!version)
            return std::unexpected(version.error());
        d->version = *version;
        d->statements = std::make_unique<Statements>(db);
        return d->statements->prepareAll();
    }();
    if (!opened) {
        close();
        return opened;
    }
    qCInfo(lcStore).noquote() << "Opened" << path << "schema version" << d->version;
    return {};
}

void Store::close()
{
    if (d->connectionName.isEmpty())
        return;
    d->statements.reset(); // queries must go before their connection
    {
        QSqlDatabase db = QSqlDatabase::database(d->connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(d->connectionName);
    d->connectionName.clear();
    d->version = 0;
}

int Store::schemaVersion() const
{
    return d->version;
}

Result<Store::Registration> Store::registerPeer(const NewPeer &peer, const QString &now)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    Statements &s = *d->statements;
    Transaction tx(s);
    if (auto r = tx.begin(); !r)
        return std::unexpected(r.error());

    QString sessionName = peer.sessionName;
    QString summary = peer.summary;
    // First non-empty value wins, in the order the rows are found.
    auto inherit = [&](const QString &name, const QString &text) {
        if (sessionName.isEmpty())
            sessionName = name;
        if (summary.isEmpty())
            summary = text;
    };
    Registration result;
    auto evict = [&](const QString &id) -> Result<void> {
        s.deletePeer.bindValue(0, text(id));
        auto r = run(s.deletePeer, "Removing a replaced peer");
        s.deletePeer.finish();
        return r;
    };
    // Collects (id, name, summary) of the rows a query finds; runs no other statement meanwhile.
    auto rowsOf = [&](QSqlQuery &q, const char *what) -> Result<QList<std::array<QString, 3>>> {
        if (auto r = run(q, what); !r)
            return std::unexpected(r.error());
        QList<std::array<QString, 3>> rows;
        while (q.next())
            rows.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString()});
        q.finish();
        return rows;
    };

    // Step 2: the row with the same id (same tty) is replaced.
    s.peerById.bindValue(0, text(peer.id));
    if (auto r = run(s.peerById, "Looking up a peer"); !r)
        return std::unexpected(r.error());
    const bool sameIdExists = s.peerById.next();
    if (sameIdExists)
        inherit(s.peerById.value(8).toString(), s.peerById.value(5).toString());
    s.peerById.finish();
    if (sameIdExists) {
        if (auto r = evict(peer.id); !r)
            return std::unexpected(r.error());
    }

    // Step 3: the same process registering again under another id.
    s.samePid.bindValue(0, peer.pid);
    s.samePid.bindValue(1, text(peer.id));
    auto samePid = rowsOf(s.samePid, "Looking up peers with the same pid");
    if (!samePid)
        return std::unexpected(samePid.error());
    // Step 4: zombies on the same terminal (another pid) are evicted.
    QList<std::array<QString, 3>> sameTty;
    if (!peer.tty.isEmpty()) {
        s.sameTty.bindValue(0, text(peer.tty));
        s.sameTty.bindValue(1, peer.pid);
        s.sameTty.bindValue(2, text(peer.id));
        auto rows = rowsOf(s.sameTty, "Looking up peers on the same terminal");
        if (!rows)
            return std::unexpected(rows.error());
        sameTty = *rows;
    }
    for (const auto &rows : {*samePid, sameTty}) {
        for (const auto &[id, name, text] : rows) {
            if (result.evictedIds.contains(id))
                continue;
            inherit(name, text);
            if (auto r = evict(id); !r)
                return std::unexpected(r.error());
            result.evictedIds.append(id);
        }
    }

    // Step 5: the new row; channel_push takes its column default.
    QSqlQuery &ins = s.insertPeer;
    ins.bindValue(0, text(peer.id));
    ins.bindValue(1, peer.pid);
    ins.bindValue(2, text(peer.cwd));
    ins.bindValue(3, nullIfEmpty(peer.gitRoot));
    ins.bindValue(4, nullIfEmpty(peer.tty));
    ins.bindValue(5, text(sessionName));
    ins.bindValue(6, text(summary));
    ins.bindValue(7, text(peer.version));
    ins.bindValue(8, text(now));
    ins.bindValue(9, text(now));
    // As text: a QByteArray would bind as a BLOB, which never equals the TEXT column.
    ins.bindValue(10, text(QString::fromLatin1(peer.secretHash)));
    if (auto r = run(ins, "Registering a peer"); !r)
        return std::unexpected(r.error());
    ins.finish();
    if (auto r = tx.commit(); !r)
        return std::unexpected(r.error());

    Peer &p = result.peer;
    p.id = peer.id;
    p.pid = peer.pid;
    p.cwd = peer.cwd;
    p.gitRoot = peer.gitRoot;
    p.tty = peer.tty;
    p.summary = summary;
    p.registeredAt = now;
    p.lastSeen = now;
    p.sessionName = sessionName;
    p.channelPush = QStringLiteral("unknown");
    p.version = peer.version;
    qCDebug(lcStore) << "Registered" << p.id << "pid" << p.pid << "evicted" << result.evictedIds;
    return result;
}

Result<std::optional<Peer>> Store::peer(const QString &id) const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->peerById;
    q.bindValue(0, text(id));
    if (auto r = run(q, "Looking up a peer"); !r)
        return std::unexpected(r.error());
    std::optional<Peer> found;
    if (q.next())
        found = peerFromRow(q);
    q.finish();
    return found;
}

Result<QList<Peer>> Store::peers() const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->allPeers;
    if (auto r = run(q, "Listing peers"); !r)
        return std::unexpected(r.error());
    QList<Peer> list;
    while (q.next())
        list.append(peerFromRow(q));
    q.finish();
    return list;
}

Result<std::optional<QString>> Store::peerIdForSecretHash(const QByteArray &hash) const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    if (hash.isEmpty())
        return std::optional<QString>();
    QSqlQuery &q = d->statements->peerBySecret;
    q.bindValue(0, QString::fromLatin1(hash));
    if (auto r = run(q, "Looking up a session secret"); !r)
        return std::unexpected(r.error());
    std::optional<QString> id;
    if (q.next())
        id = q.value(0).toString();
    q.finish();
    return id;
}

Result<bool> Store::touchPeer(const QString &id, const QString &now)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->touchPeer, now, id, "Updating last_seen");
}

Result<bool> Store::setSummary(const QString &id, const QString &summary)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->setSummary, summary, id, "Setting a summary");
}

Result<bool> Store::setSessionName(const QString &id, const QString &name)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->setSessionName, name, id, "Setting a session name");
}

Result<bool> Store::setChannelPush(const QString &id, const QString &state)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->setChannelPush, state, id, "Setting channel_push");
}

Result<bool> Store::removePeer(const QString &id)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->deletePeer;
    q.bindValue(0, text(id));
    if (auto r = run(q, "Removing a peer"); !r)
        return std::unexpected(r.error());
    const bool removed = q.numRowsAffected() > 0;
    q.finish();
    return removed;
}

Result<qint64> Store::insertMessage(const NewMessage &message, const QString &now)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    return d->insert(message, now);
}

Result<QList<qint64>> Store::insertMessages(const QList<NewMessage> &messages, const QString &now)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QList<qint64> ids;
    if (messages.isEmpty())
        return ids;
    Transaction tx(*d->statements);
    if (auto r = tx.begin(); !r)
        return std::unexpected(r.error());
    ids.reserve(messages.size());
    for (const NewMessage &m : messages) {
        auto id = d->insert(m, now);
        if (!id)
            return std::unexpected(id.error()); // rolls back: all or nothing
        ids.append(*id);
    }
    if (auto r = tx.commit(); !r)
        return std::unexpected(r.error());
    return ids;
}

Result<bool> Store::messageExists(qint64 id) const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->messageExists;
    q.bindValue(0, id);
    if (auto r = run(q, "Looking up a message"); !r)
        return std::unexpected(r.error());
    const bool exists = q.next();
    q.finish();
    return exists;
}

Result<std::optional<Message>> Store::message(qint64 id) const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->messageById;
    q.bindValue(0, id);
    auto list = d->messages(q, "Looking up a message");
    if (!list)
        return std::unexpected(list.error());
    if (list->isEmpty())
        return std::optional<Message>();
    return std::optional<Message>(list->first());
}

Result<QList<Message>> Store::undelivered(const QString &toId, int limit) const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->undelivered;
    q.bindValue(0, text(toId));
    q.bindValue(1, limit < 0 ? -1 : limit); // LIMIT -1 = no limit
    return d->messages(q, "Reading undelivered messages");
}

Result<int> Store::acknowledge(const QString &toId, const QList<qint64> &ids)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    if (ids.isEmpty())
        return 0;
    Statements &s = *d->statements;
    Transaction tx(s);
    if (auto r = tx.begin(); !r)
        return std::unexpected(r.error());
    int changed = 0;
    for (qint64 id : ids) {
        s.acknowledge.bindValue(0, id);
        s.acknowledge.bindValue(1, text(toId));
        if (auto r = run(s.acknowledge, "Acknowledging messages"); !r)
            return std::unexpected(r.error());
        changed += s.acknowledge.numRowsAffected();
    }
    s.acknowledge.finish();
    if (auto r = tx.commit(); !r)
        return std::unexpected(r.error());
    return changed;
}

Result<QList<Message>> Store::history(const HistoryFilter &filter) const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QString since;
    if (!filter.since.isEmpty()) {
        auto normalized = normalizedTimestamp(filter.since, QStringLiteral("since"));
        if (!normalized)
            return std::unexpected(normalized.error());
        since = *normalized;
    }
    QSqlQuery &q = d->statements->history;
    int i = 0;
    for (const QString *value : {&filter.from, &filter.to, &filter.search}) {
        q.bindValue(i++, text(*value));
        q.bindValue(i++, containsPattern(*value));
    }
    q.bindValue(i++, text(since)); // '' is <= every timestamp
    q.bindValue(i++, qBound(1, filter.limit, 1000));
    return d->messages(q, "Reading the message history");
}

Result<QList<Message>> Store::orphans() const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    return d->messages(d->statements->orphans, "Looking for orphaned messages");
}

Result<int> Store::deleteMessages(const QList<qint64> &ids)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    return d->deleteEach(d->statements->deleteMessage, ids, "Deleting messages");
}

Result<int> Store::deleteUndeliveredFor(const QString &toId)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->deleteUndeliveredFor;
    q.bindValue(0, text(toId));
    if (auto r = run(q, "Deleting undelivered messages"); !r)
        return std::unexpected(r.error());
    const int changed = q.numRowsAffected();
    q.finish();
    return changed;
}

Result<int> Store::purgeDeliveredBefore(const QString &isoCutoff)
{
    if (!d->statements)
        return std::unexpected(notOpen());
    auto cutoff = normalizedTimestamp(isoCutoff, QStringLiteral("The purge cutoff"));
    if (!cutoff)
        return std::unexpected(cutoff.error());
    QSqlQuery &q = d->statements->purge;
    q.bindValue(0, *cutoff);
    if (auto r = run(q, "Purging delivered messages"); !r)
        return std::unexpected(r.error());
    const int changed = q.numRowsAffected();
    q.finish();
    if (changed > 0)
        qCInfo(lcStore) << "Purged" << changed << "delivered messages sent before" << *cutoff;
    return changed;
}

Result<Counts> Store::counts() const
{
    if (!d->statements)
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->counts;
    if (auto r = run(q, "Counting rows"); !r)
        return std::unexpected(r.error());
    Counts c;
    if (q.next()) {
        c.peers = q.value(0).toLongLong();
        c.messages = q.value(1).toLongLong();
        c.delivered = q.value(2).toLongLong();
        c.pending = q.value(3).toLongLong();
    }
    q.finish();
    return c;
}

} // namespace Broker
