#pragma once

#include <QAbstractItemView>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

#include <type_traits>

namespace App {

// The sort column of a list kept in the model's order (a log, a list its presenter orders):
// not sortable by a click on the header.
inline constexpr int ModelOrder = -1;
// The stretch column of a list whose last column takes the room that is left.
inline constexpr int LastColumn = -1;

// Columns other than the stretch one grow to what their visible rows need as rows arrive (at
// most a third of the view), until the user drags one. The view must have its model.
void fitColumnsToContents(QAbstractItemView *view, QHeaderView *header, int stretchColumn);

// The pages' lists, tables or trees (the Peers page's machines): sorted by sortColumn (or
// ModelOrder), one whole row selected, read-only, one line a row, no row numbers, one column
// (or the last: LastColumn) taking the room that is left, the others fitted to their contents.
template<typename View>
requires std::is_base_of_v<QTableView, View> || std::is_base_of_v<QTreeView, View>
void setUpListView(View *view, QAbstractItemModel *model, int sortColumn, int stretchColumn)
{
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    if (sortColumn != ModelOrder) {
        view->setSortingEnabled(true);
        view->sortByColumn(sortColumn, Qt::AscendingOrder);
    }
    view->setWordWrap(false);
    QHeaderView *header = nullptr;
    if constexpr (std::is_base_of_v<QTableView, View>) {
        view->verticalHeader()->hide();
        header = view->horizontalHeader();
    } else {
        view->setUniformRowHeights(true);
        header = view->header();
    }
    header->setStretchLastSection(stretchColumn == LastColumn);
    if (stretchColumn != LastColumn)
        header->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    fitColumnsToContents(view, header,
                         stretchColumn == LastColumn ? model->columnCount() - 1 : stretchColumn);
}

} // namespace App
