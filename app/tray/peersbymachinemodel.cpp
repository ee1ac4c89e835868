#include "peersbymachinemodel.h"

#include "peerfacts.h"
#include "peersmodel.h"

#include <QHash>
#include <QSet>

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

PeersByMachineModel::PeersByMachineModel(PeersModel *source, QObject *parent)
    : QAbstractItemModel(parent), m_source(source)
{
    connect(source, &QAbstractItemModel::rowsInserted, this, &PeersByMachineModel::rebuild);
    connect(source, &QAbstractItemModel::rowsRemoved, this, &PeersByMachineModel::rebuild);
    connect(source, &QAbstractItemModel::rowsMoved, this, &PeersByMachineModel::rebuild);
    connect(source, &QAbstractItemModel::modelReset, this, &PeersByMachineModel::rebuild);
    connect(source, &QAbstractItemModel::layoutChanged, this, &PeersByMachineModel::rebuild);
    connect(source, &QAbstractItemModel::dataChanged, this, &PeersByMachineModel::forwardDataChanged);
    rebuild();
}

PeersByMachineModel::~PeersByMachineModel() = default;

void PeersByMachineModel::rebuild()
{
    // What the tree should hold: each machine's peers, in the table's order.
    QList<QString> machines;
    QHash<QString, QStringList> wanted;
    for (const Broker::Peer &peer : m_source->peers()) {
        const QString machine = PeerFacts::machineOf(peer);
        if (!wanted.contains(machine))
            machines.append(machine);
        wanted[machine].append(peer.id);
    }

    // 1. Children that left, from the end; 2. machines left without peers.
    for (int g = int(m_groups.size()) - 1; g >= 0; --g) {
        Group &group = *m_groups[size_t(g)];
        const QStringList stay = wanted.value(group.machine);
        const QSet<QString> keep(stay.cbegin(), stay.cend());
        for (int r = int(group.peerIds.size()) - 1; r >= 0; --r) {
            if (keep.contains(group.peerIds.at(r)))
                continue;
            beginRemoveRows(index(g, 0), r, r);
            group.peerIds.removeAt(r);
            endRemoveRows();
        }
        if (group.peerIds.isEmpty()) {
            beginRemoveRows({}, g, g);
            m_groups.erase(m_groups.begin() + g);
            endRemoveRows();
        }
    }

    // 3. New machines at their sorted place; 4. new peers at the end of their machine.
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
        QStringList added;
        for (const QString &id : wanted.value(machine)) {
            if (!group.peerIds.contains(id))
                added << id;
        }
        if (added.isEmpty())
            continue;
        const int g = int(found - m_groups.begin());
        const int first = int(group.peerIds.size());
        beginInsertRows(index(g, 0), first, first + int(added.size()) - 1);
        group.peerIds.append(added);
        endInsertRows();
    }

    // The machine rows say how many peers they hold.
    if (!m_groups.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_groups.size()) - 1, 0));
}

void PeersByMachineModel::forwardDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                             const QList<int> &roles)
{
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        const QModelIndex first = peerIndex(m_source->peerAt(row).id, topLeft.column());
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
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const qsizetype r = m_groups[g]->peerIds.indexOf(peerId);
        if (r >= 0)
            return createIndex(int(r), column, m_groups[g].get());
    }
    return {};
}

int PeersByMachineModel::sourceRow(const QModelIndex &index) const
{
    if (!index.isValid() || !index.internalPointer())
        return -1;
    const auto *group = static_cast<const Group *>(index.internalPointer());
    return m_source->rowOf(group->peerIds.value(index.row()));
}

QModelIndex PeersByMachineModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= PeersModel::ColumnCount)
        return {};
    if (!parent.isValid())
        return row < int(m_groups.size()) ? createIndex(row, column, nullptr) : QModelIndex();
    if (parent.internalPointer() || parent.row() >= int(m_groups.size()))
        return {}; // peers have no children
    Group *group = m_groups[size_t(parent.row())].get();
    return row < group->peerIds.size() ? createIndex(row, column, group) : QModelIndex();
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
    return int(m_groups[size_t(parent.row())]->peerIds.size());
}

int PeersByMachineModel::columnCount(const QModelIndex &) const
{
    return PeersModel::ColumnCount;
}

QString PeersByMachineModel::machineLabel(const Group &group) const
{
    const int count = int(group.peerIds.size());
    return group.machine.isEmpty() ? tr("This machine (%n peer(s))", nullptr, count)
                                   : tr("%1 (%n peer(s))", nullptr, count).arg(group.machine);
}

QVariant PeersByMachineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (!index.internalPointer()) { // a machine row
        const Group &group = *m_groups[size_t(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            return index.column() == 0 ? machineLabel(group) : QVariant();
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
    const int row = sourceRow(index);
    if (row < 0)
        return {};
    return m_source->index(row, index.column()).data(role);
}

QVariant PeersByMachineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_source->headerData(section, orientation, role);
}

} // namespace App
