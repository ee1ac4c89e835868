#pragma once

#include "dto.h"

#include <QAbstractTableModel>
#include <QDateTime>
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
        DirectoryColumn,
        SummaryColumn,
        PushColumn,
        LastSeenColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        SortRole = Qt::UserRole + 1, // raw values (ISO time, lower-case text) for the proxy
        PeerIdRole,
    };

    explicit PeersModel(QObject *parent = nullptr);

    // Follows the host's broker: rows appear and change with its snapshots, clear when it stops.
    void attach(BrokerHost *host);

    // Brings the rows in line with peers (matched by id) with incremental model signals.
    void sync(const QList<Broker::Peer> &peers);

    int rowOf(const QString &peerId) const;
    // The clock of the times in state (tests set a fixed one).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }
    // The times in state have moved on: one dataChanged over the state column.
    void refreshTimes();
    const Broker::Peer &peerAt(int row) const { return m_peers.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void syncFromHost();
    QVariant displayValue(const Broker::Peer &peer, int column) const;
    QDateTime now() const { return m_clock ? m_clock() : QDateTime::currentDateTimeUtc(); }

    BrokerHost *m_host = nullptr;
    QList<Broker::Peer> m_peers;
    std::function<QDateTime()> m_clock;
};

} // namespace App
