#include "common/clientlogging.h"

namespace Broker {

// Info and above by default: the CLI and the helper share these, and debug detail (each failed
// request, each git call) is for QT_LOGGING_RULES="peers.client.*.debug=true".
Q_LOGGING_CATEGORY(lcClientHttp, "peers.client.http", QtInfoMsg)
Q_LOGGING_CATEGORY(lcClientWorkspace, "peers.client.workspace", QtInfoMsg)
Q_LOGGING_CATEGORY(lcClientConfig, "peers.client.config", QtInfoMsg)
Q_LOGGING_CATEGORY(lcClientLauncher, "peers.client.launcher", QtInfoMsg)
Q_LOGGING_CATEGORY(lcClientSecrets, "peers.client.secrets", QtInfoMsg)
Q_LOGGING_CATEGORY(lcClientSignals, "peers.client.signals", QtInfoMsg)

} // namespace Broker
