#include "peerswindow.h"

#include "peersmodel.h"
#include "traypresenter.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace App {

namespace {
constexpr int TimesRefreshMs = 5000; // "3 min" needs no finer steps; seconds show on the next one
}

PeersWindow::PeersWindow(PeersModel *model, TrayPresenter *presenter, QWidget *parent)
    : QWidget(parent),
      m_model(model),
      m_presenter(presenter),
      m_times(new QTimer(this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView(this)),
      m_filter(new QLineEdit(this)),
      m_status(new QLabel(this)),
      m_retry(new QPushButton(tr("Retry broker start"), this))
{
    setObjectName(QStringLiteral("peersWindow"));

    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(PeersModel::SortRole);
    m_proxy->setFilterKeyColumn(-1); // any column matches
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setObjectName(QStringLiteral("filter"));
    m_filter->setPlaceholderText(tr("Filter by name, ID, directory or summary"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setObjectName(QStringLiteral("peersView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    // Attention-ordered: who needs you first, longest waiting first; then busy, idle, by name.
    m_view->sortByColumn(PeersModel::StateColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    // The summary takes the room that is left, so the table fits without a scroll bar.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(PeersModel::SummaryColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setColumnWidth(PeersModel::NameColumn, 130);
    m_view->setColumnWidth(PeersModel::StateColumn, 130);
    m_view->setColumnWidth(PeersModel::IdColumn, 90);
    m_view->setColumnWidth(PeersModel::DirectoryColumn, 230);
    m_view->setColumnWidth(PeersModel::PushColumn, 80);
    m_view->setColumnWidth(PeersModel::LastSeenColumn, 110);

    m_status->setObjectName(QStringLiteral("status"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_retry->setObjectName(QStringLiteral("retry"));
    connect(m_retry, &QPushButton::clicked, this, &PeersWindow::retryRequested);

    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_retry);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addLayout(statusRow);

    m_times->setInterval(TimesRefreshMs);
    m_times->callOnTimeout(model, &PeersModel::refreshTimes);

    connect(presenter, &TrayPresenter::changed, this, &PeersWindow::updateStatus);
    updateStatus();
    resize(900, 360);
}

void PeersWindow::selectPeer(const QString &peerId)
{
    const int row = m_model->rowOf(peerId);
    if (row < 0)
        return; // gone meanwhile: the window alone is the answer
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, PeersModel::NameColumn));
    if (!index.isValid())
        return; // filtered out
    m_view->selectRow(index.row());
    m_view->scrollTo(index);
}

void PeersWindow::showEvent(QShowEvent *event)
{
    m_model->refreshTimes();
    m_times->start();
    QWidget::showEvent(event);
}

void PeersWindow::hideEvent(QHideEvent *event)
{
    m_times->stop();
    QWidget::hideEvent(event);
}

void PeersWindow::updateStatus()
{
    m_status->setText(m_presenter->statusText());
    m_retry->setVisible(m_presenter->canRetry());
}

} // namespace App
