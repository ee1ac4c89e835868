#pragma once

#include <QLoggingCategory>

namespace Broker {

// Categories of the broker module, filtered with QT_LOGGING_RULES="peers.broker.*=true". In the
// module's namespace: a binary linking the broker and the helper has one lcDelivery of each.
Q_DECLARE_LOGGING_CATEGORY(lcServer) // peers.broker.server: start, stop, lock, token
Q_DECLARE_LOGGING_CATEGORY(lcApi) // peers.broker.api: requests and their answers
Q_DECLARE_LOGGING_CATEGORY(lcDelivery) // peers.broker.delivery: waits and wake-ups
Q_DECLARE_LOGGING_CATEGORY(lcMaintenance) // peers.broker.maintenance: sweeps, purge, bounces
Q_DECLARE_LOGGING_CATEGORY(lcSettings) // peers.broker.settings: config file and environment

} // namespace Broker
