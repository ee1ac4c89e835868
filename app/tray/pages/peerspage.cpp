#include "app/tray/pages/peerspage.h"

#include "app/tray/pages/listview.h"
#include "app/tray/pages/opencodeactivity.h"
#include "app/tray/pages/opencoderowsmodel.h"
#include "app/tray/peerfacts.h"
#include "app/tray/peersbymachinemodel.h"
#include "app/tray/peersfilterproxy.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traypresenter.h"
#include "common/brokerapi.h"

#include <QApplication>
#include <QClipboard>
#include <QColor>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace App {

namespace {

constexpr int TimesRefreshMs = 5000; // "3 min" needs no finer steps; seconds show on the next one

// The core proxy's sorting and filtering, plus what only a screen needs: the same-folder
// marker, the badge colours, bold machine rows.
class PeersProxy : public PeersFilterProxy
{
public:
    using PeersFilterProxy::PeersFilterProxy;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::DecorationRole && index.column() == PeersModel::NameColumn &&
            !PeersFilterProxy::data(index, PeersModel::SameFolderRole).toStringList().isEmpty())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        if (role == Qt::ForegroundRole && index.column() == PeersModel::ReachabilityColumn) {
            const QVariant reach = PeersFilterProxy::data(index, PeersModel::ReachabilityRole);
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
        return PeersFilterProxy::data(index, role);
    }
};

bool isSession(const QModelIndex &index)
{
    return index.isValid() && index.parent().isValid() &&
        index.data(PeersModel::KindRole).toInt() == int(PeersModel::Kind::OpenCodeSession);
}

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
      m_scope(new QComboBox(this)),
      m_details(new QPlainTextEdit(this)),
      m_copyDetails(new QPushButton(tr("Copy details"), this)),
      m_message(new QPushButton(tr("Message…"), this)),
      m_openSession(new QPushButton(tr("Send, fork or wait…"), this)),
      m_nameEdit(new QLineEdit(this)),
      m_rename(new QPushButton(tr("Rename"), this)),
      m_renameStatus(new QLabel(this)),
      m_status(new QLabel(this)),
      m_retry(new QPushButton(tr("Retry broker start"), this))
{
    setObjectName(QStringLiteral("peersPage"));

    m_proxy->setSourceModel(m_tree);

    m_filter->setObjectName(QStringLiteral("filter"));
    m_filter->setPlaceholderText(tr("Filter by name, machine, ID, project, directory or summary"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_scope->setObjectName(QStringLiteral("scope"));
    m_scope->setToolTip(tr("Show one machine, one repository or one folder (the scopes of list_peers "
                           "and broadcast)"));
    m_scope->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_scope->setMaximumWidth(360);
    connect(m_scope, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_proxy->setScope(index >= 0 && index < m_scopes.size() ? m_scopes.at(index) : PeerScope {});
    });

    m_view->setObjectName(QStringLiteral("peersView"));
    // Attention-ordered: who needs you first, longest waiting first; then busy, idle, by name.
    setUpListView(m_view, m_proxy, PeersModel::StateColumn, PeersModel::SummaryColumn);
    m_view->setAlternatingRowColors(true);
    m_view->setColumnHidden(PeersModel::MachineColumn, true); // the machine rows say it
    // The scope (repo) and the project (its sub-folder) say where; the full path is in the
    // project's tooltip and the details, and the filter still matches it. The summary needs
    // the room.
    m_view->setColumnHidden(PeersModel::DirectoryColumn, true);
    // A machine's row is a heading across the whole width (its name, counts and link).
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        m_view->setFirstColumnSpanned(row, {}, true);
    m_view->expandAll();
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent, int first, int last) {
                if (parent.isValid())
                    return;
                for (int row = first; row <= last; ++row) {
                    m_view->setFirstColumnSpanned(row, {}, true);
                    m_view->expand(m_proxy->index(row, 0));
                }
            });

    m_details->setObjectName(QStringLiteral("details"));
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Select a peer to see every field of its record."));
    m_copyDetails->setObjectName(QStringLiteral("copyDetails"));
    connect(m_copyDetails, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_details->toPlainText()); });
    m_message->setObjectName(QStringLiteral("message"));
    m_message->setToolTip(tr("Write to this peer as the operator, on the Messages page"));
    connect(m_message, &QPushButton::clicked, this, [this] {
        if (const QString id = selectedPeerId(); !id.isEmpty())
            Q_EMIT messageRequested(id);
    });
    m_openSession->setObjectName(QStringLiteral("openSession"));
    m_openSession->setToolTip(tr("Send this OpenCode session a prompt, fork it or wait for it, on the "
                                 "Sessions page"));
    connect(m_openSession, &QPushButton::clicked, this, [this] {
        const QString id = selectedSessionId();
        if (id.isEmpty() || !m_openCodeRows)
            return;
        const int row = m_openCodeRows->rowOf(id);
        if (row >= 0)
            Q_EMIT openSessionRequested(m_openCodeRows->sessionAt(row).directory, id);
    });
    connect(m_view, &QAbstractItemView::activated, this, &PeersPage::actOn);
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
    auto *actionsRow = new QHBoxLayout;
    actionsRow->addWidget(m_copyDetails);
    actionsRow->addWidget(m_message);
    actionsRow->addWidget(m_openSession);
    actionsRow->addStretch(1);
    detailsLayout->addLayout(actionsRow);
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

    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_scope);
    filterRow->addWidget(m_filter, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filterRow);
    layout->addWidget(split, 1);
    layout->addLayout(statusRow);

    m_times->setInterval(TimesRefreshMs);
    m_times->callOnTimeout(this, &PeersPage::refreshTimes);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PeersPage::updateDetails);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &PeersPage::updateDetails);
    connect(m_tree, &QAbstractItemModel::dataChanged, this, &PeersPage::updateDetails);
    connect(m_tree, &QAbstractItemModel::rowsRemoved, this, &PeersPage::updateDetails);
    // The scopes offered are those present: a row that comes, goes or moves changes them.
    connect(m_tree, &QAbstractItemModel::rowsInserted, this, &PeersPage::updateScopes);
    connect(m_tree, &QAbstractItemModel::rowsRemoved, this, &PeersPage::updateScopes);
    connect(m_tree, &QAbstractItemModel::dataChanged, this, &PeersPage::updateScopes);
    connect(presenter, &TrayPresenter::changed, this, &PeersPage::updateStatus);
    updateStatus();
    updateScopes();
    updateDetails();
}

