#include "app/brokerhost/brokercomposition.h"

#include "app/keychain/keychainsecretstore.h"
#include "broker/brokermodule.h"
#include "broker/brokerserver.h"
#include "federation/federationmodule.h"
#include "openchamber/controlmodule.h"

#include <memory>

namespace App {

void composeBroker(Broker::BrokerServer &server,
                   const std::function<void(OpenChamber::OpenCodeBackend &)> &withControl)
{
    auto keychain = std::make_shared<KeychainSecretStore>();
    server.setSecretStore(keychain);
    // Modules, in the order their routes and tables depend on each other.
    Federation::FederationModule::Parts federationParts;
    federationParts.keychain = keychain;
    auto federation = std::make_shared<Federation::FederationModule>(
        Federation::FederationSettings::load(server.settings().location), std::move(federationParts));
    server.addModule(federation);
    server.setFederationLink(federation);
    if (federation->isEnabled()) {
        std::weak_ptr<Federation::FederationModule> module = federation;
        server.setFederationKey([module] {
            const auto alive = module.lock();
            return alive ? alive->psk() : QByteArray();
        });
    }
    // The control service (POST /control for the CLI, /agent-tool for the helper's openchamber
    // tool, scheduled tasks): OpenCode's server password is in the same secret store.
    auto backend = std::make_unique<OpenChamber::OpenCodeBackend>(keychain);
    if (withControl)
        withControl(*backend);
    server.addModule(std::make_shared<OpenChamber::ControlModule>(std::move(backend)));
}

} // namespace App
