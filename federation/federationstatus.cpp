// What the module reports: /federation/status (the FederationLink's status(): port, links, key,
// pairing, discovery, warnings) and /federation/doctor: what only the broker can check — its
// port, certificate, key, subnet, the mDNS daemon, pairing requests waiting, and the clock skew
// against each remote (relays outside ±300 s are refused) — each with a fix line. The CLI's
// `federation doctor` adds its own checks.
#include "federation/federationmodule.h"

#include "broker/clock.h"
#include "common/config.h"
#include "federation/challengeserver.h"
#include "federation/pairing.h"
#include "federation/pinnedtlsclient.h"
#include "federation/pskkeeper.h"
#include "federation/replayguard.h"
#include "federation/sessiontransport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>

namespace Federation {

namespace {

constexpr qint64 kSkewWarnMs = 30'000;
constexpr qint64 kSkewFailMs = 300'000; // the relay replay window (issue #9)

QJsonObject check(const QString &name, const char *status, const QString &detail, const QString &fix = {})
{
    QJsonObject o {{QStringLiteral("name"), name},
                   {QStringLiteral("status"), QLatin1String(status)},
                   {QStringLiteral("detail"), detail}};
    if (!fix.isEmpty())
        o.insert(QStringLiteral("fix"), fix);
    return o;
}

// The remote's clock as its /health says it (time_ms, ours), or its Date header (0.7's Bun).
std::optional<qint64> remoteTimeMs(const TlsResponse &response)
{
    const QJsonValue time = QJsonDocument::fromJson(response.body).object().value(QLatin1String("time_ms"));
    if (time.isDouble() && time.toDouble() > 0)
        return qint64(time.toDouble());
    const QDateTime date =
        QDateTime::fromString(QString::fromLatin1(response.header("date")), Qt::RFC2822Date);
    if (date.isValid())
        return date.toMSecsSinceEpoch() + 500; // whole seconds: the middle of that second
    return std::nullopt;
}

// Measures every remote at once; answers when the last one did.
struct SkewRun
{
    Broker::Http::ResponderPtr responder;
    QJsonArray checks;
    QJsonArray skews;
    int waiting = 0;
    std::unique_ptr<PinnedTlsClient, void (*)(PinnedTlsClient *)> client {nullptr, nullptr};

