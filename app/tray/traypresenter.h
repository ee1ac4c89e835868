#pragma once

#include "app/tray/attention.h"
#include "app/tray/brokerhost.h"
#include "app/tray/notifications/notificationkind.h"

#include <QDateTime>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>

namespace App {

// What the tray shows, computed without any GUI code: the status line, the tooltip, the icon's
// worst-of state and its count, the attention-ordered peers of the menu, whether "Retry" makes
// sense, and which failures deserve a notification. The tray icon and the Peers window are thin
// adapters over it; tests drive it directly, through a host or through present().
//
// Updates are few by construction: the broker thread publishes at most two snapshots a second
// (SnapshotPublisher), and changed() is emitted only when something shown here differs, so an
// unchanged snapshot or a heartbeat costs the tray (a D-Bus round trip per call on SNI) nothing.
class TrayPresenter : public QObject
{
    Q_OBJECT
public:
    using IconState = TrayState;
    static constexpr int MaxMenuPeers = 8;

    // What the presenter reads from a BrokerHost, as a value (tests pass their own).
    struct Input
    {
        BrokerHost::State state = BrokerHost::State::Stopped;
        quint16 port = 0;
        BrokerSnapshot snapshot;
        QString lastError;
        QList<AttentionItem> sessions; // OpenCode sessions that need you or are busy
        qint64 servingPid = 0; // Elsewhere: the process that serves the port
    };

    // host may be null: then only present() feeds it.
    explicit TrayPresenter(BrokerHost *host, QObject *parent = nullptr);

    QString statusText() const { return m_shown.statusText; }
    QString toolTip() const { return m_shown.toolTip; }
    TrayState iconState() const { return m_shown.icon; }
    // The number the icon carries: sessions that need you; 0 in every other state.
    int iconCount() const { return m_shown.icon == TrayState::NeedsYou ? m_shown.attention.needsYou : 0; }
    bool canRetry() const { return m_shown.canRetry; }
    int peerCount() const { return m_shown.peers; }
    qint64 pendingCount() const { return m_shown.pending; }
    const AttentionSummary &attention() const { return m_shown.attention; }
    // The peers of the tray menu: the attention-ordered list, at most MaxMenuPeers.
    QList<AttentionItem> menuItems() const { return m_shown.attention.items.mid(0, MaxMenuPeers); }
    // "alpha — needs you · 3 min", with the time measured now (when the menu opens).
    QString menuText(const AttentionItem &item) const { return AttentionText::menuEntry(item, now()); }

    // The clock of the times in state (tests set a fixed one).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }
    QDateTime now() const { return m_clock ? m_clock() : QDateTime::currentDateTimeUtc(); }

    // The tray's own peer (the operator): never announced as joining or leaving.
    void setOwnPeerId(const QString &peerId) { m_ownPeerId = peerId; }

    // Recomputes everything from the host's state and snapshot (done on each of their signals).
    void refresh();
    // OpenCode sessions that need you or are busy (OpenCodeActivity::attentionItems()), shown
    // with the peers while the broker runs.
    void setSessionAttention(const QList<AttentionItem> &sessions);
    // Recomputes everything from input; emits changed() when anything shown differs.
    void present(const Input &input);

Q_SIGNALS:
    // Any of the values above changed.
    void changed();
    // Something the user should be told even when no window is open: the broker could not start
    // or take over, a federation warning, a session that starts needing you, a peer that joined
    // or left. What to say; the Notifier decides whether and how.
    void notificationRequested(const App::NotificationEvent &event);

private:
    struct Shown
    {
        QString statusText;
        QString toolTip;
        TrayState icon = TrayState::Error;
        bool canRetry = false;
        int peers = 0;
        qint64 pending = 0;
        AttentionSummary attention;
        QStringList warnings; // the federation's, each said once as a notification too
        bool operator==(const Shown &) const = default;
    };

    void notifyPeerChanges(const AttentionSummary &before, const AttentionSummary &after);

    BrokerHost *m_host;
    QList<AttentionItem> m_sessions;
    QSet<QString> m_knownSessions; // ids of OpenCode sessions seen (not peers: no joined/left)
    std::function<QDateTime()> m_clock;
    Shown m_shown;
    bool m_presented = false;
    QString m_ownPeerId;
    bool m_seenRunning = false; // peers of the first running snapshot did not "join"
    AttentionSummary m_lastRunning; // the peers as the last running snapshot had them
};

} // namespace App
