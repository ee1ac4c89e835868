#include "brokercomposition.h"

#include "brokermodule.h"
#include "brokerserver.h"
#include "controlmodule.h"
#include "keychainsecretstore.h"

#include <memory>

namespace App {

void composeBroker(Broker::BrokerServer &server)
{
    auto secrets = std::make_shared<KeychainSecretStore>();
    server.setSecretStore(secrets);
    // The control service (POST /control for the CLI, /agent-tool for the helper's openchamber
    // tool, scheduled tasks): OpenCode's server password is in the same secret store.
    server.addModule(std::make_shared<OpenChamber::ControlModule>(
        std::make_unique<OpenChamber::OpenCodeBackend>(secrets)));
    // Each further module is added here, in the order its routes and tables depend on each
    // other:
    //   server.addModule(std::make_shared<Federation::FederationModule>(…));
}

} // namespace App
