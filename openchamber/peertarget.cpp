#include "openchamber/peertarget.h"

#include "broker/brokerserver.h"

namespace OpenChamber {

namespace PeerTarget {

std::expected<Broker::Peer, QString> resolve(const QString &target, const QList<Broker::Peer> &livePeers)
{
    QList<Broker::Peer> named;
    for (const Broker::Peer &peer : livePeers) {
        if (peer.sessionName == target)
            named.append(peer);
    }
    if (named.size() == 1)
        return named.first();
    if (named.size() > 1) {
        QStringList ids;
        for (const Broker::Peer &peer : std::as_const(named))
            ids.append(peer.id);
        return std::unexpected(
            QStringLiteral("%1 connected peers are named %2 (ids %3): give one another name "
                           "with set-name, or target it by id")
                .arg(named.size())
                .arg(target, ids.join(QStringLiteral(", "))));
    }
    for (const Broker::Peer &peer : livePeers) {
        if (peer.id == target)
            return peer;
    }
    return std::unexpected(QStringLiteral("no peer named %1 is connected").arg(target));
}

QJsonObject metadata(const QString &taskId, const QString &taskName)
{
    return {{QStringLiteral("scheduled_task_id"), taskId}, {QStringLiteral("scheduled_task_name"), taskName}};
}

} // namespace PeerTarget

ScheduledPeerSender brokerSender(Broker::BrokerServer &server)
{
    return [&server](const ScheduledPeerMessage &message) -> std::expected<PeerDelivery, ControlError> {
        const auto peers = server.localPeers();
        if (!peers)
            return std::unexpected(ControlError {500, peers.error().message, {}});
        QList<Broker::Peer> local;
        for (const Broker::Peer &peer : *peers) {
            if (!peer.isRemote())
                local.append(peer);
        }
        const auto peer = PeerTarget::resolve(message.target, local);
        if (!peer)
            return std::unexpected(ControlError {500, peer.error(), {}});
        const auto stored =
            server.storeRelayedMessage(PeerTarget::sender, peer->id, message.text, QStringLiteral("text"),
                                       PeerTarget::metadata(message.taskId, message.taskName), std::nullopt);
        if (!stored)
            return std::unexpected(ControlError {500,
                                                 QStringLiteral("the message to %1 (%2) was not stored: %3")
                                                     .arg(message.target, peer->id, stored.error().message),
                                                 {}});
        return PeerDelivery {*stored, peer->id};
    };
}

} // namespace OpenChamber
