#pragma once

#include "federation/discoverytxt.h"

#include <QByteArray>
#include <QSet>
#include <QString>

#include <functional>

// What the module does with a service it discovered (docs/spec/federation-security.md §5, "safer
// discovery"): the TXT record is a hint only. Auto-connect only to a fingerprint already pinned
// (TLS checks the pin again); anything else waits for the user's pairing.
namespace Federation {

struct DiscoveredService
{
    QString instance; // the DNS-SD instance name (0.7: the hostname)
    QString address; // the first IPv4 address the host resolved to
    quint16 port = 0;
    QByteArray txt; // the raw TXT record
};

enum class DiscoveryAction {
    Ignore, // ourselves, an unreadable announcement, or a host we are already linked to
    Connect, // its fingerprint is pinned: reach it as if connected by hand
    Pending, // a new host (or a 0.7 broker): listed for the user to pair, nothing sent to it
};

struct DiscoveryDecision
{
    DiscoveryAction action = DiscoveryAction::Ignore;
    QString reason; // for the log, in plain words
    DiscoveryTxt txt; // the parsed record (empty when unreadable)
};

struct DiscoveryContext
{
    QString ownHostname;
    QString ownPin;
    QSet<QString> pinnedFingerprints; // federation.pins' values
    std::function<bool(const QString &hostname)> linked; // already connected/connecting
};

DiscoveryDecision decideDiscovery(const DiscoveredService &service, const DiscoveryContext &context);

} // namespace Federation
