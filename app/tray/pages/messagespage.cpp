#include "app/tray/pages/messagespage.h"

#include "app/tray/operatorpeer.h"
#include "app/tray/pages/listview.h"
#include "app/tray/pages/messagelogfeed.h"
#include "app/tray/pages/messagethreads.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHostInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace App {

namespace {

const QString PeerTarget = QStringLiteral("peer:");
const QString ScopeTarget = QStringLiteral("scope:");

// The send box's item data: "peer:<id>" or "scope:<machine|lan|directory:<path>|repo:<root>>".
QString peerTarget(const QString &id)
{
    return PeerTarget + id;
}

QString scopeTarget(const QString &scope)
{
    return ScopeTarget + scope;
}

QString tagged(const char *tag, const QString &path)
{
    return QLatin1String(tag) + path;
}

} // namespace

MessagesPage::MessagesPage(Broker::BrokerClient &client, OperatorPeer *operatorPeer, QWidget *parent)
    : QWidget(parent),
      m_operator(operatorPeer),
      m_peers(QHostInfo::localHostName()),
      m_log(new MessageLogModel(&m_peers, this)),
      m_threads(new MessageThreadsModel(m_log, &m_peers, this)),
      m_threadsSorted(new QSortFilterProxyModel(this)),
      m_filter(new MessageFilterModel(&m_peers, this)),
      m_feed(new MessageLogFeed(client, m_log, &m_peers, this)),
      m_threadsView(new QListView),
      m_messagesView(new QTableView),
      m_search(new QLineEdit),
      m_peerFilter(new QComboBox),
      m_scopeFilter(new QComboBox),
      m_older(new QPushButton(tr("Older messages"))),
      m_target(new QComboBox),
      m_text(new QLineEdit),
      m_send(new QPushButton(tr("Send"))),
      m_reply(new QPushButton(tr("Reply"))),
      m_status(new QLabel),
      m_operatorLabel(new QLabel),
      m_searchDelay(new QTimer(this))
{
    m_threadsSorted->setSourceModel(m_threads);
    m_threadsSorted->setSortRole(MessageThreadsModel::LastIdRole);
    m_threadsSorted->setDynamicSortFilter(true);
    m_threadsSorted->sort(0, Qt::DescendingOrder);
    m_threadsView->setModel(m_threadsSorted);
    m_threadsView->setObjectName(QStringLiteral("threads"));
    m_threadsView->setCurrentIndex(m_threadsSorted->index(0, 0));

    m_filter->setSourceModel(m_log);
    m_messagesView->setObjectName(QStringLiteral("messages"));
    setUpListView(m_messagesView, m_filter, ModelOrder, MessageLogModel::TextColumn);
    // Fixed row heights: a view does not measure 20,000 rows.
    m_messagesView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_messagesView->verticalHeader()->setDefaultSectionSize(m_messagesView->fontMetrics().height() + 6);

    m_search->setPlaceholderText(tr("Search messages"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaxLength(int(Broker::HistoryRequest::maxFilterBytes / 3));
    m_text->setPlaceholderText(tr("Write a message as the operator"));
    m_text->setMaxLength(10240); // the broker's limit of text + metadata
    m_target->setMinimumContentsLength(24);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(300);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_search, 2);
    filters->addWidget(m_peerFilter, 1);
    filters->addWidget(m_scopeFilter, 1);
    filters->addWidget(m_older);
    auto *sendRow = new QHBoxLayout;
    sendRow->addWidget(new QLabel(tr("To:")));
    sendRow->addWidget(m_target, 1);
    sendRow->addWidget(m_text, 3);
    sendRow->addWidget(m_send);
    sendRow->addWidget(m_reply);
    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(filters);
    rightLayout->addWidget(m_messagesView, 1);
    rightLayout->addLayout(sendRow);
    rightLayout->addWidget(m_status);
    auto *splitter = new QSplitter;
    splitter->addWidget(m_threadsView);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_operatorLabel);
    layout->addWidget(splitter, 1);

    fillFilters();
    fillTargets();
    updateOperatorLabel();

    connect(m_threadsView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MessagesPage::onThreadSelected);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, [this] {
        applyFilters();
        m_feed->search(m_search->text());
    });
    connect(m_peerFilter, &QComboBox::currentIndexChanged, this, &MessagesPage::applyFilters);
    connect(m_scopeFilter, &QComboBox::currentIndexChanged, this, &MessagesPage::applyFilters);
    connect(m_older, &QPushButton::clicked, m_feed, &MessageLogFeed::loadOlder);
    connect(m_target, &QComboBox::activated, this, [this] { m_targetChosen = true; });
    connect(m_send, &QPushButton::clicked, this, &MessagesPage::sendNow);
    connect(m_text, &QLineEdit::returnPressed, this, &MessagesPage::sendNow);
    connect(m_reply, &QPushButton::clicked, this, &MessagesPage::replyNow);
    connect(m_feed, &MessageLogFeed::failed, this,
            [this](const QString &message) { setStatus(message, true); });
    connect(m_feed, &MessageLogFeed::olderLoaded, this, [this](int count, bool more) {
        setStatus(tr("%n older message(s) loaded.", nullptr, count));
        m_older->setEnabled(more);
    });
    connect(m_feed, &MessageLogFeed::peersUpdated, this, [this] {
        fillTargets();
        fillFilters();
    });
    // Keep the newest row in sight while the user is at the bottom.
    connect(m_messagesView->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this](int value) { m_followTail = value >= m_messagesView->verticalScrollBar()->maximum(); });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_followTail && isVisible())
            m_messagesView->scrollToBottom();
        selectPendingMessage();
    });
    if (m_operator) {
        connect(m_operator, &OperatorPeer::stateChanged, this, &MessagesPage::updateOperatorLabel);
        // What reaches the operator is listed at once, before the next round of the feed.
        connect(m_operator, &OperatorPeer::messagesReceived, this,
                [this](const QList<Broker::Message> &messages) { m_log->merge(messages); });
    }
}

void MessagesPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_feed->setActive(true);
}

void MessagesPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_feed->setActive(false);
}

void MessagesPage::updateOperatorLabel()
{
    if (!m_operator) {
        m_operatorLabel->setText(tr("Sending is off: no operator peer."));
        return;
    }
    const bool online = m_operator->isOnline();
    m_operatorLabel->setText(online ? tr("You write as the peer \"%1\" (%2).")
                                          .arg(m_operator->identity().sessionName, m_operator->id())
                                    : tr("Connecting the operator to the broker\u2026"));
    m_send->setEnabled(online);
    m_reply->setEnabled(online);
}

void MessagesPage::fillFilters()
{
    const QString peer = m_peerFilter->currentData().toString();
    const QString scope = m_scopeFilter->currentData().toString();
    const QSignalBlocker blockPeer(m_peerFilter);
    const QSignalBlocker blockScope(m_scopeFilter);
    m_peerFilter->clear();
    m_peerFilter->addItem(tr("Any peer"), QString());
    m_scopeFilter->clear();
    m_scopeFilter->addItem(tr("Any scope"), QString());
    m_scopeFilter->addItem(tr("This machine"), QStringLiteral("machine"));
    QSet<QString> dirs, repos;
    for (const Broker::Peer &p : m_peers.listed()) {
        m_peerFilter->addItem(m_peers.label(p.id), p.id);
        if (!p.cwd.isEmpty())
            dirs.insert(p.cwd);
        if (!p.gitRoot.isEmpty())
            repos.insert(p.gitRoot);
    }
    for (const QString &dir : std::as_const(dirs))
        m_scopeFilter->addItem(tr("Directory %1").arg(dir), tagged("directory:", dir));
    for (const QString &repo : std::as_const(repos))
        m_scopeFilter->addItem(tr("Repository %1").arg(repo), tagged("repo:", repo));
    m_peerFilter->setCurrentIndex(std::max(0, m_peerFilter->findData(peer)));
    m_scopeFilter->setCurrentIndex(std::max(0, m_scopeFilter->findData(scope)));
}

void MessagesPage::applyFilters()
{
    m_filter->setText(m_search->text());
    m_filter->setPeer(m_peerFilter->currentData().toString());
    const QString scope = m_scopeFilter->currentData().toString();
    if (scope.isEmpty())
        m_filter->setScope(MessageFilterModel::Scope::Any);
    else if (scope == QLatin1String("machine"))
        m_filter->setScope(MessageFilterModel::Scope::Machine);
    else if (scope.startsWith(QLatin1String("directory:")))
        m_filter->setScope(MessageFilterModel::Scope::Directory, scope.mid(10));
    else if (scope.startsWith(QLatin1String("repo:")))
        m_filter->setScope(MessageFilterModel::Scope::Repo, scope.mid(5));
}

void MessagesPage::fillTargets()
{
    const QString current = m_target->currentData().toString();
    const QSignalBlocker block(m_target);
    m_target->clear();
    const QString self = m_operator ? m_operator->id() : QString();
    QSet<QString> dirs, repos;
    for (const Broker::Peer &p : m_peers.listed()) {
        if (p.id != self)
            m_target->addItem(m_peers.label(p.id), peerTarget(p.id));
        if (!p.cwd.isEmpty() && !p.isRemote())
            dirs.insert(p.cwd);
        if (!p.gitRoot.isEmpty() && !p.isRemote())
            repos.insert(p.gitRoot);
    }
    m_target->addItem(tr("Everyone on this machine"), scopeTarget(QStringLiteral("machine")));
    for (const QString &dir : std::as_const(dirs))
        m_target->addItem(tr("Everyone in %1").arg(dir), scopeTarget(tagged("directory:", dir)));
    for (const QString &repo : std::as_const(repos))
        m_target->addItem(tr("Everyone in the repository %1").arg(repo), scopeTarget(tagged("repo:", repo)));
    m_target->addItem(tr("Everyone (broadcast, all machines)"), scopeTarget(QStringLiteral("lan")));
    // Until the user picks a target the first peer is the default: a broadcast is never chosen
    // for them.
    const int keep = m_targetChosen ? m_target->findData(current) : -1;
    m_target->setCurrentIndex(keep >= 0 ? keep : 0);
}

