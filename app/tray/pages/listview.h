#pragma once

#include <QAbstractItemView>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

namespace App {

// The column a list keeps in the model's order (a log, a list its presenter orders): not
// sortable by a click on the header.
inline constexpr int ModelOrder = -1;
// The stretch column of a list whose last column takes the room that is left.
inline constexpr int LastColumn = -1;

namespace ListViewDetail {

inline void setUpRows(QAbstractItemView *view, QAbstractItemModel *model)
{
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
}

inline void stretch(QHeaderView *header, int stretchColumn)
{
    if (stretchColumn == LastColumn) {
        header->setStretchLastSection(true);
        return;
    }
    header->setStretchLastSection(false);
    header->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
}

} // namespace ListViewDetail

// The pages' lists: sorted by sortColumn (or ModelOrder), one whole row selected, read-only, no
// row numbers, one column (or the last: LastColumn) taking the room that is left.
inline void setUpListView(QTableView *view, QAbstractItemModel *model, int sortColumn, int stretchColumn)
{
    ListViewDetail::setUpRows(view, model);
    if (sortColumn != ModelOrder) {
        view->setSortingEnabled(true);
        view->sortByColumn(sortColumn, Qt::AscendingOrder);
    }
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    ListViewDetail::stretch(view->horizontalHeader(), stretchColumn);
}

// The same for a list grouped in a tree (the Peers page's machines).
inline void setUpListView(QTreeView *view, QAbstractItemModel *model, int sortColumn, int stretchColumn)
{
    ListViewDetail::setUpRows(view, model);
    if (sortColumn != ModelOrder) {
        view->setSortingEnabled(true);
        view->sortByColumn(sortColumn, Qt::AscendingOrder);
    }
    view->setWordWrap(false);
    view->setUniformRowHeights(true);
    ListViewDetail::stretch(view->header(), stretchColumn);
}

} // namespace App
