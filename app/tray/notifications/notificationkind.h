#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace App {

// Why the tray tells the user something. Each kind can be turned off on its own (preferences);
// the key is what the config file and `claude-peers notifications` use.
enum class NotificationKind {
    NeedsYou, // a session waits for the human (Claude Code hook, OpenCode permission/question)
    MessageReceived, // a message for the operator
    PeerJoined,
    PeerLeft,
    FederationWarning, // e.g. the PSK is still a copy of the local token
    PairingRequest, // another broker asks to pair: the notification only opens the card
    SessionDone, // an OpenCode session finished its turn
    ScheduleFailed, // a scheduled run failed
    BrokerProblem, // the broker could not start or take over
};

QList<NotificationKind> allNotificationKinds();
QString notificationKindKey(NotificationKind kind); // "needs_you", "peer_joined", …
std::optional<NotificationKind> notificationKindFromKey(const QString &key);
// Off unless the user turns them on: peers come and go all day.
bool notificationKindOnByDefault(NotificationKind kind);
// The kinds that mean "waiting for me" (the "only when waiting for me" preference lets only
// these through): a session needs you, or a pairing request waits for a decision.
bool notificationKindWaitsForYou(NotificationKind kind);

// What a notification is about: what its Open shows and which other actions it offers.
enum class NotificationSubject {
    Peer, // a broker peer (or nothing, peerId empty): Open, Reply as the operator, Mute peer
    OpenCodeSession, // peerId = session id, scope = its directory: Open on Sessions, Mute
    PairingRequest, // peerId = request id: Open shows its card (never accepts), nothing else
    Schedule, // peerId = task id, scope = its project id: Open on Schedules, Mute
};

// One thing to tell the user, as the presenter (or a page) words it; the notifier decides
// whether and how it is shown.
struct NotificationEvent
{
    NotificationKind kind = NotificationKind::BrokerProblem;
    QString peerId; // empty when not about a peer; else the subject's id (muted by it)
    QString peerName; // what to call it (session name, else id)
    QString title;
    QString body; // plain text
    NotificationSubject subject = NotificationSubject::Peer;
    QString scope = {}; // where the subject lives (see NotificationSubject)
    qint64 messageId = 0; // the message it is about, if any: a reply from the notification answers it

    bool operator==(const NotificationEvent &) const = default;
};

} // namespace App

Q_DECLARE_METATYPE(App::NotificationEvent)
