#include "broker/brokerlogging.h"

namespace Broker {

Q_LOGGING_CATEGORY(lcServer, "peers.broker.server", QtInfoMsg)
Q_LOGGING_CATEGORY(lcApi, "peers.broker.api", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDelivery, "peers.broker.delivery", QtInfoMsg)
Q_LOGGING_CATEGORY(lcMaintenance, "peers.broker.maintenance", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSettings, "peers.broker.settings", QtInfoMsg)

} // namespace Broker
