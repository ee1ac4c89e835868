#include "app/tray/peersmodel.h"

#include "app/tray/attention.h"
#include "app/tray/brokerhost.h"
#include "app/tray/peerfacts.h"

#include <QDateTime>
#include <QHash>
#include <QSet>

namespace App {

using Broker::Peer;

namespace {

// Cells whose text or tooltip depends on fields that changed between a and b.
bool cellDiffers(const Peer &a, const Peer &b, int column)
{
    switch (column) {
    case PeersModel::NameColumn: // the tooltip shows pid, tty, version, registration
        return a.sessionName != b.sessionName || a.pid != b.pid || a.tty != b.tty || a.version != b.version ||
            a.client != b.client || a.registeredAt != b.registeredAt;
    case PeersModel::MachineColumn:
        return a.id != b.id;
    case PeersModel::StateColumn:
        return a.attention != b.attention || a.attentionSince != b.attentionSince ||
            a.attentionMessage != b.attentionMessage;
    case PeersModel::IdColumn:
        return a.id != b.id;
    case PeersModel::ProjectColumn: // the branch comes from the summary's "[repo:branch]"
        return a.cwd != b.cwd || a.gitRoot != b.gitRoot || a.summary != b.summary;
    case PeersModel::ScopeColumn:
    case PeersModel::DirectoryColumn:
        return a.cwd != b.cwd || a.gitRoot != b.gitRoot;
    case PeersModel::SummaryColumn:
        return a.summary != b.summary;
    case PeersModel::ReachabilityColumn:
        return a.channelPush != b.channelPush || a.lastSeen != b.lastSeen;
    case PeersModel::LastSeenColumn:
        return a.lastSeen != b.lastSeen;
    }
    return false;
}

} // namespace

PeersModel::PeersModel(QObject *parent) : QAbstractTableModel(parent) { }

void PeersModel::attach(BrokerHost *host)
{
    m_host = host;
    connect(host, &BrokerHost::snapshotChanged, this, &PeersModel::syncFromHost);
    connect(host, &BrokerHost::stateChanged, this, &PeersModel::syncFromHost);
    syncFromHost();
}

// A diff of the whole (small) list rather than per-signal bookkeeping: the broker's
// liveness prune can drop peers without a per-peer signal, and a diff catches that too.
void PeersModel::syncFromHost()
{
    sync(m_host ? m_host->snapshot().peers : QList<Peer> {});
}

void PeersModel::sync(const QList<Peer> &peers)
{
    const QHash<QString, QStringList> collisionsBefore = collisions();
    QHash<QString, qsizetype> wanted;
    for (qsizetype i = 0; i < peers.size(); ++i)
        wanted.insert(peers.at(i).id, i);

    // Removals, from the end, one signal per contiguous block.
    for (int row = int(m_peers.size()) - 1; row >= 0; --row) {
        if (wanted.contains(m_peers.at(row).id))
            continue;
        const int last = row;
        while (row > 0 && !wanted.contains(m_peers.at(row - 1).id))
            --row;
        beginRemoveRows({}, row, last);
        m_peers.remove(row, last - row + 1);
        endRemoveRows();
    }

    // Changes in place: only the span of cells that differ.
    QSet<QString> present;
    for (int row = 0; row < m_peers.size(); ++row) {
        const Peer &next = peers.at(wanted.value(m_peers.at(row).id));
        present.insert(next.id);
        int first = -1;
        int last = -1;
        for (int column = 0; column < ColumnCount; ++column) {
            if (cellDiffers(m_peers.at(row), next, column)) {
                if (first < 0)
                    first = column;
                last = column;
            }
        }
        if (first < 0)
            continue;
        m_peers[row] = next;
        Q_EMIT dataChanged(index(row, first), index(row, last));
    }

    // New peers at the end, in the broker's order.
    QList<Peer> added;
    for (const Peer &peer : peers) {
        if (present.contains(peer.id))
            continue;
        present.insert(peer.id); // a duplicate id in the input counts once
        added.append(peer);
    }
    if (!added.isEmpty()) {
        const int first = int(m_peers.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_peers.append(added);
        endInsertRows();
    }
    // A peer that came, went or moved changes the marker of the others in its folder.
    emitCollisionChanges(collisionsBefore);
}

QStringList PeersModel::sameFolderPeers(int row) const
{
    return PeerFacts::sameFolderPeers(m_peers, row, now());
}

QHash<QString, QStringList> PeersModel::collisions() const
{
    QHash<QString, QStringList> byId;
    for (int row = 0; row < m_peers.size(); ++row) {
        QStringList others = sameFolderPeers(row);
        if (!others.isEmpty())
            byId.insert(m_peers.at(row).id, std::move(others));
    }
    return byId;
}

void PeersModel::emitCollisionChanges(const QHash<QString, QStringList> &before)
{
    const QHash<QString, QStringList> after = collisions();
    if (after == before)
        return;
    for (int row = 0; row < m_peers.size(); ++row) {
        const QString &id = m_peers.at(row).id;
        if (before.value(id) != after.value(id))
            Q_EMIT dataChanged(index(row, NameColumn), index(row, NameColumn));
    }
}

int PeersModel::rowOf(const QString &peerId) const
{
    for (int row = 0; row < m_peers.size(); ++row) {
        if (m_peers.at(row).id == peerId)
            return row;
    }
    return -1;
}

void PeersModel::refreshTimes()
{
    if (!m_peers.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_peers.size()) - 1, ColumnCount - 1));
}

int PeersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_peers.size());
}

int PeersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PeersModel::displayValue(const Peer &peer, int column) const
{
    switch (column) {
    case NameColumn:
        return peer.sessionName;
    case MachineColumn:
        return peer.isRemote() ? PeerFacts::machineOf(peer) : tr("this machine");
    case StateColumn:
        return AttentionText::stateAndTime(peer.attention, parseBrokerTime(peer.attentionSince), now());
    case IdColumn:
        return peer.id;
    case ProjectColumn:
        return PeerFacts::projectText(PeerFacts::projectOf(peer));
    case ScopeColumn:
        return PeerFacts::compactPath(PeerFacts::repoScopeOf(peer.gitRoot, peer.cwd), !peer.isRemote());
    case DirectoryColumn:
        return peer.cwd;
    case SummaryColumn:
        return peer.summary;
    case ReachabilityColumn:
        return PeerFacts::reachabilityName(ReachabilityRule::of(peer, now()));
    case LastSeenColumn: {
        const QDateTime time = parseBrokerTime(peer.lastSeen);
        return time.isValid() ? PeerFacts::clockText(time) : peer.lastSeen;
    }
    }
    return {};
}

QVariant PeersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Peer &peer = m_peers.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(peer, index.column());
    case Qt::ToolTipRole:
        switch (index.column()) {
        case NameColumn:
            if (const QStringList others = sameFolderPeers(index.row()); !others.isEmpty())
                return tr("Also working in %1: %2.\nTwo sessions editing one folder overwrite each "
                          "other's changes.")
                    .arg(peer.cwd, others.join(QStringLiteral(", ")));
            Q_FALLTHROUGH();
        case IdColumn:
            return tr("Peer %1\npid %2, tty %3, version %4\nclient %5\nregistered %6")
                .arg(peer.id)
                .arg(peer.pid)
                .arg(peer.tty.isEmpty() ? tr("none", "tty") : peer.tty)
                .arg(peer.version.isEmpty() ? tr("unknown", "version") : peer.version)
                .arg(peer.client.isEmpty() ? tr("not said", "client") : Broker::clientLabel(peer.client))
                .arg(peer.registeredAt);
        case ProjectColumn:
        case DirectoryColumn:
            return peer.gitRoot.isEmpty() ? peer.cwd : tr("%1\ngit root: %2").arg(peer.cwd, peer.gitRoot);
        case ScopeColumn:
            return PeerFacts::scopeHint(peer.gitRoot, peer.cwd);
        case StateColumn:
            if (peer.attentionMessage.isEmpty())
                return peer.attentionSince.isEmpty() ? QVariant() : tr("since %1").arg(peer.attentionSince);
            return tr("%1\nsince %2").arg(peer.attentionMessage, peer.attentionSince);
        case SummaryColumn:
            return peer.summary.isEmpty() ? QVariant() : QVariant(peer.summary);
        case ReachabilityColumn:
            return PeerFacts::reachabilityHint(ReachabilityRule::of(peer, now()));
        case LastSeenColumn:
            return peer.lastSeen;
        }
        return {};
    case SortRole:
        if (index.column() == LastSeenColumn)
            return peer.lastSeen; // ISO-8601 UTC sorts as text
        if (index.column() == ReachabilityColumn) // push first, unreachable last
            return int(ReachabilityRule::of(peer, now()));
        if (index.column() == StateColumn) // most urgent first, longest waiting first, then by name
            return QStringLiteral("%1|%2|%3")
                .arg(int(peer.attention))
                .arg(peer.attentionSince, peer.sessionName.toLower());
        return displayValue(peer, index.column()).toString().toLower();
    case PeerIdRole:
        return peer.id;
    case ReachabilityRole:
        return int(ReachabilityRule::of(peer, now()));
    case SameFolderRole:
        return sameFolderPeers(index.row());
    case MachineRole:
        return PeerFacts::machineOf(peer);
    case KindRole:
        return int(Kind::Peer);
    case DirectoryRole:
        return PeerFacts::cleanFolder(peer.cwd);
    case GitRootRole:
        return PeerFacts::cleanFolder(peer.gitRoot);
    }
    return {};
}

QVariant PeersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case MachineColumn:
        return tr("Machine");
    case StateColumn:
        return tr("State");
    case IdColumn:
        return tr("ID");
    case ProjectColumn:
        return tr("Project");
    case ScopeColumn:
        return tr("Scope");
    case DirectoryColumn:
        return tr("Directory");
    case SummaryColumn:
        return tr("Summary");
    case ReachabilityColumn:
        return tr("Reachability");
    case LastSeenColumn:
        return tr("Last seen");
    }
    return {};
}

} // namespace App
