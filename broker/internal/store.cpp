#include "broker/internal/store.h"

#include "broker/internal/storeschema.h"
#include "broker/internal/storestatements.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QVariant>

#include <algorithm>
#include <array>

namespace Broker {

using namespace StoreSql;
using StoreSchema::databaseError;

namespace {
QAtomicInteger<quint64> connectionCounter;
// A message's JSON beyond its text and metadata: ids, type, timestamps, keys.
constexpr qsizetype kRowAllowanceBytes = 256;

// Outside the versioned schema on purpose: an older claude-peers (or a reference broker)
// opening the file ignores this table instead of refusing a newer schema version.
Result<QString> ensureDatabaseId(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS claude_peers_meta "
                               "(key TEXT PRIMARY KEY, value TEXT NOT NULL)")))
        return std::unexpected(databaseError(QStringLiteral("Creating the meta table"), q.lastError()));
    std::array<quint32, 4> random {};
    QRandomGenerator::system()->fillRange(random.data(), random.size());
    const QString fresh = QString::fromLatin1(
        QByteArray(reinterpret_cast<const char *>(random.data()), sizeof(random)).toHex());
    q.prepare(
        QStringLiteral("INSERT OR IGNORE INTO claude_peers_meta (key, value) VALUES ('database_id', ?)"));
    q.bindValue(0, fresh);
    if (!q.exec())
        return std::unexpected(databaseError(QStringLiteral("Storing the database id"), q.lastError()));
    if (!q.exec(QStringLiteral("SELECT value FROM claude_peers_meta WHERE key = 'database_id'")) || !q.next())
        return std::unexpected(databaseError(QStringLiteral("Reading the database id"), q.lastError()));
    return q.value(0).toString();
}

// The answers of requests sent with an Idempotency-Key (docs/decisions.md, "A re-sent
// /send-message is stored once"). Outside the versioned schema for the same reason.
Result<void> ensureRequestKeys(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS claude_peers_request_keys "
                               "(sender TEXT NOT NULL, key TEXT NOT NULL, answer TEXT NOT NULL, "
                               "stored_ms INTEGER NOT NULL, PRIMARY KEY (sender, key)) WITHOUT ROWID")) ||
        !q.exec(QStringLiteral("CREATE INDEX IF NOT EXISTS claude_peers_request_keys_age "
                               "ON claude_peers_request_keys (stored_ms)")))
        return std::unexpected(
            databaseError(QStringLiteral("Creating the request-key table"), q.lastError()));
    return {};
}

} // namespace

class Store::Private
{
public:
    QString connectionName;
    std::unique_ptr<Statements> statements;
    int version = 0;
    QString databaseId;
    QThread *thread = nullptr;

    // SQLite connections are not shared across threads: the opening thread is the only user.
    bool ready() const
    {
        Q_ASSERT_X(!statements || QThread::currentThread() == thread, "Broker::Store",
                   "used from a thread other than the one that opened it");
        return statements != nullptr;
    }

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

