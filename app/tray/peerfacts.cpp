#include "app/tray/peerfacts.h"

#include "app/tray/attention.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace App {

Reachability ReachabilityRule::of(const Broker::Peer &peer, const QDateTime &now)
{
    const QDateTime lastSeen = parseBrokerTime(peer.lastSeen);
    if (!lastSeen.isValid())
        return Reachability::Unreachable;
    const qint64 silent = lastSeen.secsTo(now);
    if (silent > UnreachableAfterSeconds)
        return Reachability::Unreachable;
    if (silent > StaleAfterSeconds)
        return Reachability::Stale;
    return peer.channelPush == u"working" ? Reachability::Push : Reachability::PollOnly;
}

QString PeerFacts::reachabilityName(Reachability reachability)
{
    switch (reachability) {
    case Reachability::Push:
        return tr("push");
    case Reachability::PollOnly:
        return tr("poll only");
    case Reachability::Stale:
        return tr("stale");
    case Reachability::Unreachable:
        return tr("unreachable");
    }
    return {};
}

QString PeerFacts::reachabilityHint(Reachability reachability)
{
    switch (reachability) {
    case Reachability::Push:
        return tr("Its channel push works: a message shows in the session within milliseconds.");
    case Reachability::PollOnly:
        return tr("Push is not confirmed for this session: it reads messages when it next checks.");
    case Reachability::Stale:
        return tr("No heartbeat for over %n seconds: the session may be suspended or stuck.", nullptr,
                  int(ReachabilityRule::StaleAfterSeconds));
    case Reachability::Unreachable:
        return tr("Silent for over %n seconds: a message would wait until it comes back, if ever.", nullptr,
                  int(ReachabilityRule::UnreachableAfterSeconds));
    }
    return {};
}

PeerFacts::Project PeerFacts::projectOf(const Broker::Peer &peer)
{
    Project project;
    const QString cwd = QDir::cleanPath(peer.cwd);
    if (!peer.gitRoot.isEmpty()) {
        const QString root = QDir::cleanPath(peer.gitRoot);
        project.name = QFileInfo(root).fileName();
        if (cwd.startsWith(root + QLatin1Char('/')))
            project.name += cwd.mid(root.size());
    } else if (!peer.cwd.isEmpty()) {
        project.name = QFileInfo(cwd).fileName();
        if (project.name.isEmpty())
            project.name = cwd; // "/"
    }
    static const QRegularExpression prefix(QStringLiteral("^\\[([^\\]:]+):([^\\]]+)\\]"));
    const QRegularExpressionMatch match = prefix.match(peer.summary);
    const QString repo =
        peer.gitRoot.isEmpty() ? QString() : QFileInfo(QDir::cleanPath(peer.gitRoot)).fileName();
    if (match.hasMatch() && !repo.isEmpty() && match.captured(1) == repo)
        project.branch = match.captured(2);
    return project;
}

QString PeerFacts::projectText(const Project &project)
{
    return project.branch.isEmpty() ? project.name : tr("%1 [%2]").arg(project.name, project.branch);
}

QString PeerFacts::cleanFolder(const QString &path)
{
    return path.isEmpty() ? QString() : QDir::cleanPath(path);
}

QString PeerFacts::clockText(const QDateTime &time)
{
    const QDateTime local = time.toLocalTime();
    return local.date() == QDate::currentDate() ? local.toString(QStringLiteral("HH:mm:ss"))
                                                : local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString PeerFacts::repoScopeOf(const QString &gitRoot, const QString &cwd)
{
    return cleanFolder(gitRoot.isEmpty() ? cwd : gitRoot);
}

QString PeerFacts::compactPath(const QString &path, bool thisMachine)
{
    if (!thisMachine || path.isEmpty())
        return path;
    const QString home = QDir::cleanPath(QDir::homePath());
    if (home.isEmpty() || home == QLatin1String("/"))
        return path;
    if (path == home)
        return QStringLiteral("~");
    if (path.startsWith(home + QLatin1Char('/')))
        return QLatin1Char('~') + path.mid(home.size());
    return path;
}

QString PeerFacts::scopeHint(const QString &gitRoot, const QString &cwd)
{
    if (!gitRoot.isEmpty())
        return tr("Repository %1: the sessions working anywhere in it share this scope.")
            .arg(cleanFolder(gitRoot));
    if (!cwd.isEmpty())
        return tr("Folder %1 (not in a git repository): the sessions working in this folder share "
                  "this scope.")
            .arg(cleanFolder(cwd));
    return {};
}

QString PeerFacts::machineOf(const Broker::Peer &peer)
{
    return peer.isRemote() ? peer.id.section(QLatin1Char(':'), 0, 0) : QString();
}

QStringList PeerFacts::sameFolderPeers(const QList<Broker::Peer> &peers, qsizetype index,
                                       const QDateTime &now)
{
    const Broker::Peer &self = peers.at(index);
    auto live = [&now](const Broker::Peer &peer) {
        const Reachability r = ReachabilityRule::of(peer, now);
        return !peer.isRemote() && (r == Reachability::Push || r == Reachability::PollOnly);
    };
    if (self.cwd.isEmpty() || !live(self))
        return {};
    const QString folder = QDir::cleanPath(self.cwd);
    QStringList others;
    for (qsizetype i = 0; i < peers.size(); ++i) {
        const Broker::Peer &other = peers.at(i);
        if (i != index && other.id != self.id && live(other) && QDir::cleanPath(other.cwd) == folder)
            others << other.displayName();
    }
    return others;
}

QString PeerFacts::details(const Broker::Peer &peer, const QDateTime &now)
{
    const QString none = tr("(none)");
    auto orNone = [&none](const QString &text) { return text.isEmpty() ? none : text; };
    const Reachability reach = ReachabilityRule::of(peer, now);
    const QString state = AttentionText::stateName(peer.attention);
    const QString machine = machineOf(peer);
    QStringList lines {
        tr("Name: %1").arg(orNone(peer.sessionName)),
        tr("ID: %1").arg(peer.id),
        tr("Machine: %1").arg(machine.isEmpty() ? tr("this machine") : machine),
        tr("Project: %1").arg(orNone(projectText(projectOf(peer)))),
        tr("Directory: %1").arg(orNone(peer.cwd)),
        tr("Git root: %1").arg(orNone(peer.gitRoot)),
        tr("Summary: %1").arg(orNone(peer.summary)),
        tr("State: %1").arg(state.isEmpty() ? tr("unknown") : state),
        tr("In state since: %1").arg(orNone(peer.attentionSince)),
        tr("What it needs: %1").arg(orNone(peer.attentionMessage)),
        tr("Reachability: %1 (channel push: %2)").arg(reachabilityName(reach), orNone(peer.channelPush)),
        tr("Last seen: %1").arg(orNone(peer.lastSeen)),
        tr("Registered: %1").arg(orNone(peer.registeredAt)),
        tr("PID: %1").arg(peer.pid),
        tr("TTY: %1").arg(orNone(peer.tty)),
        tr("Client: %1").arg(peer.client.isEmpty() ? none : Broker::clientLabel(peer.client)),
        tr("Helper version: %1").arg(orNone(peer.version)),
    };
    return lines.join(QLatin1Char('\n'));
}

} // namespace App
