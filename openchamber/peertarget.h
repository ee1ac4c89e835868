#pragma once

#include "common/dto.h"
#include "openchamber/controlservice.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <expected>
#include <functional>

namespace Broker {
class BrokerServer;
}

namespace OpenChamber {

// Scheduled tasks that message a peer (docs/divergences.md "Scheduled tasks that message a
// peer"): at its time the task's prompt becomes one broker message to a local peer.
namespace PeerTarget {

// Who the message is from: the human's identity in the broker (the tray's operator peer), so that
// a reply lands in the operator's thread and a bounce comes back there (docs/decisions.md).
inline const QString sender = QStringLiteral("operator");

// target among the live local peers: the one whose session name is exactly target; none named so,
// the one whose id is target. Two or more with that name, or none: why, in plain words.
std::expected<Broker::Peer, QString> resolve(const QString &target, const QList<Broker::Peer> &livePeers);

// The metadata the message carries: which task sent it.
QJsonObject metadata(const QString &taskId, const QString &taskName);

} // namespace PeerTarget

struct ScheduledPeerMessage
{
    QString taskId;
    QString taskName;
    QString target; // the task's execution.peer
    QString text;
};

struct PeerDelivery
{
    qint64 messageId = 0;
    QString peerId;
};

// Sends a scheduled task's message now; the broker hosts' one goes through the running broker
// (brokerSender), tests may give another. On the broker's thread.
using ScheduledPeerSender =
    std::function<std::expected<PeerDelivery, ControlError>(const ScheduledPeerMessage &message)>;

// Through the broker's own service (BrokerServer::localPeers and storeRelayedMessage, the
// federation module's way in): no HTTP to ourselves, the recipient's stream woken at once.
ScheduledPeerSender brokerSender(Broker::BrokerServer &server);

} // namespace OpenChamber
