#include "brokersnapshot.h"

#include "brokerserver.h"

namespace App {

BrokerSnapshot BrokerSnapshot::of(const Broker::BrokerServer &server)
{
    return {server.peers() + server.remotePeers(), server.pendingMessageCount(), server.federationWarnings()};
}

} // namespace App
