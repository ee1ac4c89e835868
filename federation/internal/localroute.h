#pragma once

#include "broker/routes.h"

namespace Federation::Internal {

// A federation route for the CLI and the tray: the user's own token only, a small JSON body,
// answered by a member of `owner`.
template<typename Owner>
Broker::Route localRoute(Owner *owner, const char *path, void (Owner::*handler)(Broker::RouteCall &))
{
    Broker::Route route;
    route.path = path;
    route.auth = Broker::RouteAuth::MainToken;
    route.maxBodyBytes = 8192;
    route.handler = [owner, handler](Broker::RouteCall &call) { (owner->*handler)(call); };
    return route;
}

} // namespace Federation::Internal
