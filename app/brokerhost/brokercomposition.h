#pragma once

#include <functional>

namespace Broker {
class BrokerServer;
}
namespace OpenChamber {
class OpenCodeBackend;
}

namespace App {

// Plugs into a broker host's server, before start(), what the broker library leaves to its
// hosts: the OS keychain for the local token, and the modules (brokermodule.h): federation/
// (with its FederationLink and its PSK in the keychain) and openchamber/. The headless broker
// and the tray call it alike, so both hosts serve the same routes and tables.
// withControl (the tray) sees the control service's backend before the server starts, on the
// broker thread: to follow its sessions (setWatchSessions, events()).
void composeBroker(Broker::BrokerServer &server,
                   const std::function<void(OpenChamber::OpenCodeBackend &)> &withControl = {});

} // namespace App
