#pragma once

#include <QAbstractItemModel>
#include <QStringList>

#include <memory>
#include <vector>

namespace App {

class PeersModel;

// The peers table as a two-level tree for the Peers page: one row per machine (this machine
// first, then the remote brokers by hostname), its peers as children, with the table's columns
// and roles. Kept in step with the table by diffing, row by row: a peer that comes or goes
// inserts or removes one child (and a machine row with its first or last peer), never a reset,
// so the view keeps its selection, expansion and scroll position.
class PeersByMachineModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Role {
        IsMachineRole = Qt::UserRole + 50, // bool: a machine row
        MachineRankRole, // QString that sorts this machine first, then by hostname
    };

    explicit PeersByMachineModel(PeersModel *source, QObject *parent = nullptr);
    ~PeersByMachineModel() override;

    PeersModel *source() const { return m_source; }
    // The row of a machine ("" = this machine), invalid when it has no peers.
    QModelIndex machineIndex(const QString &machine) const;
    // The peer's child row in column, invalid when unknown.
    QModelIndex peerIndex(const QString &peerId, int column = 0) const;
    // The source table's row behind a child index, -1 for a machine row.
    int sourceRow(const QModelIndex &index) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Group
    {
        QString machine; // "" = this machine
        QStringList peerIds; // in the order they arrived; the view's proxy sorts them
    };

    void rebuild();
    void forwardDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                            const QList<int> &roles);
    int groupRow(const Group *group) const;
    QString machineLabel(const Group &group) const;

    PeersModel *m_source;
    std::vector<std::unique_ptr<Group>> m_groups;
};

} // namespace App
