#include "listview.h"

#include <QTimer>

#include <algorithm>

namespace App {

namespace {

// Grows the columns other than the stretch one to what their visible rows need, as rows arrive,
// never beyond a third of the view, until the user drags one: a header's default 100 px cuts
// names, times and paths that would fit.
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
        connect(header, &QHeaderView::sectionResized, this, [this](int column) {
            if (!m_fitting && column != m_stretchColumn)
                m_userSized = true;
        });
        m_fit.start();
    }

private:
    void fit()
    {
        if (m_userSized || m_view->model()->rowCount() == 0)
            return;
        const int cap = std::max(kMinCap, m_view->viewport()->width() / 3);
        m_fitting = true;
        for (int column = 0; column < m_header->count(); ++column) {
            if (column == m_stretchColumn || m_header->isSectionHidden(column))
                continue;
            const int wanted =
                std::min(cap, std::max(m_view->sizeHintForColumn(column), m_header->sectionSizeHint(column)));
            if (wanted > m_header->sectionSize(column))
                m_header->resizeSection(column, wanted);
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