    Result<QList<Message>> messages(QSqlQuery &q, const char *what, qsizetype maxBytes = -1)
    {
        if (auto r = run(q, what); !r)
            return std::unexpected(r.error());
        QList<Message> list;
        qsizetype bytes = 0;
        while ((maxBytes < 0 || bytes < maxBytes) && q.next()) {
            list.append(messageFromRow(q));
            if (maxBytes >= 0) // metadata counted as stored (column 5), not re-serialised
                bytes += kRowAllowanceBytes + list.last().text.size() + q.value(5).toString().size();
        }
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

namespace {

// PRAGMA quick_check: every page and index entry readable, in one pass over the file.
Result<void> quickCheck(QSqlDatabase &db, const QString &path)
{
    QSqlQuery check(db);
    if (!check.exec(QStringLiteral("PRAGMA quick_check(5)")))
        return std::unexpected(
            databaseError(QStringLiteral("Checking the database %1").arg(path), check.lastError()));
    QStringList problems;
    while (check.next())
        problems << check.value(0).toString().simplified();
    if (problems == QStringList {QStringLiteral("ok")})
        return {};
    return fail(ErrorKind::Database,
                QStringLiteral("The database %1 is damaged (%2). It was left as it is: move it away to "
                               "start with a fresh one, or restore it from a backup.")
                    .arg(path, problems.join(QStringLiteral("; "))));
}

} // namespace

Result<void> Store::open(const QString &path)
{
    close();
    d->connectionName = QStringLiteral("peers.broker.store.%1").arg(connectionCounter.fetchAndAddRelaxed(1));
    const bool created = !QFileInfo::exists(path);
    auto opened = [&]() -> Result<void> {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), d->connectionName);
        if (!db.isValid())
            return fail(ErrorKind::Database,
                        QStringLiteral("The Qt SQLite driver (QSQLITE) is not available: install the Qt 6 "
                                       "SQLite plugin (Debian: libqt6sql6-sqlite)."));
        db.setDatabaseName(path);
        if (!db.open())
            return std::unexpected(
                databaseError(QStringLiteral("Opening the database %1").arg(path), db.lastError()));
        // Message bodies are private: a database we create is the user's alone. Done before the
        // first write, since SQLite gives the -wal and -shm files the database's mode. An
        // existing file keeps the mode its owner chose.
        if (created && QFileInfo::exists(path) &&
            !QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            qCWarning(lcStore).noquote() << "Could not make" << path << "private (mode 0600)";
        QSqlQuery pragma(db);
        // busy_timeout first: every later statement, the upgrade included, waits up to 3 s for
        // a lock held by another process (a reference broker, the CLI) instead of failing.
        // temp_store MEMORY: statement journals of a batch's savepoints stay off the disk.
        for (const char *sql :
             {"PRAGMA busy_timeout = 3000", "PRAGMA foreign_keys = OFF", "PRAGMA temp_store = MEMORY"}) {
            if (!pragma.exec(QString::fromLatin1(sql)))
                return std::unexpected(
                    databaseError(QStringLiteral("Opening the database %1").arg(path), pragma.lastError()));
        }
        // A damaged file is refused before anything writes to it: serving from it would fail
        // request by request, and no fresh database may replace the user's data.
        if (!created) {
            if (auto intact = quickCheck(db, path); !intact)
                return intact;
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
        auto databaseId = ensureDatabaseId(db);
        if (!databaseId)
            return std::unexpected(databaseId.error());
        d->databaseId = *databaseId;
        if (auto keys = ensureRequestKeys(db); !keys)
            return std::unexpected(keys.error());
        d->statements = std::make_unique<Statements>(db);
        d->thread = QThread::currentThread();
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
    rollbackBatch();
    d->statements.reset(); // queries must go before their connection
    {
        QSqlDatabase db = QSqlDatabase::database(d->connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(d->connectionName);
    d->connectionName.clear();
    d->version = 0;
    d->databaseId.clear();
}

int Store::schemaVersion() const
{
    return d->version;
}

QString Store::databaseId() const
{
    return d->databaseId;
}

QSqlDatabase Store::database() const
{
    return d->connectionName.isEmpty() ? QSqlDatabase() : QSqlDatabase::database(d->connectionName, false);
}

Result<Store::Registration> Store::registerPeer(const NewPeer &peer, const QString &now)
{
    if (!d->ready())
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
            if (result.evictedIds.contains(id) || peer.keepIds.contains(id))
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
    ins.bindValue(11, text(peer.client));
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
    p.client = peer.client;
    qCDebug(lcStore) << "Registered" << p.id << "pid" << p.pid << "evicted" << result.evictedIds;
    return result;
}

Result<std::optional<Peer>> Store::peer(const QString &id) const
{
    if (!d->ready())
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
    if (!d->ready())
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
    if (!d->ready())
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
    if (!d->ready())
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->touchPeer, now, id, "Updating last_seen");
}

Result<bool> Store::setSummary(const QString &id, const QString &summary)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->setSummary, summary, id, "Setting a summary");
}

Result<bool> Store::setSessionName(const QString &id, const QString &name)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->setSessionName, name, id, "Setting a session name");
}

Result<bool> Store::setChannelPush(const QString &id, const QString &state)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->setChannelPush, state, id, "Setting channel_push");
}

Result<bool> Store::setDelivery(const QString &id, const QString &delivery)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    return d->updatePeer(d->statements->setDelivery, delivery, id, "Setting the delivery path");
}

Result<bool> Store::setAttention(const QString &id, Attention state, const QString &message,
                                 const QString &now)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    const QString stored = state == Attention::Unknown ? QString() : attentionName(state);
    QSqlQuery &q = d->statements->setAttention;
    q.bindValue(0, text(stored));
    q.bindValue(1, text(now));
    q.bindValue(2, text(stored));
    q.bindValue(3, text(message));
    q.bindValue(4, text(id));
    if (auto r = run(q, "Setting the attention state"); !r)
        return std::unexpected(r.error());
    const bool found = q.numRowsAffected() > 0; // SQLite counts matched rows, changed or not
    q.finish();
    return found;
}

