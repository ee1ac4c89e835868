#include "app/tray/peersfilterproxy.h"

#include "app/tray/peersbymachinemodel.h"
#include "app/tray/peersmodel.h"

namespace App {

PeersFilterProxy::PeersFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(PeersModel::SortRole);
    setFilterKeyColumn(-1); // any column matches
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setRecursiveFilteringEnabled(true); // a machine stays while one of its rows matches
    setAutoAcceptChildRows(true); // typing a machine's name shows all its rows (in scope)
}

void PeersFilterProxy::setScope(const PeerScope &scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    invalidateFilter();
}

bool PeersFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const QString machine = index.data(PeersModel::MachineRole).toString();
    if (!sourceParent.isValid()) {
        // A machine row accepted on its own accepts all its rows (autoAcceptChildRows): only
        // when the scope is the whole machine. Otherwise it shows through its matching rows.
        const bool wholeMachine =
            m_scope.kind == PeerScope::Kind::All || m_scope.kind == PeerScope::Kind::Machine;
        if (!wholeMachine || !m_scope.allowsMachine(machine))
            return false;
        return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
    }
    if (!m_scope.matches(machine, index.data(PeersModel::GitRootRole).toString(),
                         index.data(PeersModel::DirectoryRole).toString()))
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

bool PeersFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (!left.parent().isValid()) { // machines: the same order both ways
        const QString a = left.data(PeersByMachineModel::MachineRankRole).toString();
        const QString b = right.data(PeersByMachineModel::MachineRankRole).toString();
        return sortOrder() == Qt::AscendingOrder ? a < b : b < a;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace App
