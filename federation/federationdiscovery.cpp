// DNS-SD discovery in the module: announcing our fingerprint, connecting found hosts whose key is
// already pinned, and turning unknown ones into pairing requests (TXT is a hint only).
#include "federation/federationmodule.h"

#include "broker/clock.h"
#include "common/config.h"
#include "federation/discoverypolicy.h"
#include "federation/discoverytxt.h"
#include "federation/federationlogging.h"
#include "federation/ignoredmachines.h"
#include "federation/pendingrequests.h"
#include "federation/pskkeeper.h"
#ifdef PEERS_HAVE_DNSSD
#include "federation/discoverydnssd.h"
#endif

namespace Federation {

void FederationModule::startDiscovery()
{
    stopDiscovery();
    if (!m_settings.mdnsEnabled) {
        m_discoveryOff = QStringLiteral("turned off (%1)").arg(m_settings.mdnsOffReason);
    } else if (m_ownPin.isEmpty()) {
        m_discoveryOff =
            QStringLiteral("no certificate fingerprint to announce (plain HTTP or no certificate)");
    } else if (!listeningPort()) {
        m_discoveryOff = QStringLiteral("the federation port is not open");
    } else {
        m_discoveryOff.clear();
    }
    if (!m_discoveryOff.isEmpty()) {
        qCInfo(lcFederation).noquote() << "mDNS discovery off:" << m_discoveryOff;
        return;
    }
    if (m_parts.discovery) {
        m_discovery = m_parts.discovery();
    } else {
#ifdef PEERS_HAVE_DNSSD
        m_discovery = std::make_unique<DnsSdDiscovery>();
#else
        m_discovery = std::make_unique<NullDiscovery>(
            QStringLiteral("this build has no DNS-SD (dns_sd.h was not found when it was built)"));
#endif
    }
    connect(m_discovery.get(), &Discovery::found, this, &FederationModule::serviceFound);
    connect(m_discovery.get(), &Discovery::lost, this, &FederationModule::serviceLost);
    connect(m_discovery.get(), &Discovery::unavailable, this, [this](const QString &reason) {
        m_discoveryOff = reason;
        qCWarning(lcFederation).noquote()
            << "mDNS discovery off:" << reason << "- federation works without it (join URLs, connect).";
    });
    const DiscoveryTxt txt {QString::fromLatin1(RemoteLinks::kProtocolVersion), m_settings.hostname, m_ownPin,
                            false};
    m_discovery->start(m_settings.hostname, listeningPort(), encodeDiscoveryTxt(txt));
}

void FederationModule::stopDiscovery()
{
    if (m_discovery) {
        m_discovery->disconnect(this);
        m_discovery->stop();
    }
    m_discovery.reset();
    m_discovered.clear();
    m_discoveryOff = QStringLiteral("federation is not running");
}

void FederationModule::serviceFound(const DiscoveredService &service)
{
    if (!m_links || !m_psk || !m_psk->isLoaded())
        return;
    const Broker::ConfigFile config = Broker::ConfigFile::load(m_settings.configPath);
    const QHash<QString, QString> pins = config.pins();
    DiscoveryContext context;
    context.ownHostname = m_settings.hostname;
    context.ownPin = m_ownPin;
    context.pinnedFingerprints = QSet<QString>(pins.cbegin(), pins.cend());
    context.linked = [this](const QString &hostname) { return m_links->hasHostname(hostname); };
    const DiscoveryDecision decision = decideDiscovery(service, context);
    const RemoteAddress address {service.address, service.port};
    if (decision.action == DiscoveryAction::Ignore) {
        qCDebug(lcFederation).noquote() << "mDNS:" << service.instance << decision.reason;
        return;
    }
    if (decision.action == DiscoveryAction::Connect) {
        const QString pinned = pins.value(address.key());
        if (pinned.isEmpty() || pinned == decision.txt.fingerprint) {
            if (m_links->find(address))
                return;
            // The pin goes with the address first, so the TLS check verifies exactly this key.
            const auto saved = Broker::ConfigFile::update(m_settings.configPath, [&](Broker::ConfigFile &c) {
                c.setPin(address.host, address.port, decision.txt.fingerprint);
                return true;
            });
            if (!saved) {
                qCWarning(lcFederation).noquote()
                    << "mDNS: keeping the pin of" << address.key() << "failed:" << saved.error().message;
                return;
            }
            qCInfo(lcFederation).noquote() << "mDNS: found" << decision.txt.hostname << "at" << address.key()
                                           << "with a pinned fingerprint; connecting";
            m_links->connect(address, RemoteOrigin::Manual, [address](Broker::Result<QJsonObject> done) {
                if (!done)
                    qCWarning(lcFederation).noquote()
                        << "mDNS: connecting to" << address.key() << "failed:" << done.error().message;
            });
            return;
        }
        // The address is pinned to another key: the user decides (re-pair), we do not connect.
    }
    DiscoveredHost host {service.instance,
                         decision.txt.hostname,
                         service.address,
                         service.port,
                         decision.txt.fingerprint,
                         decision.txt.version,
                         decision.action == DiscoveryAction::Connect
                             ? QStringLiteral("its address is pinned to another certificate: pair it again")
                             : decision.reason,
                         m_context ? m_context->clock().now() : QDateTime::currentDateTimeUtc()};
    const bool ignored = m_ignored && m_ignored->isIgnored(host.fingerprint);
    if (ignored)
        host.reason =
            QStringLiteral("you ignored its pairing request (claude-peers federation unignore %1 lets it ask "
                           "again)")
                .arg(host.fingerprint);
    const auto same = [&](const DiscoveredHost &known) { return known.instance == host.instance; };
    m_discovered.removeIf(same);
    if (m_discovered.size() >= kMaxDiscoveredHosts)
        m_discovered.removeFirst(); // the oldest sighting goes
    m_discovered.append(host);
    qCInfo(lcFederation).noquote() << "mDNS: found" << host.hostname << "at" << address.key() << "-"
                                   << host.reason;
    Q_EMIT hostDiscovered(host);
    // A host with a fingerprint becomes a pairing request (accepting it pins and connects); a
    // 0.7 broker has none to pin: it stays in `discovered`, for a join URL by hand.
    if (PendingRequests *pending = pendingRequests(); pending && !host.fingerprint.isEmpty() && !ignored) {
        PendingRequests::Candidate candidate;
        candidate.host = host.address;
        candidate.port = host.port;
        candidate.hostname = host.hostname;
        candidate.fingerprint = host.fingerprint;
        candidate.origin = PendingOrigin::Discovery;
        if (auto added = pending->add(candidate, m_context->clock().msecsSinceEpoch()); !added)
            qCInfo(lcFederation).noquote()
                << "mDNS:" << host.hostname << "not added to pending:" << added.error();
    }
}

void FederationModule::serviceLost(const QString &instance)
{
    m_discovered.removeIf([&](const DiscoveredHost &known) { return known.instance == instance; });
}

} // namespace Federation
