#include "federation/discoverypolicy.h"

namespace Federation {

DiscoveryDecision decideDiscovery(const DiscoveredService &service, const DiscoveryContext &context)
{
    DiscoveryDecision decision;
    auto parsed = parseDiscoveryTxt(service.txt);
    if (!parsed) {
        decision.reason = QStringLiteral("ignored: %1").arg(parsed.error());
        return decision;
    }
    decision.txt = *parsed;
    const DiscoveryTxt &txt = decision.txt;
    if (service.address.isEmpty() || service.port == 0) {
        decision.reason = QStringLiteral("ignored: no IPv4 address or port");
        return decision;
    }
    if (txt.hostname == context.ownHostname ||
        (!txt.fingerprint.isEmpty() && txt.fingerprint == context.ownPin)) {
        decision.reason = QStringLiteral("ignored: our own announcement");
        return decision;
    }
    if (context.linked && context.linked(txt.hostname)) {
        decision.reason = QStringLiteral("ignored: already linked");
        return decision;
    }
    if (txt.fingerprint.isEmpty()) {
        // A 0.7 broker: its psk_hash would have us send the PSK to whoever copied it.
        decision.action = DiscoveryAction::Pending;
        decision.reason = QStringLiteral("a claude-peers 0.7 broker: pair it by hand (join URL)");
        return decision;
    }
    if (context.pinnedFingerprints.contains(txt.fingerprint)) {
        decision.action = DiscoveryAction::Connect;
        decision.reason = QStringLiteral("pinned fingerprint");
        return decision;
    }
    decision.action = DiscoveryAction::Pending;
    decision.reason = QStringLiteral("new host: waiting for pairing");
    return decision;
}

} // namespace Federation
