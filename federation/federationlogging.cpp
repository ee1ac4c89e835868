#include "federation/federationlogging.h"

namespace Federation {

Q_LOGGING_CATEGORY(lcFederation, "peers.federation", QtInfoMsg)
Q_LOGGING_CATEGORY(lcFederationTls, "peers.federation.tls", QtInfoMsg)

} // namespace Federation
