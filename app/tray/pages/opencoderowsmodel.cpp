#include "app/tray/pages/opencoderowsmodel.h"

#include "app/tray/attention.h"
#include "app/tray/peerfacts.h"
#include "app/tray/peersmodel.h"

#include <QDir>
#include <QFileInfo>

namespace App {

namespace {

// After the peers' badges (push … unreachable) when the column sorts.
constexpr int OpenCodeReachabilityRank = int(Reachability::Unreachable) + 1;

} // namespace

OpenCodeRowsModel::OpenCodeRowsModel(OpenCodeActivity *activity, QObject *parent)
    : QAbstractTableModel(parent), m_activity(activity)
{
    connect(activity, &OpenCodeActivity::sessionChanged, this, &OpenCodeRowsModel::sessionChanged);
}

int OpenCodeRowsModel::rowOf(const QString &sessionId) const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).sessionId == sessionId)
            return row;
    }
    return -1;
}

void OpenCodeRowsModel::sessionChanged(const QString &sessionId)
{
    // Sessions the activity forgot (it keeps at most MaxSessions) leave first.
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (m_activity->contains(m_rows.at(row).sessionId))
            continue;
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
    }
    const std::optional<OpenCodeSession> session = m_activity->session(sessionId);
    const int row = rowOf(sessionId);
    if (!session || !session->isCurrent()) {
        if (row >= 0) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
        return;
    }
    if (row < 0) {
        const int last = int(m_rows.size());
        beginInsertRows({}, last, last);
        m_rows.append(*session);
        endInsertRows();
        return;
    }
    if (m_rows.at(row) == *session)
        return;
    m_rows[row] = *session;
    Q_EMIT dataChanged(index(row, 0), index(row, PeersModel::ColumnCount - 1));
}

void OpenCodeRowsModel::refreshTimes()
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, PeersModel::ColumnCount - 1));
}

QString OpenCodeRowsModel::gitRootOf(const QString &directory)
{
    if (directory.isEmpty())
        return {};
    QDir dir(QDir::cleanPath(directory));
    while (true) {
        if (QFileInfo::exists(dir.filePath(QStringLiteral(".git"))))
            return dir.path();
        if (dir.isRoot() || !dir.cdUp())
            return {};
    }
}

QString OpenCodeRowsModel::gitRoot(const QString &directory) const
{
    const auto known = m_gitRoots.constFind(directory);
    if (known != m_gitRoots.cend())
        return *known;
    return *m_gitRoots.insert(directory, gitRootOf(directory));
}

QStringList OpenCodeRowsModel::openCodePeersIn(const QList<Broker::Peer> &peers, const QString &directory)
{
    QStringList ids;
    if (directory.isEmpty())
        return ids;
    const QString folder = QDir::cleanPath(directory);
    for (const Broker::Peer &peer : peers) {
        if (!peer.isRemote() && peer.client.startsWith(QLatin1String("opencode")) &&
            QDir::cleanPath(peer.cwd) == folder)
            ids << peer.id;
    }
    return ids;
}

QString OpenCodeRowsModel::details(const OpenCodeSession &session, const QString &gitRoot,
                                   const QStringList &folderPeers, const QDateTime &now)
{
    const QString none = tr("(none)");
    auto orNone = [&none](const QString &text) { return text.isEmpty() ? none : text; };
    const QString state = AttentionText::stateName(session.attention());
    QStringList lines {
        tr("Name: %1").arg(orNone(session.title)),
        tr("Kind: OpenCode session, driven by the control service"),
        tr("ID: %1").arg(session.sessionId),
        tr("Machine: this machine"),
        tr("Directory: %1").arg(orNone(session.directory)),
        tr("Git root: %1").arg(orNone(gitRoot)),
        tr("State: %1 (OpenCode status: %2)")
            .arg(state.isEmpty() ? tr("unknown") : state, orNone(session.status)),
        tr("In state for: %1").arg(orNone(AttentionText::timeInState(session.since, now))),
        tr("What it needs: %1")
            .arg(session.needsYou() ? session.waitingFor + QStringLiteral(": ") + session.detail : none),
        tr("Last error: %1").arg(orNone(session.error)),
        tr("claude-peers peer of OpenCode in this folder: %1")
            .arg(orNone(folderPeers.join(QStringLiteral(", ")))),
    };
    if (!folderPeers.isEmpty())
        lines << tr("(A message to that peer reaches whichever OpenCode chat in this folder uses a "
                    "claude-peers tool next, not necessarily this session.)");
    return lines.join(QLatin1Char('\n'));
}

int OpenCodeRowsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OpenCodeRowsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : PeersModel::ColumnCount;
}

QString OpenCodeRowsModel::name(const OpenCodeSession &session) const
{
    return session.title.isEmpty() ? tr("OpenCode %1").arg(session.sessionId) : session.title;
}

QVariant OpenCodeRowsModel::displayValue(const OpenCodeSession &session, int column) const
{
    switch (column) {
    case PeersModel::NameColumn:
        return name(session);
    case PeersModel::MachineColumn:
        return tr("this machine");
    case PeersModel::StateColumn:
        return AttentionText::stateAndTime(session.attention(), session.since, m_activity->now());
    case PeersModel::IdColumn:
        return session.sessionId;
    case PeersModel::ProjectColumn: {
        Broker::Peer folder; // the project rule of peers, on the session's folder
        folder.cwd = session.directory;
        folder.gitRoot = gitRoot(session.directory);
        return PeerFacts::projectText(PeerFacts::projectOf(folder));
    }
    case PeersModel::ScopeColumn:
        return PeerFacts::compactPath(PeerFacts::repoScopeOf(gitRoot(session.directory), session.directory),
                                      true);
    case PeersModel::DirectoryColumn:
        return session.directory;
    case PeersModel::SummaryColumn:
        if (session.needsYou())
            return session.detail.isEmpty() ? session.waitingFor : session.detail;
        return session.error.isEmpty() ? QString() : tr("Error: %1").arg(session.error);
    case PeersModel::ReachabilityColumn:
        //: in the peers' reachability column: the row is an OpenCode session (prompted, not messaged)
        return tr("OpenCode");
    case PeersModel::LastSeenColumn:
        return session.since.isValid() ? PeerFacts::clockText(session.since) : QString();
    }
    return {};
}

QVariant OpenCodeRowsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OpenCodeSession &session = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(session, index.column());
    case Qt::ToolTipRole:
        switch (index.column()) {
        case PeersModel::NameColumn:
        case PeersModel::IdColumn:
            return tr("OpenCode session %1 in %2\nSend it a prompt, fork it or wait for it on the Sessions "
                      "page.")
                .arg(session.sessionId, session.directory);
        case PeersModel::StateColumn:
            if (session.needsYou())
                return tr("Waiting for your answer to a %1: %2").arg(session.waitingFor, session.detail);
            return session.error.isEmpty() ? QVariant() : QVariant(session.error);
        case PeersModel::ScopeColumn:
            return PeerFacts::scopeHint(gitRoot(session.directory), session.directory);
        case PeersModel::ProjectColumn:
        case PeersModel::DirectoryColumn:
            return session.directory;
        case PeersModel::ReachabilityColumn:
            return tr("An OpenCode session driven by the control service: it gets prompts (send, fork), "
                      "not claude-peers messages.");
        }
        return {};
    case PeersModel::SortRole:
        switch (index.column()) {
        case PeersModel::StateColumn: // as the peers: most urgent, longest waiting, by name
            return QStringLiteral("%1|%2|%3")
                .arg(int(session.attention()))
                .arg(session.since.toUTC().toString(Qt::ISODateWithMs), name(session).toLower());
        case PeersModel::LastSeenColumn:
            return session.since.toUTC().toString(Qt::ISODateWithMs);
        case PeersModel::ReachabilityColumn:
            return OpenCodeReachabilityRank;
        }
        return displayValue(session, index.column()).toString().toLower();
    case PeersModel::PeerIdRole:
        return session.sessionId;
    case PeersModel::SameFolderRole:
        return QStringList {};
    case PeersModel::MachineRole:
        return QString();
    case PeersModel::KindRole:
        return int(PeersModel::Kind::OpenCodeSession);
    case PeersModel::DirectoryRole:
        return PeerFacts::cleanFolder(session.directory);
    case PeersModel::GitRootRole:
        return gitRoot(session.directory);
    }
    return {};
}

} // namespace App
