#pragma once

#include "broker/http/httptypes.h"
#include "common/result.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QString>

#include <expected>
#include <functional>
#include <optional>

namespace Broker {
class BrokerServer;
class Clock;
} // namespace Broker

namespace Federation {

class ChallengeServer;
class ReplayGuard;
class SubnetFilter;

// The requests on the federation port, in 0.7's order (docs/spec/peers-api.md §4.1): the subnet filter,
// /health, the PSK header, then /federation/handshake, /federation/peers, /federation/relay,
// with 0.7's bodies, status codes and error texts. Our brokers skip the PSK header: they run
// /federation/challenge and /federation/verify (before the PSK check) and then send
// X-Federation-Session instead (challengeserver.h); the header stays 0.7's (legacy) way in. A relay is stored
// through the broker's public BrokerServer::storeRelayedMessage, as a local send would be; nothing is stored
// when any check fails.
class InboundHandler final : public Broker::Http::RequestHandler
{
public:
    static constexpr qsizetype kMaxSmallBodyBytes = 64 * 1024; // handshake and peers

    struct Context
    {
        QString hostname;
        bool acceptLegacy = true;
        std::function<QByteArray()> psk; // empty while it is being read: 503
        // checked before anything else (docs/spec/peers-api.md §4.1 step 1)
        const SubnetFilter *subnets = nullptr;
        Broker::BrokerServer *broker = nullptr;
        const Broker::Clock *clock = nullptr;
        ReplayGuard *guard = nullptr;
        ChallengeServer *challenges = nullptr; // null: 0.7's pipeline only
        // After a successful handshake (bidirectional links): who called, and their port if said.
        std::function<void(const QHostAddress &from, const QString &hostname, std::optional<int> port)>
            onHandshake;
        // Pairing (pairing.h): its routes are answered before the PSK check; true when it answered.
        std::function<bool(const Broker::Http::Request &, const Broker::Http::ResponderPtr &)> pairing;
        // POST /federation/peers-changed (ours only, announced in the handshake's capabilities):
        // the caller's peer list changed; the module re-reads it from its link to that hostname.
        std::function<void(const QString &hostname)> onPeersChanged;
        // A paired broker the user revoked (revokedremotes.h): the refusal message for a caller
        // that names that hostname or pin, empty otherwise. Checked at the challenge, the
        // handshake and each relay.
        std::function<QString(const QString &hostname, const QString &pin)> revoked;
    };

    // In the handshake answer: what our brokers understand beyond 0.7 (0.7 ignores the field).
    static constexpr const char *kPeersChangedCapability = "peers-changed";

    explicit InboundHandler(Context context) : m_context(std::move(context)) { }

    void handle(const Broker::Http::Request &request, const Broker::Http::ResponderPtr &responder) override;

    // Relays accepted since start (status figures).
    qint64 relaysAccepted() const { return m_relaysAccepted; }
    qint64 relaysRefused() const { return m_relaysRefused; }

private:
    // Whether the request proved the PSK: a live session, or (legacy) the PSK header. Answers
    // the refusal itself when not.
    enum class Proof { Refused, Session, PskHeader };
    Proof authenticate(const Broker::Http::Request &request, const QHostAddress &source,
                       const Broker::Http::ResponderPtr &responder);
    void handshake(const Broker::Http::Request &request, const QJsonObject &body, Proof proof,
                   const Broker::Http::ResponderPtr &responder);
    void peers(const Broker::Http::ResponderPtr &responder);
    void peersChanged(const QJsonObject &body, const Broker::Http::ResponderPtr &responder);
    void relay(const Broker::Http::Request &request, const Broker::Http::ResponderPtr &responder);
    void refuseRelay(const Broker::Http::ResponderPtr &responder, int status, const QJsonObject &answer);
    QString revokedCaller(const QString &hostname, const QString &pin) const;

    Context m_context;
    qint64 m_relaysAccepted = 0;
    qint64 m_relaysRefused = 0;
};

} // namespace Federation