Result<bool> Store::removePeer(const QString &id)
{
    if (!d->ready())
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
    if (!d->ready())
        return std::unexpected(notOpen());
    return d->insert(message, now);
}

Result<QList<qint64>> Store::insertMessages(const QList<NewMessage> &messages, const QString &now)
{
    if (!d->ready())
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
    if (!d->ready())
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
    if (!d->ready())
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

Result<QList<Message>> Store::undelivered(const QString &toId, int limit, qint64 afterId,
                                          qsizetype maxBytes) const
{
    if (!d->ready())
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->undelivered;
    q.bindValue(0, text(toId));
    q.bindValue(1, afterId);
    q.bindValue(2, limit < 0 ? -1 : limit); // LIMIT -1 = no limit
    return d->messages(q, "Reading undelivered messages", maxBytes);
}

Result<int> Store::acknowledge(const QString &toId, const QList<qint64> &ids)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    if (ids.isEmpty())
        return 0;
    Statements &s = *d->statements;
    QByteArray list;
    list.reserve(ids.size() * 8 + 2);
    list.append('[');
    for (qsizetype i = 0; i < ids.size(); ++i) {
        if (i > 0)
            list.append(',');
        list.append(QByteArray::number(ids.at(i)));
    }
    list.append(']');
    s.acknowledge.bindValue(0, text(toId));
    s.acknowledge.bindValue(1, QString::fromLatin1(list));
    if (auto r = run(s.acknowledge, "Acknowledging messages"); !r)
        return std::unexpected(r.error());
    const int changed = s.acknowledge.numRowsAffected();
    s.acknowledge.finish();
    return changed;
}

Result<QList<Message>> Store::history(const HistoryFilter &filter) const
{
    auto page = historyPage(filter);
    if (!page)
        return std::unexpected(page.error());
    return std::move(page->messages);
}

Result<HistoryPage> Store::historyPage(const HistoryFilter &filter) const
{
    if (!d->ready())
        return std::unexpected(notOpen());
    QString since;
    if (!filter.since.isEmpty()) {
        auto normalized = normalizedTimestamp(filter.since, QStringLiteral("since"));
        if (!normalized)
            return std::unexpected(normalized.error());
        since = *normalized;
    }
    // Only the clauses a filter asks for, so that SQLite walks the rowid range of a page.
    QStringList where;
    QVariantList values;
    const auto add = [&](const QString &clause, const QVariantList &bound) {
        where << clause;
        values << bound;
    };
    if (!filter.from.isEmpty())
        add(QStringLiteral("from_id LIKE ? ESCAPE '\\'"), {containsPattern(filter.from)});
    if (!filter.to.isEmpty())
        add(QStringLiteral("to_id LIKE ? ESCAPE '\\'"), {containsPattern(filter.to)});
    if (!filter.search.isEmpty())
        add(QStringLiteral("text LIKE ? ESCAPE '\\'"), {containsPattern(filter.search)});
    if (!since.isEmpty())
        add(QStringLiteral("sent_at >= ?"), {since});
    if (filter.beforeId > 0)
        add(QStringLiteral("id < ?"), {filter.beforeId});
    if (filter.afterId > 0)
        add(QStringLiteral("id > ?"), {filter.afterId});
    if (!filter.peer.isEmpty() && !filter.with.isEmpty())
        add(QStringLiteral("((from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?))"),
            {text(filter.peer), text(filter.with), text(filter.with), text(filter.peer)});
    else if (!filter.peer.isEmpty())
        add(QStringLiteral("(from_id = ? OR to_id = ?)"), {text(filter.peer), text(filter.peer)});
    if (!filter.ids.isEmpty()) {
        QStringList ids;
        for (qint64 id : filter.ids)
            ids << QString::number(id);
        add(QStringLiteral("id IN (SELECT value FROM json_each(?))"),
            {QStringLiteral("[%1]").arg(ids.join(QLatin1Char(',')))});
    }
    const int limit = qBound(1, filter.limit, 1000);
    const QString sql =
        QStringLiteral("SELECT id, from_id, to_id, text, type, metadata, reply_to, sent_at, "
                       "delivered FROM messages%1 ORDER BY id %2 LIMIT %3")
            .arg(where.isEmpty() ? QString()
                                 : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND ")),
                 filter.ascending ? QStringLiteral("ASC") : QStringLiteral("DESC"))
            .arg(limit + 1);
    QSqlQuery q(database());
    if (!q.prepare(sql))
        return std::unexpected(databaseError(QStringLiteral("Reading the message log"), q.lastError()));
    for (int i = 0; i < values.size(); ++i)
        q.bindValue(i, values.at(i));
    if (!q.exec())
        return std::unexpected(databaseError(QStringLiteral("Reading the message log"), q.lastError()));
    HistoryPage page;
    qsizetype bytes = 0;
    while (q.next()) {
        if (page.messages.size() >= limit || (filter.maxBytes >= 0 && bytes >= filter.maxBytes)) {
            page.more = true;
            break;
        }
        page.messages.append(messageFromRow(q));
        bytes += kRowAllowanceBytes + page.messages.last().text.size() + q.value(5).toString().size();
    }
    return page;
}

