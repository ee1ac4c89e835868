#pragma once

#include "common/dto.h"
#include "common/wire.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QString>

namespace App {

// What the log shows of each message's delivery, from what the broker says (/messages) and
// what the tray knows of the recipient (/list-peers). One function decides it: deliveryTicks().
struct DeliveryTicks
{
    // How the recipient's session saw it, once acknowledged: the recipient's channel_push says
    // whether its client shows pushes (docs/mcp-helper.md, "What the model sees").
    enum class SeenVia {
        Unknown, // not acknowledged, or the recipient's client is not known
        Channel, // channel_push "working": the push itself, as <channel> in the session
        ToolResult, // channel_push "unverified": the banner on a tool result, or check_messages
    };

    bool stored = false; // the broker stored it (it has an id in the log)
    bool pushed = false; // handed to the recipient: its /wait-messages stream or /poll-messages
    QString pushedBy; // "stream" or "poll" when the broker knows; empty when inferred from acked
    bool acked = false; // the recipient's helper acknowledged it: the session saw it
    SeenVia seenVia = SeenVia::Unknown;
    bool bounced = false; // a bounce from "system" reports it could not be delivered
    bool lost = false; // gone from the log unacknowledged, without a bounce: not delivered

    bool undelivered() const { return bounced || lost; }
    bool operator==(const DeliveryTicks &) const = default;
};

// One message of the log and what the tray learned about it later.
struct LogEntry
{
    Broker::Message message;
    Broker::MessageHandout handout; // empty = the broker does not know (restart, or not yet)
    qint64 bouncedBy = 0; // id of the bounce that reports this message
    bool missing = false; // a refresh found no row: purged, or dropped undelivered
};

// stored: it is in the log. pushed: the broker recorded a handout (stream or poll), or it was
// acknowledged (a helper only acknowledges what it fetched). acked: delivered = true. seenVia:
// for an acknowledged message, from the recipient's channel_push ("working" → Channel,
// "unverified" → ToolResult, else Unknown). bounced: a bounce names it. lost: a refresh found
// it gone while unacknowledged and no bounce names it (its sender could not take one: the CLI,
// a remote peer), so it was dropped undelivered.
DeliveryTicks deliveryTicks(const LogEntry &entry, const QString &recipientChannelPush);

// A bounce (docs/spec/peers-api.md §11.8): from "system", reply_to = the message it reports.
bool isBounce(const Broker::Message &message);

// The thread a message belongs to: the unordered pair of its peers ("a\nb", sorted).
QString threadKey(const QString &a, const QString &b);
QString threadKeyOf(const Broker::Message &message);
QStringList threadPeers(const QString &key);

// The peers the tray knows (from /list-peers, scope lan) and the words for each: name, id and
// machine. Peers that left keep the name they last had.
class PeerDirectory
{
public:
    explicit PeerDirectory(QString localMachine = {});

    void update(const QList<Broker::Peer> &peers);
    const Broker::Peer *peer(const QString &id) const; // nullptr when not listed now
    bool isListed(const QString &id) const { return m_listed.contains(id); }
    QList<Broker::Peer> listed() const;
    QString localMachine() const { return m_localMachine; }
    // "reviewer (a1b2c3d4) · laptop"; "a1b2c3d4 · laptop" without a name; "system", "cli" as such.
    QString label(const QString &id) const;
    QString machineOf(const QString &id) const;
    QString channelPushOf(const QString &id) const;

private:
    QString m_localMachine;
    QHash<QString, Broker::Peer> m_known; // every peer seen, last state
    QHash<QString, bool> m_listed; // listed by the last update
};

// The broker-wide message log, oldest first (by id), as a table. Rows come in batches (one
// beginInsertRows per batch at either end; a search hit in the middle is inserted alone), state
// refreshes change cells, and at most maxRows() rows are kept: the oldest go first (the page
// loads them again with "older messages").
class MessageLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, FromColumn, ToColumn, TextColumn, TicksColumn, ColumnCount };
    enum Role {
        IdRole = Qt::UserRole + 1,
        FromIdRole,
        ToIdRole,
        ThreadKeyRole, // the thread it is shown in (a bounce: its message's thread)
        TextRole,
        IsBounceRole,
        TicksRole, // QVariant of DeliveryTicks
        SortRole,
    };

    static constexpr int DefaultMaxRows = 50000;

    explicit MessageLogModel(const PeerDirectory *peers, QObject *parent = nullptr);

    // Adds new messages and updates known ones (delivered, handout). Any order.
    void merge(const QList<Broker::Message> &messages,
               const QHash<qint64, Broker::MessageHandout> &handouts = {});
    // A refresh asked for these ids and the broker has no row for them.
    void markMissing(const QList<qint64> &ids);
    // The peer directory changed: labels and ticks may read differently.
    void peersChanged();
    void clear();

    void setMaxRows(int rows);
    int maxRows() const { return m_maxRows; }

    qint64 highestId() const;
    qint64 lowestId() const;
    bool droppedOlder() const { return m_droppedOlder; } // rows were cut from the top
    int rowOfId(qint64 id) const; // -1 when not listed
    const LogEntry &entryAt(int row) const { return m_rows.at(row); }
    DeliveryTicks ticksAt(int row) const;
    // Up to max ids whose state may still change (not acked, not bounced, not missing), taken
    // newest first after `belowId` (0 = from the newest); the caller walks on from the last one.
    QList<qint64> unsettledIds(int max, qint64 belowId = 0) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString ticksText(const DeliveryTicks &ticks);
    static QString ticksTooltip(const DeliveryTicks &ticks);

private:
    void insertBatch(int at, QList<LogEntry> entries);
    void linkBounce(const LogEntry &bounce);
    void trim();
    void rowChanged(int row);
    QString threadOfRow(int row) const;

    const PeerDirectory *m_peers;
    QList<LogEntry> m_rows; // by id ascending
    QHash<qint64, qint64> m_bounceOf; // original id → bounce id, also for originals not listed
    int m_maxRows = DefaultMaxRows;
    bool m_droppedOlder = false;
};

} // namespace App

Q_DECLARE_METATYPE(App::DeliveryTicks)
