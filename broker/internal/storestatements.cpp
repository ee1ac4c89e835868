#include "broker/internal/storestatements.h"

#include "broker/internal/storeschema.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSqlError>

namespace Broker::StoreSql {

using StoreSchema::databaseError;

namespace {

const QString peerColumns = QStringLiteral("id, pid, cwd, git_root, tty, summary, registered_at, last_seen, "
                                           "session_name, channel_push, version, client, attention, "
                                           "attention_since, attention_message, delivery");
const QString messageColumns =
    QStringLiteral("id, from_id, to_id, text, type, metadata, reply_to, sent_at, delivered");

} // namespace

QVariant text(const QString &value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

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
    p.client = q.value(11).toString();
    p.attention = attentionFromName(q.value(12).toString()).value_or(Attention::Unknown);
    if (p.attention != Attention::Unknown) {
        p.attentionSince = q.value(13).toString();
        p.attentionMessage = q.value(14).toString();
    }
    p.delivery = q.value(15).toString();
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

QString containsPattern(const QString &text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('%'), QStringLiteral("\\%"))
        .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

Result<QString> normalizedTimestamp(const QString &iso, const QString &field)
{
    QDateTime dt = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!dt.isValid())
        return fail(
            ErrorKind::Invalid,
            QStringLiteral("%1 must be an ISO-8601 timestamp such as 2026-03-27T12:00:00.000Z, not \"%2\"")
                .arg(field, iso));
    if (dt.timeSpec() == Qt::LocalTime)
        dt.setTimeSpec(Qt::UTC);
    return dt.toUTC().toString(Qt::ISODateWithMs);
}

Error notOpen()
{
    return Error {ErrorKind::Database, QStringLiteral("The message store is not open.")};
}

Result<void> Statements::prepareAll()
{
    const std::pair<QSqlQuery *, QString> all[] = {
        // IMMEDIATE takes the write lock up front, so a transaction never fails half-way
        // on a lock upgrade; busy_timeout covers the wait.
        {&begin, QStringLiteral("BEGIN IMMEDIATE")},
        {&commit, QStringLiteral("COMMIT")},
        {&rollback, QStringLiteral("ROLLBACK")},
        {&savepoint, QStringLiteral("SAVEPOINT store_step")},
        {&release, QStringLiteral("RELEASE store_step")},
        {&rollbackTo, QStringLiteral("ROLLBACK TO store_step")},
        {&peerById, QStringLiteral("SELECT %1 FROM peers WHERE id = ?").arg(peerColumns)},
        {&allPeers, QStringLiteral("SELECT %1 FROM peers ORDER BY rowid").arg(peerColumns)},
        {&peerBySecret, QStringLiteral("SELECT id FROM peers WHERE secret_hash = ? AND secret_hash != ''")},
        {&touchPeer, QStringLiteral("UPDATE peers SET last_seen = ? WHERE id = ?")},
        {&setSummary, QStringLiteral("UPDATE peers SET summary = ? WHERE id = ?")},
        {&setSessionName, QStringLiteral("UPDATE peers SET session_name = ? WHERE id = ?")},
        {&setChannelPush, QStringLiteral("UPDATE peers SET channel_push = ? WHERE id = ?")},
        {&setDelivery, QStringLiteral("UPDATE peers SET delivery = ? WHERE id = ?")},
        // The time a peer entered its state stays while the state does (SET sees the old row).
        {&setAttention,
         QStringLiteral("UPDATE peers SET attention_since = CASE WHEN attention = ? THEN attention_since "
                        "ELSE ? END, attention = ?, attention_message = ? WHERE id = ?")},
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
             "registered_at, last_seen, secret_hash, client) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")},
        {&insertMessage,
         QStringLiteral("INSERT INTO messages (from_id, to_id, text, type, metadata, reply_to, "
                        "sent_at, delivered) VALUES (?, ?, ?, ?, ?, ?, ?, 0)")},
        {&messageExists, QStringLiteral("SELECT 1 FROM messages WHERE id = ?")},
        {&messageById, QStringLiteral("SELECT %1 FROM messages WHERE id = ?").arg(messageColumns)},
        {&undelivered,
         QStringLiteral("SELECT %1 FROM messages WHERE to_id = ? AND delivered = 0 AND id > ? "
                        "ORDER BY id LIMIT ?")
             .arg(messageColumns)},
        // All ids of one acknowledgement in one statement (atomic without a savepoint): the
        // ids come as one JSON array text, e.g. "[12,13,14]".
        {&acknowledge,
         QStringLiteral("UPDATE messages SET delivered = 1 WHERE to_id = ? AND delivered = 0 "
                        "AND id IN (SELECT value FROM json_each(?))")},
        // An empty filter value disables its condition, so one prepared statement serves
        // every combination.
        // Ordered as idx_messages_undelivered is, so that the sweep reads that index instead of
        // scanning the whole table (ORDER BY m.id alone made SQLite scan); Store sorts by id.
        {&orphans,
         QStringLiteral("SELECT %1 FROM messages m WHERE m.delivered = 0 AND m.from_id != 'system' "
                        "AND NOT EXISTS (SELECT 1 FROM peers p WHERE p.id = m.to_id) ORDER BY m.to_id, m.id")
             .arg(messageColumns)},
        {&deleteMessage, QStringLiteral("DELETE FROM messages WHERE id = ?")},
        {&deleteUndeliveredFor, QStringLiteral("DELETE FROM messages WHERE to_id = ? AND delivered = 0")},
        // sent_at and the cutoff are both "YYYY-MM-DDTHH:MM:SS.mmmZ" (ours and the
        // reference's JS toISOString()): fixed width, most significant field first, so
        // string order is time order. The reference compares against datetime('now'),
        // whose "YYYY-MM-DD HH:MM:SS" sorts 'T' after ' ' and purges a day late
        // (docs/spec/peers-api.md §13.1 #12).
        {&purge, QStringLiteral("DELETE FROM messages WHERE delivered = 1 AND sent_at < ?")},
        {&counts,
         QStringLiteral("SELECT (SELECT COUNT(*) FROM peers), (SELECT COUNT(*) FROM messages), "
                        "(SELECT COUNT(*) FROM messages WHERE delivered != 0), "
                        "(SELECT COUNT(*) FROM messages WHERE delivered = 0)")},
        {&keyedAnswer,
         QStringLiteral("SELECT answer FROM claude_peers_request_keys WHERE sender = ? AND key = ?")},
        {&rememberKeyedAnswer,
         QStringLiteral("INSERT OR REPLACE INTO claude_peers_request_keys (sender, key, answer, stored_ms) "
                        "VALUES (?, ?, ?, ?)")},
        {&forgetKeyedAnswers, QStringLiteral("DELETE FROM claude_peers_request_keys WHERE stored_ms < ?")},
    };
    for (const auto &[query, sql] : all) {
        query->setForwardOnly(true);
        if (!query->prepare(sql))
            return std::unexpected(
                databaseError(QStringLiteral("Preparing \"%1\"").arg(sql), query->lastError()));
    }
    return {};
}

Result<void> run(QSqlQuery &query, const char *what)
{
    if (!query.exec()) {
        Error e = databaseError(QString::fromLatin1(what), query.lastError());
        query.finish();
        return std::unexpected(std::move(e));
    }
    return {};
}

Transaction::~Transaction()
{
    if (!m_active)
        return;
    if (m_savepoint) {
        // ROLLBACK TO undoes the step but keeps the savepoint; RELEASE then drops it.
        m_s.rollbackTo.exec();
        m_s.rollbackTo.finish();
        m_s.release.exec();
        m_s.release.finish();
    } else {
        m_s.rollback.exec();
        m_s.rollback.finish();
    }
}

Result<void> Transaction::begin()
{
    m_savepoint = m_s.batch;
    QSqlQuery &q = m_savepoint ? m_s.savepoint : m_s.begin;
    auto r = run(q, "Starting a transaction");
    q.finish();
    m_active = r.has_value();
    return r;
}

Result<void> Transaction::commit()
{
    if (!m_active)
        return {};
    QSqlQuery &q = m_savepoint ? m_s.release : m_s.commit;
    auto r = run(q, "Committing a transaction");
    q.finish();
    if (r)
        m_active = false;
    return r;
}

} // namespace Broker::StoreSql
