#pragma once

#include <QAbstractItemView>
#include <QHeaderView>
#include <QTableView>

namespace App {

// The pages' lists: sortable, one whole row selected, read-only, no row numbers, one column
// taking the room that is left.
inline void setUpListView(QTableView *view, QAbstractItemModel *model, int sortColumn, int stretchColumn)
{
    view->setModel(model);
    view->setSortingEnabled(true);
    view->sortByColumn(sortColumn, Qt::AscendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
}

} // namespace App
