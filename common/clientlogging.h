#pragma once

#include <QLoggingCategory>

namespace Broker {

// Categories of the broker client library (peers.client.<area>); filter with QT_LOGGING_RULES.
Q_DECLARE_LOGGING_CATEGORY(lcClientHttp)
Q_DECLARE_LOGGING_CATEGORY(lcClientWorkspace)
Q_DECLARE_LOGGING_CATEGORY(lcClientConfig)
Q_DECLARE_LOGGING_CATEGORY(lcClientLauncher)
Q_DECLARE_LOGGING_CATEGORY(lcClientSecrets)
Q_DECLARE_LOGGING_CATEGORY(lcClientSignals)

} // namespace Broker
