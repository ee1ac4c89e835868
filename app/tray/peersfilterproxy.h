#pragma once

#include "app/tray/peerscope.h"

#include <QSortFilterProxyModel>

namespace App {

// The Peers page's sorting and filtering over the machine tree (PeersByMachineModel), without
// any GUI: rows sort within their machine by the chosen column (PeersModel::SortRole) while the
// machines keep their order (this machine first) whichever way the column sorts; a row shows
// when it is in the chosen scope and, when there is filter text, one of its columns contains it
// (typing a machine's name shows that machine's rows). A machine shows while one of its rows
// does.
class PeersFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit PeersFilterProxy(QObject *parent = nullptr);

    const PeerScope &scope() const { return m_scope; }
    void setScope(const PeerScope &scope);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    PeerScope m_scope;
};

} // namespace App
