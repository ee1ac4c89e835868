#include "federation/inboundhandler.h"

#include "broker/brokerserver.h"
#include "broker/clock.h"
#include "federation/challengeproof.h"
#include "federation/challengeserver.h"
#include "federation/federationlogging.h"
#include "federation/relayenvelope.h"
#include "federation/relaysignature.h"
#include "federation/replayguard.h"
#include "federation/subnetfilter.h"

#include <QJsonArray>
#include <QJsonDocument>

using Broker::Http::Request;
using Broker::Http::ResponderPtr;
using Broker::Http::Response;

namespace Federation {

namespace {

const QString kPskMismatch =
    QStringLiteral("PSK mismatch — ensure both machines share the same ~/.claude-peers-token file");

void answer(const ResponderPtr &responder, int status, const QJsonObject &object)
{
    responder->respond(Response::json(status, QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

void error(const ResponderPtr &responder, int status, const QString &message)
{
    answer(responder, status, {{QStringLiteral("error"), message}});
}

QJsonObject refusal(const QString &message)
{
    return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), message}};
}

} // namespace

void InboundHandler::handle(const Request &request, const ResponderPtr &responder)
{
    const QHostAddress source = SubnetFilter::unmapped(request.peerAddress);
    if (!m_context.subnets->allows(source)) {
        error(responder, 403, m_context.subnets->rejectionMessage(source));
        return;
    }
    if (request.path == "/health") {
        answer(responder, 200,
               {{QStringLiteral("status"), QStringLiteral("ok")},
                {QStringLiteral("federation"), true},
                {QStringLiteral("hostname"), m_context.hostname},
                // ours: lets the other side's doctor measure clock skew (0.7 ignores it)
                {QStringLiteral("time_ms"), m_context.clock ? m_context.clock->msecsSinceEpoch() : 0}});
        return;
    }
    if (m_context.pairing && m_context.pairing(request, responder))
        return;
    if (request.method != "POST") {
        responder->respond(Response::text(200, QByteArrayLiteral("claude-peers federation agent")));
        return;
    }
    const QByteArray psk = m_context.psk ? m_context.psk() : QByteArray();
    if (psk.isEmpty()) {
        error(responder, 503,
              QStringLiteral("Federation is starting (its key is being read); try again shortly"));
        return;
    }
    if (m_context.challenges &&
        (request.path == "/federation/challenge" || request.path == "/federation/verify")) {
        if (request.path == "/federation/challenge") {
            if (const auto asked = Challenge::parseChallengeRequest(request.body); asked) {
                if (const QString refused = revokedCaller(asked->hostname, asked->clientPin);
                    !refused.isEmpty()) {
                    error(responder, 403, refused);
                    return;
                }
            }
        }
        const ChallengeServer::Answer result = request.path == "/federation/challenge"
            ? m_context.challenges->challenge(request.peerAddress, request.body)
            : m_context.challenges->verify(request.peerAddress, request.body);
        answer(responder, result.status, result.body);
        return;
    }
    const Proof proof = authenticate(request, source, responder);
    if (proof == Proof::Refused)
        return;

    if (request.path == "/federation/relay") {
        relay(request, responder);
        return;
    }
    if (request.body.size() > kMaxSmallBodyBytes) {
        error(responder, 413,
              QStringLiteral("Request body too large (limit %1 bytes)").arg(kMaxSmallBodyBytes));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = request.body.isEmpty()
        ? QJsonDocument(QJsonObject())
        : QJsonDocument::fromJson(request.body, &parseError);
    if (!document.isObject()) {
        error(responder, 400,
              document.isNull() ? QStringLiteral("Invalid JSON body: %1 at offset %2")
                                      .arg(parseError.errorString())
                                      .arg(parseError.offset)
                                : QStringLiteral("Invalid JSON body: expected a JSON object"));
        return;
    }
    if (request.path == "/federation/handshake")
        handshake(request, document.object(), proof, responder);
    else if (request.path == "/federation/peers")
        peers(responder);
    else if (request.path == "/federation/peers-changed")
        peersChanged(document.object(), responder);
    else
        error(responder, 404, QStringLiteral("not found"));
}

InboundHandler::Proof InboundHandler::authenticate(const Request &request, const QHostAddress &source,
                                                   const ResponderPtr &responder)
{
    const QByteArray session = request.header(Challenge::kSessionHeaderLower);
    if (!session.isEmpty() && m_context.challenges) {
        if (m_context.challenges->session(session, source))
            return Proof::Session;
        // Our clients run the exchange again on this status (a restart forgets sessions).
        error(responder, 401,
              QStringLiteral("Unknown or expired federation session: run the challenge exchange again "
                             "(POST /federation/challenge)"));
        return Proof::Refused;
    }
    if (!RelaySignature::constantTimeEquals(request.header("x-claude-peers-psk"), m_context.psk())) {
        error(responder, 403, kPskMismatch);
        return Proof::Refused;
    }
    // 0.7's only mechanism: accepted while federation.accept_legacy is on, logged once per peer.
    const QString peer = source.toString();
    if (!m_context.acceptLegacy) {
        error(responder, 403,
              QStringLiteral("The legacy PSK header is refused here (federation.accept_legacy is off)"));
        return Proof::Refused;
    }
    if (m_context.guard && m_context.guard->recordLegacyUse(peer, QStringLiteral("psk-header")))
        qCInfo(lcFederation).noquote() << peer << "uses the legacy PSK header (claude-peers 0.7's protocol)";
    return Proof::PskHeader;
}

void InboundHandler::handshake(const Request &request, const QJsonObject &body, Proof proof,
                               const ResponderPtr &responder)
{
    const QByteArray psk = m_context.psk();
    // 0.7 repeats the PSK in the handshake's body (docs/spec/peers-api.md §4.2); a session proved it already.
    if (proof == Proof::PskHeader &&
        !RelaySignature::constantTimeEquals(body.value(QStringLiteral("psk")).toString().toUtf8(), psk)) {
        error(responder, 403, kPskMismatch);
        return;
    }
    const QString hostname = body.value(QStringLiteral("hostname")).toString();
    if (const QString refused = revokedCaller(hostname, {}); !refused.isEmpty()) {
        error(responder, 403, refused);
        return;
    }
    qCInfo(lcFederation).noquote() << "handshake from" << hostname << "at"
                                   << SubnetFilter::unmapped(request.peerAddress).toString();
    answer(responder, 200,
           {{QStringLiteral("hostname"), m_context.hostname},
            {QStringLiteral("version"), QStringLiteral("1.0.0")},
            {QStringLiteral("capabilities"), QJsonArray {QString::fromLatin1(kPeersChangedCapability)}}});
    std::optional<int> port;
    const QJsonValue portValue = body.value(QStringLiteral("port"));
    if (portValue.isDouble() && portValue.toInt() > 0 && portValue.toInt() <= 65535)
        port = portValue.toInt();
    if (m_context.onHandshake && !hostname.isEmpty() && !hostname.contains(QLatin1Char(':')) &&
        hostname.size() <= 63)
        m_context.onHandshake(SubnetFilter::unmapped(request.peerAddress), hostname, port);
}

void InboundHandler::peers(const ResponderPtr &responder)
{
    auto local = m_context.broker->localPeers();
    if (!local) {
        error(responder, 500, local.error().message);
        return;
    }
    QJsonArray rows;
    for (const Broker::Peer &peer : *local)
        rows.append(peer.toJson());
    answer(responder, 200,
           {{QStringLiteral("hostname"), m_context.hostname}, {QStringLiteral("peers"), rows}});
}

void InboundHandler::peersChanged(const QJsonObject &body, const ResponderPtr &responder)
{
    // Only a hint: the list itself is fetched back through our own (pinned) link to that
    // hostname, so a caller can make us re-read a list, never write one.
    const QString hostname = body.value(QStringLiteral("hostname")).toString();
    if (hostname.isEmpty() || hostname.contains(QLatin1Char(':')) || hostname.size() > 63) {
        error(responder, 400, QStringLiteral("peers-changed needs the caller's \"hostname\""));
        return;
    }
    answer(responder, 200, {{QStringLiteral("ok"), true}});
    if (m_context.onPeersChanged)
        m_context.onPeersChanged(hostname);
}

QString InboundHandler::revokedCaller(const QString &hostname, const QString &pin) const
{
    return m_context.revoked ? m_context.revoked(hostname, pin) : QString();
}

void InboundHandler::refuseRelay(const ResponderPtr &responder, int status, const QJsonObject &object)
{
    ++m_relaysRefused;
    qCInfo(lcFederation).noquote() << "relay refused" << status
                                   << object.value(QStringLiteral("error")).toString();
    answer(responder, status, object);
}

void InboundHandler::relay(const Request &request, const ResponderPtr &responder)
{
    RelayVerifyOptions options;
    options.key = m_context.psk();
    options.nowMs = m_context.clock->msecsSinceEpoch();
    options.localMachine = m_context.hostname;
    options.acceptLegacy = m_context.acceptLegacy;
    auto verified = verifyRelay(request.body, options);
    if (!verified) {
        const RelayError &failure = verified.error();
        qCDebug(lcFederation).noquote() << "relay refused before storing:" << failure.message;
        switch (failure.kind) {
        case RelayError::Kind::TooLarge:
            refuseRelay(responder, 413, {{QStringLiteral("error"), failure.message}});
            return;
        case RelayError::Kind::Malformed:
            refuseRelay(
                responder, 400,
                {{QStringLiteral("error"), QStringLiteral("Invalid JSON body: %1").arg(failure.message)}});
            return;
        case RelayError::Kind::BadSignature:
            refuseRelay(responder, 403,
                        {{QStringLiteral("error"), QStringLiteral("Invalid HMAC signature")}});
            return;
        case RelayError::Kind::StaleTimestamp:
            refuseRelay(responder, 403,
                        {{QStringLiteral("error"), ReplayGuard::refusalMessage(ReplayRefusal::Stale)}});
            return;
        case RelayError::Kind::WrongMachine:
            refuseRelay(
                responder, 403,
                {{QStringLiteral("error"), ReplayGuard::refusalMessage(ReplayRefusal::WrongMachine)}});
            return;
        case RelayError::Kind::LegacyRefused:
            refuseRelay(responder, 403,
                        {{QStringLiteral("error"), ReplayGuard::refusalMessage(ReplayRefusal::Required)}});
            return;
        case RelayError::Kind::MissingField:
        case RelayError::Kind::BadField:
        case RelayError::Kind::MetadataNotObject:
        case RelayError::Kind::ContentTooLarge:
            refuseRelay(responder, 400, refusal(failure.message));
            return;
        }
        return;
    }
    const RelayMessage &message = verified->message;
    const QString &sender = message.fromMachine;
    if (const QString refused = revokedCaller(sender, {}); !refused.isEmpty()) {
        refuseRelay(responder, 403, {{QStringLiteral("error"), refused}});
        return;
    }
    if (verified->isLegacy()) {
        // A sender that once sent replay fields is never taken back to 0.7's relays.
        if (m_context.guard->sendsReplayFields(sender)) {
            refuseRelay(responder, 403,
                        {{QStringLiteral("error"), ReplayGuard::refusalMessage(ReplayRefusal::Required)}});
            return;
        }
        if (m_context.guard->recordLegacyUse(sender, QStringLiteral("relay-without-replay-fields")))
            qCInfo(lcFederation).noquote()
                << sender << "relays without ts/nonce (claude-peers 0.7's protocol)";
    } else {
        auto admitted = m_context.guard->admit(sender, verified->replay->nonce, verified->replay->tsMs);
        if (!admitted) {
            refuseRelay(responder, admitted.error() == ReplayRefusal::Database ? 500 : 403,
                        {{QStringLiteral("error"), ReplayGuard::refusalMessage(admitted.error())}});
            return;
        }
    }
    // The broker checks the target (404, 410) and then the content (400), in 0.7's order.
    auto stored =
        m_context.broker->storeRelayedMessage(message.fromId, message.toId, message.text, message.type,
                                              message.metadata.toQJson(), message.replyTo);
    if (!stored) {
        const int status = stored.error().httpStatus ? stored.error().httpStatus : 500;
        refuseRelay(responder, status, refusal(stored.error().message));
        return;
    }
    ++m_relaysAccepted;
    answer(responder, 200, {{QStringLiteral("ok"), true}, {QStringLiteral("message_id"), *stored}});
}

} // namespace Federation
