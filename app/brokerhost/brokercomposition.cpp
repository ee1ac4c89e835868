#include "brokercomposition.h"

#include "brokermodule.h"
#include "brokerserver.h"
#include "keychainsecretstore.h"

#include <memory>

namespace App {

void composeBroker(Broker::BrokerServer &server)
{
    server.setSecretStore(std::make_shared<KeychainSecretStore>());
    // No module exists yet; each one is added here, in the order its routes and tables
    // depend on each other:
    //   server.addModule(std::make_shared<Federation::FederationModule>(…));
}

} // namespace App
