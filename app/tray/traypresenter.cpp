#include "app/tray/traypresenter.h"

#include <QHash>
#include <QSet>

#include <utility>

namespace App {

namespace {

constexpr int MaxNamesInToolTip = 3;
constexpr int MaxKnownSessions = 4096;

} // namespace

TrayPresenter::TrayPresenter(BrokerHost *host, QObject *parent) : QObject(parent), m_host(host)
{
    if (!host) {
        present({});
        return;
    }
    // Snapshots come already coalesced and throttled from the broker thread.
    connect(host, &BrokerHost::snapshotChanged, this, &TrayPresenter::refresh);
    connect(host, &BrokerHost::stateChanged, this, &TrayPresenter::refresh);
    connect(host, &BrokerHost::failed, this, [this](const Broker::Error &error) {
        Q_EMIT notificationRequested(
            {NotificationKind::BrokerProblem, {}, {}, tr("claude-peers: broker not running"), error.message});
    });
    refresh();
}

void TrayPresenter::refresh()
{
    if (!m_host)
        return;
    present({m_host->state(), m_host->port(), m_host->snapshot(), m_host->lastError().message, m_sessions,
             m_host->servingPid()});
}

void TrayPresenter::setSessionAttention(const QList<AttentionItem> &sessions)
{
    if (sessions == m_sessions)
        return;
    m_sessions = sessions;
    if (m_knownSessions.size() > MaxKnownSessions)
        m_knownSessions.clear(); // a session forgotten here at worst reads as a peer that left
    for (const AttentionItem &item : sessions)
        m_knownSessions.insert(item.peerId);
    refresh();
}

void TrayPresenter::present(const Input &input)
{
    // Elsewhere: another process serves the port and the host polls it; shown like our own.
    const bool running =
        input.state == BrokerHost::State::Running || input.state == BrokerHost::State::Elsewhere;
    Shown next;
    next.peers = running ? int(input.snapshot.peers.size()) : 0;
    next.pending = running ? input.snapshot.pendingMessages : 0;
    if (running)
        next.attention = AttentionSummary::of(input.snapshot.peers, input.sessions);

    switch (input.state) {
    case BrokerHost::State::Running:
        //: %2 is "%n peer(s)", %3 is "%n pending" (messages not yet delivered)
        next.statusText = tr("Broker running on port %1 — %2, %3")
                              .arg(input.port)
                              .arg(tr("%n peer(s)", nullptr, next.peers),
                                   //: messages waiting for delivery
                                   tr("%n pending", nullptr, int(next.pending)));
        break;
    case BrokerHost::State::Elsewhere:
        //: %1 is a process id; %3 is "%n peer(s)", %4 is "%n pending"
        next.statusText =
            tr("Broker running in another process (pid %1) on port %2 — %3, %4")
                .arg(input.servingPid)
                .arg(input.port)
                .arg(tr("%n peer(s)", nullptr, next.peers), tr("%n pending", nullptr, int(next.pending)));
        break;
    case BrokerHost::State::Starting:
        next.statusText = tr("Starting the broker on port %1…").arg(input.port);
        break;
    case BrokerHost::State::HandingOver:
        next.statusText = tr("Taking port %1 over from the running broker…").arg(input.port);
        break;
    case BrokerHost::State::Failed:
        next.statusText = tr("Broker not running: %1").arg(input.lastError);
        break;
    case BrokerHost::State::Stopped:
        next.statusText = tr("Broker not running: stopped");
        break;
    }
    const bool failed = input.state == BrokerHost::State::Failed || input.state == BrokerHost::State::Stopped;
    const bool starting =
        input.state == BrokerHost::State::Starting || input.state == BrokerHost::State::HandingOver;
    next.canRetry = failed;
    next.icon = next.attention.trayState(failed, starting, next.pending);

    // The tooltip summarises without times (they would change it every second): who needs you,
    // then the counts, then the broker.
    QStringList lines {QStringLiteral("claude-peers")};
    const AttentionSummary &a = next.attention;
    if (a.needsYou > 0) {
        QStringList names;
        for (const AttentionItem &item : a.items.mid(0, std::min<qsizetype>(a.needsYou, MaxNamesInToolTip)))
            names << item.name;
        if (a.needsYou > MaxNamesInToolTip)
            names << QStringLiteral("…");
        const QString joined = names.join(QStringLiteral(", "));
        //: %1 lists the sessions' names
        lines << tr("%n session(s) need(s) you: %1", nullptr, a.needsYou).arg(joined);
    }
    //: numbers of sessions working and waiting for a prompt
    if (a.busy > 0 || a.idle > 0)
        lines << tr("%1 busy, %2 idle").arg(a.busy).arg(a.idle);
    lines << next.statusText;
    if (running)
        next.warnings = input.snapshot.federationWarnings;
    lines << next.warnings;
    next.toolTip = lines.join(QLatin1Char('\n'));

    if (m_presented && next == m_shown)
        return;
    m_presented = true;
    const QStringList known = std::exchange(m_shown.warnings, {});
    m_shown = std::move(next);
    for (const QString &warning : std::as_const(m_shown.warnings))
        if (!known.contains(warning))
            Q_EMIT notificationRequested(
                {NotificationKind::FederationWarning, {}, {}, tr("claude-peers: federation"), warning});
    if (running) {
        notifyPeerChanges(m_lastRunning, m_shown.attention);
        m_lastRunning = m_shown.attention;
        m_seenRunning = true;
    }
    Q_EMIT changed();
}

void TrayPresenter::notifyPeerChanges(const AttentionSummary &before, const AttentionSummary &after)
{
    // OpenCode sessions are in the list only while they need you or are busy: their coming and
    // going is a turn starting or ending (SessionDone says that), not a peer joining or leaving.
    const QSet<QString> &sessions = m_knownSessions;
    QHash<QString, const AttentionItem *> old;
    for (const AttentionItem &item : before.items)
        old.insert(item.peerId, &item);
    for (const AttentionItem &item : after.items) {
        const AttentionItem *was = old.take(item.peerId);
        const bool session = sessions.contains(item.peerId);
        if (item.state == Broker::Attention::NeedsYou && (!was || was->state != Broker::Attention::NeedsYou))
            Q_EMIT notificationRequested(
                {NotificationKind::NeedsYou, item.peerId, item.name, tr("%1 needs you").arg(item.name),
                 item.message, session ? NotificationSubject::OpenCodeSession : NotificationSubject::Peer});
        else if (!was && m_seenRunning && item.peerId != m_ownPeerId && !session)
            Q_EMIT notificationRequested({NotificationKind::PeerJoined, item.peerId, item.name,
                                          tr("%1 joined").arg(item.name), item.message});
    }
    if (!m_seenRunning)
        return;
    for (const AttentionItem *gone : std::as_const(old)) {
        if (gone->peerId == m_ownPeerId || sessions.contains(gone->peerId))
            continue;
        Q_EMIT notificationRequested(
            {NotificationKind::PeerLeft, gone->peerId, gone->name, tr("%1 left").arg(gone->name), {}});
    }
}

} // namespace App
