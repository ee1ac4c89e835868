#pragma once

#include "broker/internal/privateheader.h"

#include "common/dto.h"
#include "common/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

class QSqlDatabase;

namespace Broker {

struct NewPeer
{
    QString id; // derived by the caller (tty hash or random)
    qint64 pid = 0;
    QString cwd;
    QString gitRoot; // empty = NULL
    QString tty; // empty = NULL
    QString sessionName;
    QString summary;
    QString version;
    QByteArray secretHash; // SHA-256 of the session secret (hex)
    QString client; // the MCP client's name from initialize; empty = not said
    // Live sessions of other processes on the same terminal: kept, not evicted as zombies
    // (docs/divergences.md, "two sessions on one terminal").
    QStringList keepIds;
};

struct NewMessage
{
    QString fromId;
    QString toId;
    QString text;
    QString type = QStringLiteral("text");
    std::optional<QJsonObject> metadata;
    std::optional<qint64> replyTo;
};

struct HistoryFilter
{
    QString from; // substring of from_id
    QString to; // substring of to_id
    QString since; // ISO-8601; sent_at >= since
    QString search; // substring of text
    int limit = 20;
    qsizetype maxBytes = -1; // see Store::maxListBytes; -1 = no bound
    // The message log's paging and thread filters (historyPage()).
    qint64 beforeId = 0; // 0 = no bound
    qint64 afterId = 0;
    bool ascending = false; // oldest first
    QString peer; // exact: from_id or to_id
    QString with; // exact, with peer: only messages between peer and with
    QList<qint64> ids; // only these ids; empty = any
};

struct HistoryPage
{
    QList<Message> messages;
    bool more = false; // more rows match than the page holds
};

struct Counts
{
    qint64 peers = 0;
    qint64 messages = 0;
    qint64 delivered = 0;
    qint64 pending = 0;
};

// All SQL of the broker, behind typed methods. One connection, opened and used on one thread.
// Timestamps are ISO-8601 UTC with milliseconds ("2026-03-27T12:00:00.000Z").
// Every failure is an Error: code "database" (SQL failed, store not open, lock held longer
// than busy_timeout = 3 s) or "invalid" (a timestamp argument that is not ISO-8601).
class Store
{
public:
    Store();
    ~Store();

    // Opens (creating if needed) with WAL and busy_timeout, then migrates with
    // PRAGMA user_version. Opens and upgrades a reference 0.7.0 database in place. Refuses a
    // database of a newer schema (code "database", message says to upgrade claude-peers).
    // Opening again closes the previous database first.
    Result<void> open(const QString &path);
    void close();
    int schemaVersion() const;
    // A random id made once per database file and kept in it (32 hex characters). A broker
    // restarted on the same file reports the same id; a new or recreated file another one, so
    // a helper can tell that message ids started over (docs/protocol.md).
    QString databaseId() const;
    // The one connection, for the modules' own tables (BrokerModule): same thread, same
    // group-commit batches. Invalid while closed.
    QSqlDatabase database() const;

    // docs/spec/peers-api.md §3.6 steps 2–5 in one transaction: inherit name/summary from the rows it
    // evicts (same id, same pid, same tty with another pid), delete them, insert the new row
    // with registered_at = last_seen = now. Returns the stored row and the evicted ids.
    struct Registration
    {
        Peer peer;
        QStringList evictedIds;
    };
    Result<Registration> registerPeer(const NewPeer &peer, const QString &now);

    Result<std::optional<Peer>> peer(const QString &id) const;
    Result<QList<Peer>> peers() const; // all rows, registration order
    Result<std::optional<QString>> peerIdForSecretHash(const QByteArray &hash) const; // empty never matches
    Result<bool> touchPeer(const QString &id, const QString &now); // false if unknown
    Result<bool> setSummary(const QString &id, const QString &summary);
    Result<bool> setSessionName(const QString &id, const QString &name);
    Result<bool> setChannelPush(const QString &id, const QString &state);
    Result<bool> setDelivery(const QString &id, const QString &delivery);
    // false if unknown. "unknown" is stored as ''; since is kept while the state stays.
    Result<bool> setAttention(const QString &id, Attention state, const QString &message, const QString &now);
    Result<bool> removePeer(const QString &id);

    Result<qint64> insertMessage(const NewMessage &message, const QString &now);
    Result<QList<qint64>> insertMessages(const QList<NewMessage> &messages,
                                         const QString &now); // one transaction
    Result<bool> messageExists(qint64 id) const;
    Result<std::optional<Message>> message(qint64 id) const;
    // By id ascending; only ids above afterId; maxBytes bounds the list as maxListBytes says
    // (-1: all).
    Result<QList<Message>> undelivered(const QString &toId, int limit = -1, qint64 afterId = 0,
                                       qsizetype maxBytes = -1) const;
    // Marks toId's undelivered rows among ids delivered; returns how many changed (others'
    // ids, unknown and already delivered ids count 0). Many ids: one statement.
    Result<int> acknowledge(const QString &toId, const QList<qint64> &ids);
    // Newest first (by id); from/to/search are literal substrings (LIKE, ASCII case-insensitive,
    // % and _ escaped); since accepts any ISO-8601 form (no offset = UTC), else "invalid";
    // limit clamped to 1..1000.
    Result<QList<Message>> history(const HistoryFilter &filter) const;
    // The same filters plus the log's (beforeId, afterId, order, peer, with, ids), and whether
    // more rows match than the page holds (limit or maxBytes reached).
    Result<HistoryPage> historyPage(const HistoryFilter &filter) const;

    // Lists read for one answer stop once the messages read so far hold about this many bytes
    // (text, metadata and a fixed allowance per row; always at least one message), so that
    // every answer is bounded; the rest comes with the next poll or wait.
    static constexpr qsizetype maxListBytes = 1024 * 1024;

    // Maintenance (docs/spec/peers-api.md §11.8–11.10)
    Result<QList<Message>> orphans() const; // undelivered, to_id without peer row, from_id != 'system'
    Result<int> deleteMessages(const QList<qint64> &ids);
    Result<int> deleteUndeliveredFor(const QString &toId);
    // Deletes delivered rows with sent_at strictly before the cutoff (any ISO-8601 form, else
    // "invalid"); compares real timestamps, unlike the reference (docs/spec/peers-api.md §13.1 #12).
    Result<int> purgeDeliveredBefore(const QString &isoCutoff);

    Result<Counts> counts() const;

    // Answers of requests sent with an Idempotency-Key, by sender and key: a request sent again
    // with the same key gets the first answer instead of being carried out twice. Written in the
    // same batch as what the request stored; forgotten after a while (the key is only re-sent
    // at once, after a connection closed before its answer).
    Result<std::optional<QByteArray>> keyedAnswer(const QString &sender, const QString &key) const;
    Result<void> rememberKeyedAnswer(const QString &sender, const QString &key, const QByteArray &answer,
                                     qint64 nowMs);
    Result<int> forgetKeyedAnswersBefore(qint64 cutoffMs);

    // Group commit. SQLite's cost is per commit (~13,000 autocommits/s on this class of disk,
    // ~150,000 rows/s inside one transaction), so a host answering a burst of requests may
    // open a batch, run them, and commit once. Inside a batch every write joins one
    // transaction (insertMessages, acknowledge, registerPeer stay atomic through a
    // savepoint), and other connections see nothing until commitBatch(). After a failed
    // commitBatch() (lock held by another process) call rollbackBatch(). close() rolls back.
    Result<void> beginBatch();
    Result<void> commitBatch();
    void rollbackBatch();
    bool inBatch() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace Broker
