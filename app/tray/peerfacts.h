#pragma once

#include "common/dto.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace App {

// Can a message reach this peer, and how fast? The Peers page's badge (docs/spec/gui-anchors.md §6,
// louislva #52: "which peers can actually receive?"). Ordered from best to worst.
enum class Reachability {
    Push, // its helper's channel push works: a message shows within milliseconds
    PollOnly, // registered and alive, but push is not confirmed: it reads messages when it polls
    Stale, // no heartbeat for a while: it may be suspended or busy with a long tool call
    Unreachable, // silent for longer than the broker's liveness timeout, or never seen
};

// The one rule behind the badge. A helper heartbeats every 15 s, so two missed beats
// (StaleAfterSeconds) make it stale; a peer silent past the broker's heartbeat timeout (60 s by
// default, UnreachableAfterSeconds) is about to be pruned and gets nothing. A fresh peer is Push
// only when its helper reported a working channel ("working"); "unverified", "unknown" and remote
// peers (whose broker does not say) are PollOnly.
struct ReachabilityRule
{
    static constexpr qint64 StaleAfterSeconds = 30;
    static constexpr qint64 UnreachableAfterSeconds = 60;
    static Reachability of(const Broker::Peer &peer, const QDateTime &now);
};

// What the Peers page derives from a peer record for people.
class PeerFacts
{
    Q_DECLARE_TR_FUNCTIONS(App::PeerFacts)
public:
    static QString reachabilityName(Reachability reachability); // "push", "poll only", "stale", "unreachable"
    static QString reachabilityHint(Reachability reachability); // a sentence for the tooltip

    // The project: the git root's folder name (plus the sub-folder the session works in), else
    // the working folder's name. The branch: the "[repo:branch]" prefix that `claude-peers
    // auto-summary` and the helper put in front of the summary, when it names this project.
    struct Project
    {
        QString name;
        QString branch; // empty when unknown
        bool operator==(const Project &) const = default;
    };
    static Project projectOf(const Broker::Peer &peer);
    static QString projectText(const Project &project); // "api [main]", "api", ""

    // The folder of a peer's repo scope (0.7's list_peers scope "repo"): its git root, else its
    // working folder; clean, "" when neither is known.
    static QString repoScopeOf(const QString &gitRoot, const QString &cwd);
    // A folder as the lists show it: clean, and under this machine's home as "~/…" when it is a
    // path of this machine (another machine's home is not ours).
    static QString compactPath(const QString &path, bool thisMachine);
    static QString cleanFolder(const QString &path); // QDir::cleanPath, "" stays ""
    // A moment as the lists show it: "14:03:27" today, else "2026-11-30 14:03" (local time).
    static QString clockText(const QDateTime &time);
    // The scope column's tooltip: what the scope is and who shares it.
    static QString scopeHint(const QString &gitRoot, const QString &cwd);

    // The machine a peer runs on, as the page groups it: "" for this machine, else the remote
    // broker's hostname (the part of a remote id before ':').
    static QString machineOf(const Broker::Peer &peer);

    // Other live local peers working in the same folder as peers[index] (cpv2's "also here"):
    // two sessions editing one tree step on each other's changes. Stale or unreachable peers do
    // not count; remote peers never do (another machine's folder is another folder).
    static QStringList sameFolderPeers(const QList<Broker::Peer> &peers, qsizetype index,
                                       const QDateTime &now);

    // Every field of the record, one "label: value" line each, for the details panel and the
    // clipboard.
    static QString details(const Broker::Peer &peer, const QDateTime &now);
};

} // namespace App
