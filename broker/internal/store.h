#pragma once

#include "dto.h"
#include "result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

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
class Store
{
public:
    Store();
    ~Store();

    // Opens (creating if needed) with WAL and busy_timeout, then migrates with
    // PRAGMA user_version. Opens and upgrades a reference 0.7.0 database in place.
    Result<void> open(const QString &path);
    void close();
    int schemaVersion() const;

    // Reference §3.6 steps 2–5 in one transaction: inherit name/summary from the rows it
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
    Result<std::optional<QString>> peerIdForSecretHash(const QByteArray &hash) const;
    Result<bool> touchPeer(const QString &id, const QString &now); // false if unknown
    Result<bool> setSummary(const QString &id, const QString &summary);
    Result<bool> setSessionName(const QString &id, const QString &name);
    Result<bool> setChannelPush(const QString &id, const QString &state);
    Result<bool> removePeer(const QString &id);

    Result<qint64> insertMessage(const NewMessage &message, const QString &now);
    Result<QList<qint64>> insertMessages(const QList<NewMessage> &messages,
                                         const QString &now); // one transaction
    Result<bool> messageExists(qint64 id) const;
    Result<std::optional<Message>> message(qint64 id) const;
    Result<QList<Message>> undelivered(const QString &toId, int limit = -1) const; // by id ascending
    Result<int> acknowledge(const QString &toId, const QList<qint64> &ids); // only toId's rows
    Result<QList<Message>> history(const HistoryFilter &filter) const; // newest first

    // Maintenance (reference §11.8–11.10)
    Result<QList<Message>> orphans() const; // undelivered, to_id without peer row, from_id != 'system'
    Result<int> deleteMessages(const QList<qint64> &ids);
    Result<int> deleteUndeliveredFor(const QString &toId);
    Result<int> purgeDeliveredBefore(const QString &isoCutoff); // compares real timestamps

    Result<Counts> counts() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace Broker
