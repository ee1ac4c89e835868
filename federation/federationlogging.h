#pragma once

#include <QLoggingCategory>

namespace Federation {

// Categories of the federation module, filtered with QT_LOGGING_RULES="peers.federation.*=true".
Q_DECLARE_LOGGING_CATEGORY(lcFederation) // peers.federation: links, sync, relays, pairing
Q_DECLARE_LOGGING_CATEGORY(lcFederationTls) // peers.federation.tls: certificates, handshakes, pins

} // namespace Federation
