#include "app/tray/peersbymachinemodel.h"

#include "app/tray/peersmodel.h"

#include <algorithm>

namespace App {

namespace {

bool machineBefore(const QString &a, const QString &b)
{
    if (a.isEmpty() != b.isEmpty())
        return a.isEmpty(); // this machine first
    return a.compare(b, Qt::CaseInsensitive) < 0;
}

} // namespace

PeersByMachineModel::PeersByMachineModel(PeersModel *peers, QObject *parent) : QAbstractItemModel(parent)
{
    follow(peers);
    rebuild();
}

PeersByMachineModel::~PeersByMachineModel() = default;

void PeersByMachineModel::addSource(QAbstractItemModel *rows)
{
    follow(rows);
    rebuild();
}

void PeersByMachineModel::follow(QAbstractItemModel *model)
{
    const int source = int(m_sources.size());
    m_sources.push_back({model, {}});
    connect(model, &QAbstractItemModel::rowsInserted, this, &PeersByMachineModel::rebuild);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &PeersByMachineModel::rebuild);
    connect(model, &QAbstractItemModel::rowsMoved, this, &PeersByMachineModel::rebuild);
    connect(model, &QAbstractItemModel::modelReset, this, &PeersByMachineModel::rebuild);
    connect(model, &QAbstractItemModel::layoutChanged, this, &PeersByMachineModel::rebuild);
    connect(model, &QObject::destroyed, this, &PeersByMachineModel::rebuild);
    connect(
        model, &QAbstractItemModel::dataChanged, this,
        [this, source](const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) {
            forwardDataChanged(source, topLeft, bottomRight, roles);
        });
}

void PeersByMachineModel::rebuild()
{
    // What the tree should hold: each machine's rows, table after table, in each table's order.
    QList<QString> machines;
    QHash<QString, QList<Item>> wanted;
    for (size_t s = 0; s < m_sources.size(); ++s) {
        Source &source = m_sources[s];
        source.rowOf.clear();
        if (!source.model)
            continue;
        for (int row = 0; row < source.model->rowCount(); ++row) {
            const QModelIndex index = source.model->index(row, 0);
            const QString id = index.data(PeersModel::PeerIdRole).toString();
            if (source.rowOf.contains(id))
                continue; // a duplicate id counts once
            source.rowOf.insert(id, row);
            const QString machine = index.data(PeersModel::MachineRole).toString();
            if (!wanted.contains(machine))
                machines.append(machine);
            wanted[machine].append(Item {int(s), id});
        }
    }

    // 1. Children that left, from the end; 2. machines left without rows.
    for (int g = int(m_groups.size()) - 1; g >= 0; --g) {
        Group &group = *m_groups[size_t(g)];
        const QList<Item> stay = wanted.value(group.machine);
        for (int r = int(group.items.size()) - 1; r >= 0; --r) {
            if (stay.contains(group.items.at(r)))
                continue;
            beginRemoveRows(index(g, 0), r, r);
            group.items.removeAt(r);
            endRemoveRows();
        }
        if (group.items.isEmpty()) {
            beginRemoveRows({}, g, g);
            m_groups.erase(m_groups.begin() + g);
            endRemoveRows();
        }
    }

    // 3. New machines at their sorted place; 4. new rows at the end of their machine.
    for (const QString &machine : machines) {
        auto found = std::find_if(m_groups.begin(), m_groups.end(),
                                  [&machine](const auto &group) { return group->machine == machine; });
        if (found == m_groups.end()) {
            auto place = std::find_if(m_groups.begin(), m_groups.end(), [&machine](const auto &group) {
                return machineBefore(machine, group->machine);
            });
            const int row = int(place - m_groups.begin());
            beginInsertRows({}, row, row);
            auto group = std::make_unique<Group>();
            group->machine = machine;
            found = m_groups.insert(place, std::move(group));
            endInsertRows();
        }
        Group &group = **found;
        QList<Item> added;
        for (const Item &item : wanted.value(machine)) {
            if (!group.items.contains(item))
                added << item;
        }
        if (added.isEmpty())
            continue;
        const int g = int(found - m_groups.begin());
        const int first = int(group.items.size());
        beginInsertRows(index(g, 0), first, first + int(added.size()) - 1);
        group.items.append(added);
        endInsertRows();
    }

    // The machine rows say how many rows they hold.
    if (!m_groups.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_groups.size()) - 1, 0));
}

void PeersByMachineModel::forwardDataChanged(int source, const QModelIndex &topLeft,
                                             const QModelIndex &bottomRight, const QList<int> &roles)
{
    const QAbstractItemModel *model = m_sources[size_t(source)].model;
    if (!model)
        return;
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        const QString id = model->index(row, 0).data(PeersModel::PeerIdRole).toString();
        const QModelIndex first = childIndex(Item {source, id}, topLeft.column());
        if (first.isValid())
            Q_EMIT dataChanged(first, first.siblingAtColumn(bottomRight.column()), roles);
    }
}

int PeersByMachineModel::groupRow(const Group *group) const
{
    for (size_t g = 0; g < m_groups.size(); ++g) {
        if (m_groups[g].get() == group)
            return int(g);
    }
    return -1;
}

QModelIndex PeersByMachineModel::childIndex(const Item &item, int column) const
{
    for (const auto &group : m_groups) {
        const qsizetype r = group->items.indexOf(item);
        if (r >= 0)
            return createIndex(int(r), column, group.get());
    }
    return {};
}

