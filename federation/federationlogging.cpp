#include "federationlogging.h"

namespace Federation {

Q_LOGGING_CATEGORY(lcFederation, "peers.federation", QtInfoMsg)

} // namespace Federation