Result<QList<Message>> Store::orphans() const
{
    if (!d->ready())
        return std::unexpected(notOpen());
    auto list = d->messages(d->statements->orphans, "Looking for orphaned messages");
    if (list)
        std::sort(list->begin(), list->end(), [](const Message &a, const Message &b) { return a.id < b.id; });
    return list;
}

Result<int> Store::deleteMessages(const QList<qint64> &ids)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    return d->deleteEach(d->statements->deleteMessage, ids, "Deleting messages");
}

Result<int> Store::deleteUndeliveredFor(const QString &toId)
{
    if (!d->ready())
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
    if (!d->ready())
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

Result<std::optional<QByteArray>> Store::keyedAnswer(const QString &sender, const QString &key) const
{
    if (!d->ready())
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->keyedAnswer;
    q.bindValue(0, text(sender));
    q.bindValue(1, text(key));
    if (auto r = run(q, "Looking up a request key"); !r)
        return std::unexpected(r.error());
    std::optional<QByteArray> answer;
    if (q.next())
        answer = q.value(0).toString().toUtf8();
    q.finish();
    return answer;
}

Result<void> Store::rememberKeyedAnswer(const QString &sender, const QString &key, const QByteArray &answer,
                                        qint64 nowMs)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->rememberKeyedAnswer;
    q.bindValue(0, text(sender));
    q.bindValue(1, text(key));
    q.bindValue(2, QString::fromUtf8(answer));
    q.bindValue(3, nowMs);
    if (auto r = run(q, "Storing a request key"); !r)
        return std::unexpected(r.error());
    q.finish();
    return {};
}

Result<int> Store::forgetKeyedAnswersBefore(qint64 cutoffMs)
{
    if (!d->ready())
        return std::unexpected(notOpen());
    QSqlQuery &q = d->statements->forgetKeyedAnswers;
    q.bindValue(0, cutoffMs);
    if (auto r = run(q, "Forgetting old request keys"); !r)
        return std::unexpected(r.error());
    const int changed = q.numRowsAffected();
    q.finish();
    return changed;
}

Result<Counts> Store::counts() const
{
    if (!d->ready())
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

Result<void> Store::beginBatch()
{
    if (!d->ready())
        return std::unexpected(notOpen());
    Statements &s = *d->statements;
    if (s.batch)
        return fail(ErrorKind::Database, QStringLiteral("A batch is already open on this store."));
    auto r = run(s.begin, "Starting a batch");
    s.begin.finish();
    s.batch = r.has_value();
    return r;
}

Result<void> Store::commitBatch()
{
    if (!d->ready())
        return std::unexpected(notOpen());
    Statements &s = *d->statements;
    if (!s.batch)
        return {};
    auto r = run(s.commit, "Committing a batch");
    s.commit.finish();
    if (r)
        s.batch = false;
    return r;
}

void Store::rollbackBatch()
{
    if (!d->ready() || !d->statements->batch)
        return;
    Statements &s = *d->statements;
    if (!s.rollback.exec())
        qCWarning(lcStore) << "Rolling back a batch failed:" << s.rollback.lastError().databaseText();
    s.rollback.finish();
    s.batch = false;
}

bool Store::inBatch() const
{
    return d->ready() && d->statements->batch;
}

} // namespace Broker