void PeersPage::showOpenCodeSessions(OpenCodeActivity *activity)
{
    if (m_openCodeRows || !activity)
        return;
    m_openCodeRows = new OpenCodeRowsModel(activity, this);
    m_tree->addSource(m_openCodeRows);
    updateDetails();
}

void PeersPage::refreshTimes()
{
    m_model->refreshTimes();
    if (m_openCodeRows)
        m_openCodeRows->refreshTimes();
}

void PeersPage::updateScopes()
{
    QList<PeerScope> scopes = PeerScope::presentIn(*m_tree);
    const PeerScope chosen = m_proxy->scope();
    if (!scopes.contains(chosen))
        scopes.append(chosen); // its rows left: it stays chosen (and empty) until changed
    if (scopes == m_scopes)
        return;
    const QSignalBlocker quiet(m_scope);
    m_scopes = scopes;
    m_scope->clear();
    for (const PeerScope &scope : std::as_const(m_scopes))
        m_scope->addItem(scope.label());
    m_scope->setCurrentIndex(int(m_scopes.indexOf(chosen)));
}

void PeersPage::actOn(const QModelIndex &index)
{
    if (!index.parent().isValid())
        return; // a machine row
    if (isSession(index))
        m_openSession->click();
    else
        m_message->click();
}

namespace {

QModelIndex selectedRow(const QTreeView *view)
{
    const QModelIndexList rows = view->selectionModel()->selectedRows();
    return rows.isEmpty() || !rows.first().parent().isValid() ? QModelIndex() : rows.first();
}

} // namespace

QString PeersPage::selectedPeerId() const
{
    const QModelIndex index = selectedRow(m_view);
    return index.isValid() && !isSession(index) ? index.data(PeersModel::PeerIdRole).toString() : QString();
}

QString PeersPage::selectedSessionId() const
{
    const QModelIndex index = selectedRow(m_view);
    return isSession(index) ? index.data(PeersModel::PeerIdRole).toString() : QString();
}

void PeersPage::selectPeer(const QString &peerId)
{
    select(m_tree->peerIndex(peerId));
}

void PeersPage::selectSession(const QString &sessionId)
{
    select(m_tree->itemIndex(int(PeersModel::Kind::OpenCodeSession), sessionId));
}

void PeersPage::select(const QModelIndex &treeIndex)
{
    const QModelIndex index = m_proxy->mapFromSource(treeIndex);
    if (!index.isValid())
        return; // gone meanwhile, or filtered out: the window alone is the answer
    m_view->expand(index.parent());
    m_view->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

void PeersPage::updateDetails()
{
    const QString sessionId = selectedSessionId();
    const int sessionRow = sessionId.isEmpty() || !m_openCodeRows ? -1 : m_openCodeRows->rowOf(sessionId);
    const QString id = selectedPeerId();
    const int row = id.isEmpty() ? -1 : m_model->rowOf(id);
    m_message->setEnabled(row >= 0);
    m_openSession->setEnabled(sessionRow >= 0);
    m_openSession->setVisible(m_openCodeRows != nullptr);
    if (sessionRow >= 0) {
        const OpenCodeSession &session = m_openCodeRows->sessionAt(sessionRow);
        showDetails(OpenCodeRowsModel::details(
            session, m_openCodeRows->index(sessionRow, 0).data(PeersModel::GitRootRole).toString(),
            OpenCodeRowsModel::openCodePeersIn(m_model->peers(), session.directory),
            QDateTime::currentDateTimeUtc()));
        m_nameEdit->clear();
        m_nameEdit->setEnabled(false);
        m_rename->setEnabled(false);
        m_rename->setToolTip(tr("An OpenCode session's title is set in OpenCode."));
        m_detailsPeer.clear();
        m_renameStatus->clear();
        return;
    }
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
    showDetails(PeerFacts::details(peer, QDateTime::currentDateTimeUtc()));
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

void PeersPage::showDetails(const QString &text)
{
    if (m_details->toPlainText() != text)
        m_details->setPlainText(text);
    m_copyDetails->setEnabled(true);
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
    refreshTimes();
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
