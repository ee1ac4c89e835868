#include "app/tray/pages/listview.h"

#include <QEvent>
#include <QTimer>

#include <algorithm>

namespace App {

namespace {

// Fits the columns other than the stretch one to what their visible rows need, as rows arrive
// and as the view resizes (fit() says how the room is shared), until the user drags one: a
// header's default 100 px cuts names, times and paths that would fit.
class ColumnFitter final : public QObject
{
public:
    ColumnFitter(QAbstractItemView *view, QHeaderView *header, int stretchColumn)
        : QObject(view), m_view(view), m_header(header), m_stretchColumn(stretchColumn)
    {
        m_fit.setSingleShot(true);
        m_fit.setInterval(0); // one fit per event-loop pass however many rows came
        connect(&m_fit, &QTimer::timeout, this, &ColumnFitter::fit);
        QAbstractItemModel *model = view->model();
        const auto refit = [this] { m_fit.start(); };
        connect(model, &QAbstractItemModel::rowsInserted, this, refit);
        connect(model, &QAbstractItemModel::rowsRemoved, this, refit);
        connect(model, &QAbstractItemModel::modelReset, this, refit);
        connect(model, &QAbstractItemModel::layoutChanged, this, refit);
        connect(model, &QAbstractItemModel::dataChanged, this, refit);
        // Hiding or showing a column resizes it from or to 0: that is not the user sizing it.
        connect(header, &QHeaderView::sectionResized, this, [this](int column, int oldSize, int newSize) {
            if (!m_fitting && column != m_stretchColumn && oldSize > 0 && newSize > 0)
                m_userSized = true;
        });
        view->viewport()->installEventFilter(this);
        m_fit.start();
    }

private:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            m_fit.start(); // the room to share changed
        return QObject::eventFilter(watched, event);
    }

    // Each column grows to what its visible rows need (never shrinks while there is room), at
    // most a third of the view; when together they would leave the stretch column less than a
    // quarter of the view, the long ones give way, down to their titles' width.
    void fit()
    {
        if (m_userSized || m_view->model()->rowCount() == 0)
            return;
        const int width = m_view->viewport()->width();
        const int cap = std::max(kMinCap, width / 3);
        const int budget = std::max(0, width - std::max(kMinCap, width / 4));
        struct Column
        {
            int column;
            int target;
            int floor; // the title's width
        };
        QList<Column> columns;
        int sum = 0;
        for (int column = 0; column < m_header->count(); ++column) {
            if (column == m_stretchColumn || m_header->isSectionHidden(column))
                continue;
            const int floor = m_header->sectionSizeHint(column);
            const int wanted = std::min(cap, std::max(m_view->sizeHintForColumn(column), floor));
            const int target = std::max(m_header->sectionSize(column), wanted);
            columns.append({column, std::min(target, cap), floor});
            sum += columns.last().target;
        }
        if (sum > budget) {
            // Short columns (times, states, badges) keep what they need; the long ones share
            // what is left equally (max-min fair), none below its title.
            QList<Column *> byTarget;
            for (Column &c : columns)
                byTarget.append(&c);
            std::sort(byTarget.begin(), byTarget.end(),
                      [](const Column *a, const Column *b) { return a->target < b->target; });
            int left = budget;
            for (qsizetype i = 0; i < byTarget.size(); ++i) {
                Column &c = *byTarget[i];
                const int share = left / int(byTarget.size() - i);
                c.target = std::max(c.floor, std::min(c.target, share));
                left = std::max(0, left - c.target);
            }
        }
        m_fitting = true;
        for (const Column &c : columns) {
            if (c.target != m_header->sectionSize(c.column))
                m_header->resizeSection(c.column, c.target);
        }
        m_fitting = false;
    }

    static constexpr int kMinCap = 120;
    QAbstractItemView *m_view;
    QHeaderView *m_header;
    int m_stretchColumn;
    QTimer m_fit;
    bool m_fitting = false;
    bool m_userSized = false;
};

} // namespace

void fitColumnsToContents(QAbstractItemView *view, QHeaderView *header, int stretchColumn)
{
    header->setResizeContentsPrecision(0); // the visible rows only: a long log costs nothing
    new ColumnFitter(view, header, stretchColumn);
}

} // namespace App
