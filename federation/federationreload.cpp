// Reload (SIGHUP / POST /reload) and the certificate's renewal while running: the module re-reads
// its settings and applies what changed without a broker restart (docs/decisions.md "Federation
// discovery and reload").
#include "federation/federationmodule.h"

#include "broker/brokerserver.h"
#include "broker/clock.h"
#include "federation/certificate.h"
#include "federation/federationlogging.h"
#include "federation/pskkeeper.h"
#include "federation/tlsserver.h"

namespace Federation {

void FederationModule::reload()
{
    if (!m_started || !m_context)
        return;
    FederationSettings fresh = m_parts.settingsSource
        ? m_parts.settingsSource()
        : FederationSettings::load(m_context->server().settings().location, m_parts.environment);
    // The hostname prefixes every peer id our remotes hold: changing it needs a restart.
    fresh.hostname = m_settings.hostname;
    fresh.hostnameError = m_settings.hostnameError;
    const FederationSettings old = m_settings;
    m_settings = fresh;
    if (!old.enabled && !fresh.enabled)
        return;
    if (old.enabled && !fresh.enabled) {
        bringDown();
        qCInfo(lcFederation) << "reload: federation disabled, its port closed and remotes disconnected";
        return;
    }
    if (!old.enabled) {
        qCInfo(lcFederation) << "reload: federation enabled";
        bringUp();
        return;
    }
    if (fresh.port != old.port || fresh.acceptLegacy != old.acceptLegacy) {
        // The port goes into every handshake and accept_legacy into the inbound pipeline: the
        // federation side starts over (remotes reconnect), the broker does not.
        qCInfo(lcFederation) << "reload: federation port or accept_legacy changed; restarting federation";
        bringDown();
        bringUp();
        return;
    }
    if (fresh.subnets != old.subnets) {
        applySubnets();
        qCInfo(lcFederation).noquote()
            << "reload: federation subnets now" << m_subnets.toStringList().join(QLatin1Char(','));
    }
    refreshCertificate();
    if (m_links) {
        for (const auto &remote : old.remotes) {
            if (!listsRemote(fresh.remotes, remote) && m_links->disconnect({remote.host, remote.port}))
                qCInfo(lcFederation).noquote() << "reload: disconnected" << remote.host << remote.port;
        }
        if (m_psk && m_psk->isLoaded()) {
            for (const auto &remote : fresh.remotes) {
                if (!listsRemote(old.remotes, remote) && !m_links->find({remote.host, remote.port})) {
                    qCInfo(lcFederation).noquote() << "reload: connecting" << remote.host << remote.port;
                    m_links->connect({remote.host, remote.port}, RemoteOrigin::Config, nullptr);
                }
            }
        }
    }
    // Also the way to retry discovery once avahi-daemon runs.
    if (!fresh.mdnsEnabled) {
        stopDiscovery();
        m_discoveryOff = QStringLiteral("turned off (%1)").arg(fresh.mdnsOffReason);
    } else if (!discoveryActive() && m_psk && m_psk->isLoaded())
        startDiscovery();
}

void FederationModule::refreshCertificate()
{
    if (!m_tls || !m_context)
        return;
    auto ensured = ensureIdentity(CertificateFiles::fromEnvironment(m_parts.environment, m_settings.home),
                                  m_settings.hostname, {}, kRenewBeforeDays, m_context->clock().now());
    if (!ensured) {
        // The port keeps serving the certificate it has.
        m_certificateError =
            QStringLiteral("The federation certificate is not usable: %1").arg(ensured.error().message);
        qCWarning(lcFederation).noquote() << m_certificateError;
        return;
    }
    m_certificateError.clear();
    if (ensured->identity.certificate == m_tls->identity().certificate)
        return;
    const QString oldPin = m_ownPin;
    m_tls->setIdentity(ensured->identity);
    m_ownPin = ensured->identity.pin;
    qCInfo(lcFederation).noquote()
        << (ensured->outcome == EnsureOutcome::Renewed ? "federation certificate renewed"
                                                       : "federation certificate reloaded")
        << QStringLiteral("(valid until %1)").arg(ensured->identity.expiresAt().toString(Qt::ISODate))
        << (m_ownPin == oldPin ? QStringLiteral("same pin")
                               : QStringLiteral("NEW pin %1: remotes must pair again").arg(m_ownPin));
    if (m_ownPin != oldPin && discoveryActive())
        startDiscovery(); // announce the new fingerprint
}

} // namespace Federation