QModelIndex PeersByMachineModel::machineIndex(const QString &machine) const
{
    for (size_t g = 0; g < m_groups.size(); ++g) {
        if (m_groups[g]->machine == machine)
            return index(int(g), 0);
    }
    return {};
}

QModelIndex PeersByMachineModel::peerIndex(const QString &peerId, int column) const
{
    return itemIndex(int(PeersModel::Kind::Peer), peerId, column);
}

QModelIndex PeersByMachineModel::itemIndex(int kind, const QString &id, int column) const
{
    for (size_t s = 0; s < m_sources.size(); ++s) {
        const Source &source = m_sources[s];
        const auto row = source.rowOf.constFind(id);
        if (!source.model || row == source.rowOf.cend())
            continue;
        if (source.model->index(*row, 0).data(PeersModel::KindRole).toInt() == kind)
            return childIndex(Item {int(s), id}, column);
    }
    return {};
}

QModelIndex PeersByMachineModel::sourceIndex(const QModelIndex &index) const
{
    if (!index.isValid() || !index.internalPointer())
        return {};
    const auto *group = static_cast<const Group *>(index.internalPointer());
    if (index.row() >= group->items.size())
        return {};
    const Item &item = group->items.at(index.row());
    const Source &source = m_sources[size_t(item.source)];
    const auto row = source.rowOf.constFind(item.id);
    if (!source.model || row == source.rowOf.cend())
        return {};
    return source.model->index(*row, index.column());
}

QModelIndex PeersByMachineModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= PeersModel::ColumnCount)
        return {};
    if (!parent.isValid())
        return row < int(m_groups.size()) ? createIndex(row, column, nullptr) : QModelIndex();
    if (parent.internalPointer() || parent.row() >= int(m_groups.size()))
        return {}; // rows have no children
    Group *group = m_groups[size_t(parent.row())].get();
    return row < group->items.size() ? createIndex(row, column, group) : QModelIndex();
}

QModelIndex PeersByMachineModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || !child.internalPointer())
        return {};
    const int g = groupRow(static_cast<const Group *>(child.internalPointer()));
    return g < 0 ? QModelIndex() : createIndex(g, 0, nullptr);
}

int PeersByMachineModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.internalPointer() || parent.column() != 0 || parent.row() >= int(m_groups.size()))
        return 0;
    return int(m_groups[size_t(parent.row())]->items.size());
}

int PeersByMachineModel::columnCount(const QModelIndex &) const
{
    return PeersModel::ColumnCount;
}

QString PeersByMachineModel::machineLabel(const Group &group) const
{
    int peers = 0;
    int sessions = 0;
    for (int r = 0; r < group.items.size(); ++r) {
        const QModelIndex row = sourceIndex(createIndex(r, 0, const_cast<Group *>(&group)));
        if (row.data(PeersModel::KindRole).toInt() == int(PeersModel::Kind::OpenCodeSession))
            ++sessions;
        else
            ++peers;
    }
    // OpenCode sessions are this machine's (the control service drives the local OpenCode).
    if (sessions == 0)
        return group.machine.isEmpty() ? tr("This machine (%n peer(s))", nullptr, peers)
                                       : tr("%1 (%n peer(s))", nullptr, peers).arg(group.machine);
    if (peers == 0)
        return tr("This machine (%n OpenCode session(s))", nullptr, sessions);
    //: %1 is "%n OpenCode session(s)"
    return tr("This machine (%n peer(s), %1)", nullptr, peers)
        .arg(tr("%n OpenCode session(s)", nullptr, sessions));
}

void PeersByMachineModel::setMachineLinks(QHash<QString, MachineLink> links)
{
    if (links == m_links)
        return;
    m_links = std::move(links);
    for (size_t row = 0; row < m_groups.size(); ++row) {
        if (!m_groups[row]->machine.isEmpty()) {
            const QModelIndex machine = index(int(row), 0);
            Q_EMIT dataChanged(machine, machine, {Qt::DisplayRole, Qt::ToolTipRole});
        }
    }
}

QVariant PeersByMachineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (!index.internalPointer()) { // a machine row
        const Group &group = *m_groups[size_t(index.row())];
        switch (role) {
        case Qt::DisplayRole: {
            if (index.column() != 0)
                return {};
            const auto link = m_links.constFind(group.machine);
            if (group.machine.isEmpty() || link == m_links.cend() || link->health.isEmpty())
                return machineLabel(group);
            //: a remote machine's row on the Peers page: %1 its name and count, %2 its link's health
            return tr("%1 — %2").arg(machineLabel(group), link->health);
        }
        case Qt::ToolTipRole: {
            const auto link = m_links.constFind(group.machine);
            if (index.column() != 0 || link == m_links.cend() || link->fingerprint.isEmpty())
                return {};
            return tr("Certificate fingerprint: %1").arg(link->fingerprint);
        }
        case IsMachineRole:
            return true;
        case MachineRankRole:
        case PeersModel::SortRole:
            return group.machine.isEmpty() ? QStringLiteral("0")
                                           : QStringLiteral("1") + group.machine.toLower();
        case PeersModel::MachineRole:
            return group.machine;
        }
        return {};
    }
    if (role == IsMachineRole)
        return false;
    return sourceIndex(index).data(role);
}

QVariant PeersByMachineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const QAbstractItemModel *peers = m_sources.front().model;
    return peers ? peers->headerData(section, orientation, role) : QVariant();
}

} // namespace App
