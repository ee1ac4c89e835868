#pragma once

#include "common/dto.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>

#include <functional>

namespace App {

class BrokerHost;

// The local and remote (lan) peers as a table, kept in step with the broker by diffing its snapshots:
// a registration inserts one row, a heartbeat or rename changes the cells that differ, an
// unregister or liveness prune removes one row. Never a full reset while the broker runs, so
// views keep selection and scroll position.
class PeersModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        MachineColumn, // "this machine", or the remote broker's hostname (the lan scope)
        StateColumn, // attention state and time in it ("needs you · 3 min")
        IdColumn,
        ProjectColumn, // git project (and sub-folder) with the branch when known: "api [main]"
        ScopeColumn, // the repo scope (0.7): the git root, else the working folder; "~/src/api"
        DirectoryColumn,
        SummaryColumn,
        ReachabilityColumn, // push / poll only / stale / unreachable (ReachabilityRule)
        LastSeenColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        SortRole = Qt::UserRole + 1, // raw values (ISO time, lower-case text) for the proxy
        PeerIdRole,
        ReachabilityRole, // App::Reachability as int
        SameFolderRole, // QStringList: other live local peers in the same folder (collision)
        MachineRole, // "" for this machine, else the remote broker's hostname
        KindRole, // App::PeersModel::Kind as int: what the row is (the Peers page shows both)
        DirectoryRole, // the working folder, clean; "" when unknown
        GitRootRole, // the git root, clean; "" when none
    };
    // A claude-peers peer (this model's rows), or an OpenCode session driven by the control
    // service (OpenCodeRowsModel's rows, with the same columns and roles).
    enum class Kind { Peer, OpenCodeSession };

    explicit PeersModel(QObject *parent = nullptr);

    // Follows the host's broker: rows appear and change with its snapshots, clear when it stops.
    void attach(BrokerHost *host);

    // Brings the rows in line with peers (matched by id) with incremental model signals.
    void sync(const QList<Broker::Peer> &peers);

    int rowOf(const QString &peerId) const;
    // The clock of the times in state (tests set a fixed one).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }
    // Time has moved on: the times in state, the reachability badges and the same-folder
    // markers (which count only live peers) are recomputed, one dataChanged over the rows.
    void refreshTimes();
    // Other live local peers in the same folder as the peer at row (PeerFacts::sameFolderPeers).
    QStringList sameFolderPeers(int row) const;
    const QList<Broker::Peer> &peers() const { return m_peers; }
    const Broker::Peer &peerAt(int row) const { return m_peers.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void syncFromHost();
    QVariant displayValue(const Broker::Peer &peer, int column) const;
    QDateTime now() const { return m_clock ? m_clock() : QDateTime::currentDateTimeUtc(); }
    QHash<QString, QStringList> collisions() const; // by peer id, only peers with one
    void emitCollisionChanges(const QHash<QString, QStringList> &before);

    BrokerHost *m_host = nullptr;
    QList<Broker::Peer> m_peers;
    std::function<QDateTime()> m_clock;
};

} // namespace App
