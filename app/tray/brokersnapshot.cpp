#include "app/tray/brokersnapshot.h"

#include "broker/brokerserver.h"

namespace App {

BrokerSnapshot BrokerSnapshot::of(const Broker::BrokerServer &server)
{
    return {server.peers() + server.remotePeers(), server.pendingMessageCount(), server.federationWarnings()};
}

} // namespace App
