#include "peerspage.h"

#include "brokerapi.h"
#include "peerfacts.h"
#include "peersbymachinemodel.h"
#include "peersmodel.h"
#include "traypresenter.h"

#include <QApplication>
#include <QClipboard>
#include <QColor>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace App {

namespace {

constexpr int TimesRefreshMs = 5000; // "3 min" needs no finer steps; seconds show on the next one

// Sorts peers within their machine by the chosen column while the machines keep their order
// (this machine first) whichever way the column sorts; filters on any column and keeps a
// machine whose peers match. Adds the same-folder marker and the badge colours.
class PeersProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::DecorationRole && index.column() == PeersModel::NameColumn &&
            !QSortFilterProxyModel::data(index, PeersModel::SameFolderRole).toStringList().isEmpty())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        if (role == Qt::ForegroundRole && index.column() == PeersModel::ReachabilityColumn) {
            const QVariant reach = QSortFilterProxyModel::data(index, PeersModel::ReachabilityRole);
            if (!reach.isValid())
                return {};
            switch (Reachability(reach.toInt())) {
            case Reachability::Push:
                return QColor(0x1b, 0x7f, 0x3b);
            case Reachability::PollOnly:
                return {};
            case Reachability::Stale:
                return QColor(0xb2, 0x6b, 0x00);
            case Reachability::Unreachable:
                return QColor(0xc0, 0x1c, 0x28);
            }
        }
        if (role == Qt::FontRole && !index.parent().isValid()) {
            QFont bold = QApplication::font();
            bold.setBold(true);
            return bold;
        }
        return QSortFilterProxyModel::data(index, role);
    }

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        if (!left.parent().isValid()) { // machines: the same order both ways
            const QString a = left.data(PeersByMachineModel::MachineRankRole).toString();
            const QString b = right.data(PeersByMachineModel::MachineRankRole).toString();
            return sortOrder() == Qt::AscendingOrder ? a < b : b < a;
        }
        return QSortFilterProxyModel::lessThan(left, right);
    }
};

} // namespace

PeersPage::PeersPage(PeersModel *model, TrayPresenter *presenter, Broker::BrokerClient *client,
                     QWidget *parent)
    : QWidget(parent),
      m_model(model),
      m_presenter(presenter),
      m_client(client),
      m_tree(new PeersByMachineModel(model, this)),
      m_times(new QTimer(this)),
      m_proxy(new PeersProxy(this)),
      m_view(new QTreeView(this)),
      m_filter(new QLineEdit(this)),
      m_details(new QPlainTextEdit(this)),
      m_copyDetails(new QPushButton(tr("Copy details"), this)),
      m_nameEdit(new QLineEdit(this)),
      m_rename(new QPushButton(tr("Rename"), this)),
      m_renameStatus(new QLabel(this)),
      m_status(new QLabel(this)),
      m_retry(new QPushButton(tr("Retry broker start"), this))
{
    setObjectName(QStringLiteral("peersPage"));

    m_proxy->setSourceModel(m_tree);
    m_proxy->setSortRole(PeersModel::SortRole);
    m_proxy->setFilterKeyColumn(-1); // any column matches
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true); // a machine stays while one of its peers matches
    m_proxy->setAutoAcceptChildRows(true); // typing a machine's name shows all its peers

    m_filter->setObjectName(QStringLiteral("filter"));
    m_filter->setPlaceholderText(tr("Filter by name, machine, ID, project, directory or summary"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setObjectName(QStringLiteral("peersView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    // Attention-ordered: who needs you first, longest waiting first; then busy, idle, by name.
    m_view->sortByColumn(PeersModel::StateColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setUniformRowHeights(true);
    m_view->setColumnHidden(PeersModel::MachineColumn, true); // the machine rows say it
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(PeersModel::SummaryColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(PeersModel::NameColumn, 190);
    m_view->setColumnWidth(PeersModel::StateColumn, 120);
    m_view->setColumnWidth(PeersModel::IdColumn, 90);
    m_view->setColumnWidth(PeersModel::ProjectColumn, 140);
    m_view->setColumnWidth(PeersModel::DirectoryColumn, 200);
    m_view->setColumnWidth(PeersModel::ReachabilityColumn, 90);
    m_view->setColumnWidth(PeersModel::LastSeenColumn, 90);
    m_view->expandAll();
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent, int first, int last) {
                if (parent.isValid())
                    return;
                for (int row = first; row <= last; ++row)
                    m_view->expand(m_proxy->index(row, 0));
            });

    m_details->setObjectName(QStringLiteral("details"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Select a peer to see every field of its record."));
    m_copyDetails->setObjectName(QStringLiteral("copyDetails"));
    connect(m_copyDetails, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_details->toPlainText()); });
    m_nameEdit->setObjectName(QStringLiteral("nameEdit"));
    m_nameEdit->setPlaceholderText(tr("New session name"));
    m_rename->setObjectName(QStringLiteral("rename"));
    m_renameStatus->setObjectName(QStringLiteral("renameStatus"));
    m_renameStatus->setWordWrap(true);
    m_renameStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_rename, &QPushButton::clicked, this, &PeersPage::rename);
    connect(m_nameEdit, &QLineEdit::returnPressed, this, &PeersPage::rename);

    auto *detailsPane = new QWidget(this);
    auto *detailsLayout = new QVBoxLayout(detailsPane);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_details, 1);
    detailsLayout->addWidget(m_copyDetails, 0, Qt::AlignLeft);
    auto *renameRow = new QHBoxLayout;
    renameRow->addWidget(m_nameEdit, 1);
    renameRow->addWidget(m_rename);
    detailsLayout->addLayout(renameRow);
    detailsLayout->addWidget(m_renameStatus);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(detailsPane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    m_status->setObjectName(QStringLiteral("status"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_retry->setObjectName(QStringLiteral("retry"));
    connect(m_retry, &QPushButton::clicked, this, &PeersPage::retryRequested);

    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_retry);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(split, 1);
    layout->addLayout(statusRow);

    m_times->setInterval(TimesRefreshMs);
    m_times->callOnTimeout(model, &PeersModel::refreshTimes);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PeersPage::updateDetails);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &PeersPage::updateDetails);
    connect(model, &QAbstractItemModel::dataChanged, this, &PeersPage::updateDetails);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &PeersPage::updateDetails);
    connect(presenter, &TrayPresenter::changed, this, &PeersPage::updateStatus);
    updateStatus();
    updateDetails();
}

