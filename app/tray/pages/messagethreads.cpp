#include "app/tray/pages/messagethreads.h"

#include "app/tray/pages/messagelog.h"

#include <algorithm>
#include <limits>

namespace App {

MessageThreadsModel::MessageThreadsModel(const MessageLogModel *log, const PeerDirectory *peers,
                                         QObject *parent)
    : QAbstractListModel(parent), m_log(log), m_peers(peers)
{
    m_threads.append(Thread {});
    connect(log, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) { addRows(first, last); });
    connect(log, &QAbstractItemModel::rowsRemoved, this, &MessageThreadsModel::rebuild);
    connect(log, &QAbstractItemModel::modelReset, this, &MessageThreadsModel::rebuild);
    rebuild();
}

void MessageThreadsModel::addRows(int first, int last)
{
    QHash<int, bool> changed;
    const int before = int(m_threads.size());
    QList<Thread> added;
    for (int row = first; row <= last; ++row) {
        const QModelIndex index = m_log->index(row, 0);
        const QString key = index.data(MessageLogModel::ThreadKeyRole).toString();
        const qint64 id = index.data(MessageLogModel::IdRole).toLongLong();
        const QString text = index.data(MessageLogModel::TextRole).toString().left(120);
        Thread *thread = nullptr;
        if (const auto it = m_rowOf.constFind(key); it != m_rowOf.cend()) {
            thread = &m_threads[*it];
            changed.insert(*it, true);
        } else {
            bool found = false;
            for (Thread &pending : added) {
                if (pending.key == key) {
                    thread = &pending;
                    found = true;
                    break;
                }
            }
            if (!found) {
                added.append(Thread {key, 0, 0, {}});
                thread = &added.last();
            }
        }
        ++thread->count;
        if (id >= thread->lastId) {
            thread->lastId = id;
            thread->lastText = text;
        }
        Thread &all = m_threads[0];
        ++all.count;
        all.lastId = std::max(all.lastId, id);
        changed.insert(0, true);
    }
    for (auto it = changed.cbegin(); it != changed.cend(); ++it)
        Q_EMIT dataChanged(index(it.key()), index(it.key()));
    if (!added.isEmpty()) {
        beginInsertRows({}, before, before + int(added.size()) - 1);
        for (Thread &thread : added) {
            m_rowOf.insert(thread.key, int(m_threads.size()));
            m_threads.append(std::move(thread));
        }
        endInsertRows();
    }
}

void MessageThreadsModel::rebuild()
{
    beginResetModel();
    m_threads = {Thread {}};
    m_rowOf.clear();
    endResetModel();
    if (m_log->rowCount() > 0)
        addRows(0, m_log->rowCount() - 1);
}

int MessageThreadsModel::rowOfKey(const QString &key) const
{
    if (key.isEmpty())
        return 0;
    return m_rowOf.value(key, -1);
}

QString MessageThreadsModel::keyAt(int row) const
{
    return row >= 0 && row < m_threads.size() ? m_threads.at(row).key : QString();
}

QString MessageThreadsModel::otherPeer(const QString &key, const QString &operatorId)
{
    const QStringList peers = threadPeers(key);
    if (peers.size() != 2)
        return {};
    return peers.at(0) == operatorId ? peers.at(1) : peers.at(0);
}

int MessageThreadsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_threads.size());
}

QVariant MessageThreadsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_threads.size())
        return {};
    const Thread &thread = m_threads.at(index.row());
    switch (role) {
    case ThreadKeyRole:
        return thread.key;
    case LastIdRole:
        // All messages stays on top of a list sorted by the latest message.
        return index.row() == 0 ? std::numeric_limits<qint64>::max() : thread.lastId;
    case CountRole:
        return thread.count;
    case Qt::ToolTipRole:
        return thread.lastText;
    case Qt::DisplayRole: {
        if (index.row() == 0)
            return tr("All messages (%n)", nullptr, thread.count);
        const QStringList peers = threadPeers(thread.key);
        const auto label = [this](const QString &id) { return m_peers ? m_peers->label(id) : id; };
        const QString between = peers.size() == 2 && peers.at(0) != peers.at(1)
            ? QStringLiteral("%1 \u2194 %2").arg(label(peers.at(0)), label(peers.at(1)))
            : label(peers.value(0));
        return tr("%1 \u2014 %n message(s)", nullptr, thread.count).arg(between);
    }
    }
    return {};
}

// ---- MessageFilterModel ----

MessageFilterModel::MessageFilterModel(const PeerDirectory *peers, QObject *parent)
    : QSortFilterProxyModel(parent), m_peers(peers)
{
}

void MessageFilterModel::setThread(const QString &key)
{
    if (m_thread == key)
        return;
    m_thread = key;
    invalidateFilter();
}

void MessageFilterModel::setPeer(const QString &id)
{
    if (m_peer == id)
        return;
    m_peer = id;
    invalidateFilter();
}

void MessageFilterModel::setScope(Scope scope, const QString &path)
{
    if (m_scope == scope && m_scopePath == path)
        return;
    m_scope = scope;
    m_scopePath = path;
    invalidateFilter();
}

void MessageFilterModel::setText(const QString &text)
{
    if (m_text == text)
        return;
    m_text = text;
    invalidateFilter();
}

bool MessageFilterModel::inScope(const QString &peerId) const
{
    switch (m_scope) {
    case Scope::Any:
        return true;
    case Scope::Machine:
        return !peerId.contains(QLatin1Char(':'));
    case Scope::Directory:
    case Scope::Repo: {
        const Broker::Peer *peer = m_peers ? m_peers->peer(peerId) : nullptr;
        if (!peer)
            return false;
        return m_scope == Scope::Directory ? peer->cwd == m_scopePath : peer->gitRoot == m_scopePath;
    }
    }
    return true;
}

bool MessageFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_thread.isEmpty() && index.data(MessageLogModel::ThreadKeyRole).toString() != m_thread)
        return false;
    const QString from = index.data(MessageLogModel::FromIdRole).toString();
    const QString to = index.data(MessageLogModel::ToIdRole).toString();
    if (!m_peer.isEmpty() && from != m_peer && to != m_peer)
        return false;
    if (m_scope == Scope::Machine && !(inScope(from) && inScope(to)))
        return false;
    if ((m_scope == Scope::Directory || m_scope == Scope::Repo) && !inScope(from) && !inScope(to))
        return false;
    if (!m_text.isEmpty() &&
        !index.data(MessageLogModel::TextRole).toString().contains(m_text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace App
