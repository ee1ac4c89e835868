#pragma once

#include "common/dto.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QString>

namespace App {

// The tray's one state, worst first: a session waits for the human, the broker is not running,
// a session is working, messages wait for their recipients, all quiet. The icon shows the worst
// that holds (docs/spec/gui-anchors.md §7).
enum class TrayState { NeedsYou, Error, Busy, Unread, Idle };

// One peer as the attention-ordered lists show it.
struct AttentionItem
{
    QString peerId;
    QString name; // session name, else id
    Broker::Attention state = Broker::Attention::Unknown;
    QDateTime since; // invalid when unknown
    QString message;

    bool operator==(const AttentionItem &) const = default;
};

// What the peers ask of the human, computed from the broker's peer list without any GUI.
struct AttentionSummary
{
    QList<AttentionItem> items; // needs-you, busy, idle, unknown; longest in its state first
    int needsYou = 0;
    int busy = 0;
    int idle = 0;

    bool operator==(const AttentionSummary &) const = default;

    // sessions: OpenCode sessions that need you or are busy (OpenCodeActivity), their peerId is
    // the OpenCode session id; counted and ordered with the peers.
    static AttentionSummary of(const QList<Broker::Peer> &peers, const QList<AttentionItem> &sessions = {});
    // Worst-of: needs-you > error (broker not running) > busy (a session, or the broker
    // starting) > unread (pending messages) > idle.
    TrayState trayState(bool brokerFailed, bool brokerStarting, qint64 pendingMessages) const;
};

// Texts shared by the tray menu and the peers table; translated in this context.
class AttentionText
{
    Q_DECLARE_TR_FUNCTIONS(App::AttentionText)
public:
    static QString stateName(Broker::Attention state); // "needs you", "busy", "idle", "" for unknown
    // "12 s", "3 min", "2 h 5 min", "4 d"; "" for an invalid since.
    static QString timeInState(const QDateTime &since, const QDateTime &now);
    // "needs you · 3 min", "busy" (time unknown), "" (state unknown): the lists' state column.
    static QString stateAndTime(Broker::Attention state, const QDateTime &since, const QDateTime &now);
    // "alpha — needs you · 3 min"
    static QString menuEntry(const AttentionItem &item, const QDateTime &now);
};

QDateTime parseBrokerTime(const QString &iso); // invalid for empty or malformed text

} // namespace App