QString PeersPage::selectedPeerId() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return {};
    const QModelIndex index = rows.first();
    return index.parent().isValid() ? index.data(PeersModel::PeerIdRole).toString() : QString();
}

void PeersPage::selectPeer(const QString &peerId)
{
    const QModelIndex index = m_proxy->mapFromSource(m_tree->peerIndex(peerId));
    if (!index.isValid())
        return; // gone meanwhile, or filtered out: the window alone is the answer
    m_view->expand(index.parent());
    m_view->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

void PeersPage::updateDetails()
{
    const QString id = selectedPeerId();
    const int row = id.isEmpty() ? -1 : m_model->rowOf(id);
    if (row < 0) {
        m_details->clear();
        m_detailsPeer.clear();
        m_copyDetails->setEnabled(false);
        m_nameEdit->clear();
        m_nameEdit->setEnabled(false);
        m_rename->setEnabled(false);
        return;
    }
    const Broker::Peer &peer = m_model->peerAt(row);
    const QString text = PeerFacts::details(peer, QDateTime::currentDateTimeUtc());
    if (m_details->toPlainText() != text)
        m_details->setPlainText(text);
    m_copyDetails->setEnabled(true);
    // Only the local broker names its own sessions; a remote peer is renamed on its machine.
    const bool canRename = m_client && !peer.isRemote();
    m_nameEdit->setEnabled(canRename);
    m_rename->setEnabled(canRename);
    m_rename->setToolTip(canRename ? QString() : tr("A remote peer is renamed on its own machine."));
    if (m_detailsPeer != id) {
        m_detailsPeer = id;
        m_nameEdit->setText(peer.sessionName);
        m_renameStatus->clear();
    }
}

void PeersPage::rename()
{
    const QString id = selectedPeerId();
    const QString name = m_nameEdit->text().trimmed();
    if (id.isEmpty() || !m_client)
        return;
    if (name.isEmpty()) {
        m_renameStatus->setText(tr("Type a name first."));
        return;
    }
    m_rename->setEnabled(false);
    m_renameStatus->setText(tr("Renaming…"));
    QPointer<PeersPage> self(this);
    Broker::BrokerApi(*m_client).call(
        Broker::SetNameRequest {id, name}, [self, id, name](Broker::Result<Broker::OkAnswer> answer) {
            if (!self)
                return;
            self->m_rename->setEnabled(true);
            if (!answer) {
                self->m_renameStatus->setText(tr("Could not rename %1: %2").arg(id, answer.error().message));
                return;
            }
            if (!answer->ok) {
                self->m_renameStatus->setText(
                    tr("The broker did not rename %1 (is it still registered?).").arg(id));
                return;
            }
            self->m_renameStatus->setText(tr("Renamed %1 to \"%2\".").arg(id, name));
            Q_EMIT self->peerRenamed(id, name);
        });
}

void PeersPage::showEvent(QShowEvent *event)
{
    m_model->refreshTimes();
    m_times->start();
    QWidget::showEvent(event);
}

void PeersPage::hideEvent(QHideEvent *event)
{
    m_times->stop();
    QWidget::hideEvent(event);
}

void PeersPage::updateStatus()
{
    m_status->setText(m_presenter->statusText());
    m_retry->setVisible(m_presenter->canRetry());
}

} // namespace App