void MessagesPage::onThreadSelected()
{
    const QModelIndex current = m_threadsView->currentIndex();
    const QString key = current.data(MessageThreadsModel::ThreadKeyRole).toString();
    m_filter->setThread(key);
    m_messagesView->scrollToBottom();
    if (key.isEmpty() || !m_operator)
        return;
    const QString other = MessageThreadsModel::otherPeer(key, m_operator->id());
    const int row = m_target->findData(peerTarget(other));
    if (row >= 0) {
        m_target->setCurrentIndex(row);
        m_targetChosen = true;
    }
}

void MessagesPage::openPeer(const QString &peerId)
{
    const QString key = threadKey(m_operator ? m_operator->id() : QString(), peerId);
    const int row = m_threads->rowOfKey(key);
    if (row >= 0)
        m_threadsView->setCurrentIndex(m_threadsSorted->mapFromSource(m_threads->index(row)));
    const int target = m_target->findData(peerTarget(peerId));
    m_targetChosen = true;
    if (target >= 0)
        m_target->setCurrentIndex(target);
    else {
        m_target->insertItem(0, m_peers.label(peerId), peerTarget(peerId));
        m_target->setCurrentIndex(0);
    }
    m_text->setFocus();
}

void MessagesPage::openMessage(const QString &peerId, qint64 messageId)
{
    openPeer(peerId);
    m_pendingMessage = messageId;
    selectPendingMessage();
}

void MessagesPage::selectPendingMessage()
{
    if (m_pendingMessage <= 0)
        return;
    const int row = m_log->rowOfId(m_pendingMessage);
    const QModelIndex index = row < 0 ? QModelIndex() : m_filter->mapFromSource(m_log->index(row, 0));
    if (!index.isValid())
        return;
    m_pendingMessage = 0;
    m_followTail = false;
    m_messagesView->setCurrentIndex(index);
    m_messagesView->scrollTo(index);
}

std::optional<Broker::Message> MessagesPage::selectedMessage() const
{
    const QModelIndex current = m_messagesView->currentIndex();
    if (!current.isValid())
        return std::nullopt;
    const int row = m_log->rowOfId(current.data(MessageLogModel::IdRole).toLongLong());
    if (row < 0)
        return std::nullopt;
    return m_log->entryAt(row).message;
}

void MessagesPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setProperty("error", error);
}

void MessagesPage::sendNow()
{
    const QString text = m_text->text();
    if (text.trimmed().isEmpty() || !m_operator)
        return;
    const QString target = m_target->currentData().toString();
    const auto sent = [this, text](bool ok, const QString &status) {
        setStatus(status, !ok);
        if (ok) {
            if (m_text->text() == text)
                m_text->clear();
            m_feed->refresh();
        }
    };
    if (target.startsWith(PeerTarget)) {
        const QString to = target.mid(PeerTarget.size());
        m_operator->send(to, text, [sent, to](Broker::Result<qint64> id) {
            if (!id)
                sent(false, id.error().message);
            else if (*id == 0)
                sent(true, tr("Relayed to %1.").arg(to));
            else
                sent(true, tr("Sent as message #%1.").arg(*id));
        });
        return;
    }
    if (!target.startsWith(ScopeTarget))
        return;
    const QString scope = target.mid(ScopeTarget.size());
    QString kind = scope, cwd, gitRoot;
    if (scope.startsWith(QLatin1String("directory:"))) {
        kind = QStringLiteral("directory");
        cwd = scope.mid(10);
    } else if (scope.startsWith(QLatin1String("repo:"))) {
        kind = QStringLiteral("repo");
        gitRoot = scope.mid(5);
        cwd = gitRoot;
    }
    m_operator->broadcast(kind, text, cwd, gitRoot, [sent](Broker::Result<Broker::BroadcastAnswer> answer) {
        if (!answer)
            sent(false, answer.error().message);
        else
            sent(true, tr("Broadcast to %n peer(s).", nullptr, int(answer->recipients)));
    });
}

void MessagesPage::replyNow()
{
    const QString text = m_text->text();
    const auto message = selectedMessage();
    if (!m_operator || text.trimmed().isEmpty())
        return;
    if (!message) {
        setStatus(tr("Select the message to reply to."), true);
        return;
    }
    m_operator->reply(*message, text, [this, text](Broker::Result<qint64> id) {
        if (!id) {
            setStatus(id.error().message, true);
            return;
        }
        setStatus(tr("Replied as message #%1.").arg(*id));
        if (m_text->text() == text)
            m_text->clear();
        m_feed->refresh();
    });
}

} // namespace App
