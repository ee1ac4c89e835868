#pragma once

#include <QAbstractItemModel>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <vector>

namespace App {

class PeersModel;

// The peers table as a two-level tree for the Peers page: one row per machine (this machine
// first, then the remote brokers by hostname), its rows as children, with the table's columns
// and roles. More tables with the same columns and roles can join (addSource: the OpenCode
// sessions); their rows group by their MachineRole too. Kept in step with the tables by
// diffing, row by row: a row that comes or goes inserts or removes one child (and a machine row
// with its first or last child), never a reset, so the view keeps its selection, expansion and
// scroll position.
class PeersByMachineModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Role {
        IsMachineRole = Qt::UserRole + 50, // bool: a machine row
        MachineRankRole, // QString that sorts this machine first, then by hostname
    };

    explicit PeersByMachineModel(PeersModel *peers, QObject *parent = nullptr);
    ~PeersByMachineModel() override;

    // A remote machine's link as the federation reports it: its row reads "build-box (3 peers) —
    // connected · 0.6 ms" and its tooltip gives the certificate's fingerprint (row 7 of the GUI
    // anchors: machine groups with their link's health).
    struct MachineLink
    {
        QString health; // "connected · 0.6 ms", "reconnecting · 3 tries: …"
        QString fingerprint; // sha256-…
        bool operator==(const MachineLink &) const = default;
    };
    // By hostname (the remote peers' MachineRole); machines not named show no link.
    void setMachineLinks(QHash<QString, MachineLink> links);

    // Another table with PeersModel's columns and roles (PeerIdRole names a row uniquely within
    // it, MachineRole groups it, KindRole says what it is).
    void addSource(QAbstractItemModel *rows);

    // The row of a machine ("" = this machine), invalid when it has no rows.
    QModelIndex machineIndex(const QString &machine) const;
    // The peer's child row in column, invalid when unknown.
    QModelIndex peerIndex(const QString &peerId, int column = 0) const;
    // A child row by kind (PeersModel::Kind as int) and id, invalid when unknown.
    QModelIndex itemIndex(int kind, const QString &id, int column = 0) const;
    // The index in its own table behind a child index (same column), invalid for a machine row.
    QModelIndex sourceIndex(const QModelIndex &index) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Item
    {
        int source = 0; // index in m_sources
        QString id;
        bool operator==(const Item &) const = default;
    };
    struct Group
    {
        QString machine; // "" = this machine
        QList<Item> items; // in the order they arrived; the view's proxy sorts them
    };
    struct Source
    {
        QPointer<QAbstractItemModel> model;
        QHash<QString, int> rowOf; // by PeerIdRole, refreshed on every structural change
    };

    void follow(QAbstractItemModel *model);
    void rebuild();
    void forwardDataChanged(int source, const QModelIndex &topLeft, const QModelIndex &bottomRight,
                            const QList<int> &roles);
    int groupRow(const Group *group) const;
    QModelIndex childIndex(const Item &item, int column) const;
    QString machineLabel(const Group &group) const;

    std::vector<Source> m_sources;
    std::vector<std::unique_ptr<Group>> m_groups;
    QHash<QString, MachineLink> m_links;
};

} // namespace App