    void finishOne()
    {
        if (--waiting > 0)
            return;
        QJsonObject answer {{QStringLiteral("ok"), true},
                            {QStringLiteral("checks"), checks},
                            {QStringLiteral("clock_skew"), skews}};
        Broker::RouteAnswer::json(responder, answer);
    }
};

} // namespace

void FederationModule::doctor(Broker::RouteCall &call)
{
    auto run = std::make_shared<SkewRun>();
    run->responder = call.responder;
    QJsonArray &checks = run->checks;
    const int port = m_settings.port;
    if (!m_settings.enabled) {
        checks.append(check(QStringLiteral("Federation"), "fail", QStringLiteral("off in this broker"),
                            QStringLiteral("claude-peers federation init")));
    } else if (listeningPort()) {
        checks.append(check(QStringLiteral("Federation port"), "ok",
                            QStringLiteral("listening on TCP %1").arg(listeningPort())));
    } else {
        checks.append(
            check(QStringLiteral("Federation port"), "fail",
                  m_listenError.isEmpty() ? QStringLiteral("not listening (no certificate)") : m_listenError,
                  QStringLiteral("free TCP %1 (ss -ltnp 'sport = :%1' shows who holds it) or choose "
                                 "another: claude-peers federation enable <port>")
                      .arg(port)));
    }

    if (!m_certificateError.isEmpty())
        checks.append(
            check(QStringLiteral("Certificate"), "fail", m_certificateError,
                  QStringLiteral("unset CLAUDE_PEERS_FEDERATION_CERT/KEY to let the broker make one, or "
                                 "point them at a readable PEM pair; then claude-peers restart")));
    else if (m_ownPin.isEmpty())
        checks.append(check(QStringLiteral("Certificate"), "warn",
                            QStringLiteral("none: this broker federates over plain HTTP (tests only)"),
                            QStringLiteral("claude-peers restart without the plain-HTTP test setting")));
    else
        checks.append(
            check(QStringLiteral("Certificate"), "ok", QStringLiteral("fingerprint %1").arg(m_ownPin)));

    if (!m_pskError.isEmpty())
        checks.append(check(QStringLiteral("Federation key"), "fail", m_pskError,
                            QStringLiteral("claude-peers federation init")));
    else if (!m_psk || !m_psk->isLoaded())
        checks.append(check(QStringLiteral("Federation key"), "warn", QStringLiteral("still being read"),
                            QStringLiteral("run the doctor again in a few seconds")));
    else if (m_psk->equalsLocalToken())
        checks.append(
            check(QStringLiteral("Federation key"), "warn",
                  QStringLiteral("a copy of the local token (0.7's arrangement), kept in %1")
                      .arg(m_psk->where().describe()),
                  QStringLiteral("claude-peers federation rotate-psk, then pair the other machines again")));
    else
        checks.append(check(QStringLiteral("Federation key"), "ok",
                            QStringLiteral("its own, kept in %1").arg(m_psk->where().describe())));

    const QString subnets = m_subnets.toStringList().join(QStringLiteral(", "));
    if (!m_subnetError.isEmpty())
        checks.append(check(
            QStringLiteral("Subnet"), "fail", m_subnetError,
            QStringLiteral("claude-peers federation enable %1 <your LAN, e.g. 192.168.1.0/24>").arg(port)));
    else if (m_settings.enabled && subnets.isEmpty())
        checks.append(check(
            QStringLiteral("Subnet"), "warn",
            QStringLiteral("none detected: the federation port refuses every source"),
            QStringLiteral("claude-peers federation enable %1 <your LAN, e.g. 192.168.1.0/24>").arg(port)));
    else if (m_settings.enabled)
        checks.append(check(QStringLiteral("Subnet"), "ok", QStringLiteral("accepting %1").arg(subnets)));

    if (QFileInfo::exists(QStringLiteral("/run/avahi-daemon/socket")))
        checks.append(check(QStringLiteral("mDNS daemon"), "ok", QStringLiteral("avahi-daemon answers")));
    else
        checks.append(check(QStringLiteral("mDNS daemon"), "warn",
                            QStringLiteral("no avahi-daemon: machines are not discovered, pair them by code"),
                            QStringLiteral("sudo apt install avahi-daemon && sudo systemctl enable --now "
                                           "avahi-daemon")));

    if (m_pairing) {
        const int waiting = m_pairing->pendingRequests().pendingCount(m_pairing->nowMs());
        if (waiting > 0)
            checks.append(check(
                QStringLiteral("Pairing requests"), "warn", QStringLiteral("%1 waiting for you").arg(waiting),
                QStringLiteral("claude-peers federation pending, then accept <id> or reject <id>")));
    }

    const QJsonArray remotes = m_links ? m_links->statusRemotes() : QJsonArray();
    if (remotes.isEmpty() || m_ownPin.isEmpty() || !m_context) {
        checks.append(check(QStringLiteral("Clock skew"), "ok",
                            remotes.isEmpty() ? QStringLiteral("no remote to compare with")
                                              : QStringLiteral("not measured (plain HTTP)")));
        run->waiting = 1;
        run->finishOne();
        return;
    }
    run->client = {new PinnedTlsClient, [](PinnedTlsClient *client) { client->deleteLater(); }};
    run->waiting = int(remotes.size());
    const qint64 sentAt = m_context->clock().msecsSinceEpoch();
    for (const QJsonValue &value : remotes) {
        const QJsonObject remote = value.toObject();
        const RemoteAddress address {remote.value(u"host").toString(), remote.value(u"port").toInt()};
        const QString name = QStringLiteral("Clock skew with %1 (%2)")
                                 .arg(remote.value(u"hostname").toString(), address.key());
        TlsRequest request;
        request.host = address.host;
        request.port = quint16(address.port);
        request.method = "GET";
        request.path = "/health";
        request.expectedPin = pinFor(address);
        if (request.expectedPin.isEmpty()) // nothing secret is sent: any key may tell its time
            request.acceptPin = [](const QString &, const QSslCertificate &) { return true; };
        request.timeoutMs = LinkTransport::kTimeoutMs;
        request.maxResponseBytes = 64 * 1024;
        // The run outlives the module when the broker stops first (the client finishes its
        // requests): the broker's clock is read through the module, and only while it runs.
        run->client->send(
            request,
            [run, name, sentAt, self = QPointer<FederationModule>(this)](const TlsRequestResult &result) {
                if (!self || !self->m_context) {
                    run->checks.append(check(name, "warn", QStringLiteral("not measured: the broker stopped"),
                                             QStringLiteral("claude-peers federation doctor")));
                    run->finishOne();
                    return;
                }
                const qint64 receivedAt = self->m_context->clock().msecsSinceEpoch();
                const auto remoteTime = result ? remoteTimeMs(*result) : std::nullopt;
                const QString fix =
                    QStringLiteral("turn on time sync on both machines: sudo timedatectl set-ntp true");
                if (!remoteTime) {
                    run->checks.append(
                        check(name, "warn",
                              result ? QStringLiteral("it did not say its time")
                                     : QStringLiteral("not measured: %1").arg(result.error().message),
                              QStringLiteral("claude-peers federation doctor on that machine")));
                } else {
                    const qint64 skew = *remoteTime - (sentAt + receivedAt) / 2;
                    const qint64 magnitude = std::abs(skew);
                    const QString detail =
                        QStringLiteral("%1 ms (its clock %2 ours; round trip %3 ms)")
                            .arg(skew)
                            .arg(skew >= 0 ? QStringLiteral("ahead of") : QStringLiteral("behind"))
                            .arg(receivedAt - sentAt);
                    if (magnitude > kSkewFailMs)
                        run->checks.append(
                            check(name, "fail", detail + QStringLiteral(": relays beyond ±300 s are refused"),
                                  fix));
                    else if (magnitude > kSkewWarnMs)
                        run->checks.append(check(name, "warn", detail, fix));
                    else
                        run->checks.append(check(name, "ok", detail));
                    run->skews.append(
                        QJsonObject {{QStringLiteral("remote"), name}, {QStringLiteral("skew_ms"), skew}});
                }
                run->finishOne();
            });
    }
}

QJsonObject FederationModule::status() const
{
    if (!m_settings.enabled)
        return Broker::DisabledFederationLink(m_settings.port).status();
    QJsonObject status {{QStringLiteral("enabled"), true},
                        {QStringLiteral("port"), int(listeningPort() ? listeningPort() : m_settings.port)},
                        {QStringLiteral("subnet"), m_subnets.toStringList().join(QLatin1Char(','))},
                        {QStringLiteral("hostname"), m_settings.hostname},
                        {QStringLiteral("accept_legacy"), m_settings.acceptLegacy}};
    QJsonArray remotes = m_links ? m_links->statusRemotes() : QJsonArray();
    for (auto it = remotes.begin(); it != remotes.end(); ++it) {
        // How we prove the PSK to it: a session of the challenge exchange, or 0.7's header.
        QJsonObject entry = it->toObject();
        const RemoteAddress address {entry.value(u"host").toString(), entry.value(u"port").toInt()};
        const SessionTransport::Mode mode =
            m_sessions ? m_sessions->mode(address) : SessionTransport::Mode::None;
        entry.insert(QStringLiteral("auth"), SessionTransport::modeName(mode));
        if (mode == SessionTransport::Mode::Legacy)
            entry.insert(QStringLiteral("legacy"), true); // the CLI's "(0.7 protocol)"
        if (const QString pin = pinFor(address); !pin.isEmpty())
            entry.insert(QStringLiteral("fingerprint"), pin);
        *it = entry;
    }
    status.insert(QStringLiteral("remotes"), remotes);
    if (m_challenges) {
        status.insert(QStringLiteral("sessions"), m_challenges->sessionCount());
        status.insert(QStringLiteral("sessions_issued"), m_challenges->sessionsIssued());
        status.insert(QStringLiteral("failed_verifications"), m_challenges->failedVerifications());
    }
    status.insert(QStringLiteral("total_remote_peers"), m_links ? m_links->totalRemotePeers() : 0);
    QJsonArray warnings;
    if (m_psk && m_psk->isLoaded()) {
        const bool copied = m_psk->equalsLocalToken();
        status.insert(QStringLiteral("psk_source"),
                      copied ? QStringLiteral("local-token-copy") : QStringLiteral("own"));
        status.insert(QStringLiteral("psk_location"), m_psk->where().describe());
        if (copied)
            warnings.append(
                QStringLiteral("The federation PSK is a copy of the local token (claude-peers 0.7's "
                               "arrangement): run `claude-peers federation rotate-psk` and give the "
                               "new key to your other machines."));
    }
    if (!m_pskError.isEmpty())
        warnings.append(m_pskError);
    for (const QString &problem : {m_listenError, m_certificateError, m_subnetError})
        if (!problem.isEmpty())
            warnings.append(problem);
    if (!m_ownPin.isEmpty())
        status.insert(QStringLiteral("fingerprint"), m_ownPin);
    if (m_guard && m_context) {
        const QJsonArray legacy = m_guard->legacyUses();
        status.insert(QStringLiteral("legacy_uses"), legacy);
        if (!legacy.isEmpty())
            warnings.append(QStringLiteral("%1 legacy (claude-peers 0.7) use(s) recorded; see legacy_uses")
                                .arg(legacy.size()));
    }
    QJsonArray discovered;
    for (const DiscoveredHost &host : m_discovered)
        discovered.append(QJsonObject {{QStringLiteral("hostname"), host.hostname},
                                       {QStringLiteral("host"), host.address},
                                       {QStringLiteral("port"), int(host.port)},
                                       {QStringLiteral("fingerprint"), host.fingerprint},
                                       {QStringLiteral("version"), host.version},
                                       {QStringLiteral("legacy"), host.fingerprint.isEmpty()},
                                       {QStringLiteral("reason"), host.reason},
                                       {QStringLiteral("seen_at"), Broker::Clock::toIso(host.seenAt)}});
    status.insert(QStringLiteral("discovered"), discovered);
    QJsonObject mdns {{QStringLiteral("active"), discoveryActive()}};
    if (!discoveryActive())
        mdns.insert(QStringLiteral("reason"), m_discoveryOff);
    status.insert(QStringLiteral("mdns"), mdns);
    if (m_pairing)
        m_pairing->addToStatus(status);
    if (m_inbound) {
        status.insert(QStringLiteral("relays_accepted"), m_inbound->relaysAccepted());
        status.insert(QStringLiteral("relays_refused"), m_inbound->relaysRefused());
    }
    status.insert(QStringLiteral("warnings"), warnings);
    return status;
}

} // namespace Federation
