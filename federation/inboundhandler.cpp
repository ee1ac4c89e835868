#include "inboundhandler.h"

#include "brokerserver.h"
#include "federationlogging.h"
#include "replayguard.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <openssl/crypto.h>

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

QHostAddress sourceAddress(const QHostAddress &address)
{
    // §4.1: a leading ::ffff: is dropped, so an IPv4 client over a dual-stack socket is IPv4.
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    return isV4 ? QHostAddress(v4) : address;
}

std::optional<QString> stringField(const QJsonObject &body, const QString &name, bool nullable)
{
    const QJsonValue value = body.value(name);
    if (value.isString())
        return value.toString();
    if (nullable && (value.isNull() || value.isUndefined()))
        return QString();
    return std::nullopt;
}

} // namespace

bool sameSecret(const QByteArray &given, const QByteArray &expected)
{
    return !expected.isEmpty() && given.size() == expected.size() &&
        CRYPTO_memcmp(given.constData(), expected.constData(), size_t(expected.size())) == 0;
}

void InboundHandler::handle(const Request &request, const ResponderPtr &responder)
{
    const QHostAddress source = sourceAddress(request.peerAddress);
    if (m_context.subnetAllows && !m_context.subnetAllows(source)) {
        error(responder, 403,
              QStringLiteral("Connection rejected: %1 is outside allowed subnet %2. Update "
                             "CLAUDE_PEERS_FEDERATION_SUBNET or config file.")
                  .arg(source.toString(), m_context.subnet ? m_context.subnet() : QString()));
        return;
    }
    if (request.path == "/health") {
        answer(responder, 200,
               {{QStringLiteral("status"), QStringLiteral("ok")},
                {QStringLiteral("federation"), true},
                {QStringLiteral("hostname"), m_context.hostname}});
        return;
    }
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
    if (!sameSecret(request.header("x-claude-peers-psk"), psk)) {
        error(responder, 403, kPskMismatch);
        return;
    }
    // The PSK header is 0.7's only mechanism; the challenge exchange that replaces it between our
    // brokers is not there yet, so every caller is logged as a legacy one.
    const QString peer = source.toString();
    if (!m_context.acceptLegacy) {
        error(responder, 403,
              QStringLiteral("The legacy PSK header is refused here (federation.accept_legacy is off)"));
        return;
    }
    if (m_context.guard && m_context.guard->recordLegacyUse(peer, QStringLiteral("psk-header")))
        qCInfo(lcFederation).noquote() << peer << "uses the legacy PSK header (claude-peers 0.7's protocol)";

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
        handshake(request, document.object(), responder);
    else if (request.path == "/federation/peers")
        peers(responder);
    else
        error(responder, 404, QStringLiteral("not found"));
}

void InboundHandler::handshake(const Request &request, const QJsonObject &body, const ResponderPtr &responder)
{
    const QByteArray psk = m_context.psk();
    if (!sameSecret(body.value(QStringLiteral("psk")).toString().toUtf8(), psk)) {
        error(responder, 403, kPskMismatch);
        return;
    }
    const QString hostname = body.value(QStringLiteral("hostname")).toString();
    qCInfo(lcFederation).noquote() << "handshake from" << hostname << "at"
                                   << sourceAddress(request.peerAddress).toString();
    answer(responder, 200,
           {{QStringLiteral("hostname"), m_context.hostname},
            {QStringLiteral("version"), QStringLiteral("1.0.0")}});
    std::optional<int> port;
    const QJsonValue portValue = body.value(QStringLiteral("port"));
    if (portValue.isDouble() && portValue.toInt() > 0 && portValue.toInt() <= 65535)
        port = portValue.toInt();
    if (m_context.onHandshake && !hostname.isEmpty() && !hostname.contains(QLatin1Char(':')) &&
        hostname.size() <= 63)
        m_context.onHandshake(sourceAddress(request.peerAddress), hostname, port);
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

void InboundHandler::refuseRelay(const ResponderPtr &responder, int status, const QJsonObject &object)
{
    ++m_relaysRefused;
    qCInfo(lcFederation).noquote() << "relay refused" << status
                                   << object.value(QStringLiteral("error")).toString();
    answer(responder, status, object);
}

void InboundHandler::relay(const Request &request, const ResponderPtr &responder)
{
    auto verified = RelayCodec::verify(request.body, m_context.psk());
    if (!verified) {
        qCDebug(lcFederation).noquote() << "relay signature:" << verified.error();
        refuseRelay(responder, 403, {{QStringLiteral("error"), QStringLiteral("Invalid HMAC signature")}});
        return;
    }
    const QJsonObject &body = verified->body;
    const QString sender = body.value(QStringLiteral("from_machine")).toString();
    if (verified->hasReplayFields()) {
        if (!verified->toMachine.isEmpty() && verified->toMachine != m_context.hostname) {
            refuseRelay(
                responder, 403,
                {{QStringLiteral("error"), ReplayGuard::refusalMessage(ReplayRefusal::WrongMachine)}});
            return;
        }
        auto admitted = m_context.guard->admit(sender, verified->nonce, *verified->ts);
        if (!admitted) {
            refuseRelay(responder, admitted.error() == ReplayRefusal::Database ? 500 : 403,
                        {{QStringLiteral("error"), ReplayGuard::refusalMessage(admitted.error())}});
            return;
        }
    } else {
        if (!m_context.acceptLegacy || m_context.guard->sendsReplayFields(sender)) {
            refuseRelay(responder, 403,
                        {{QStringLiteral("error"), ReplayGuard::refusalMessage(ReplayRefusal::Required)}});
            return;
        }
        if (m_context.guard->recordLegacyUse(sender, QStringLiteral("relay-without-replay-fields")))
            qCInfo(lcFederation).noquote()
                << sender << "relays without ts/nonce (claude-peers 0.7's protocol)";
    }

    const auto fromId = stringField(body, QStringLiteral("from_id"), false);
    const auto toId = stringField(body, QStringLiteral("to_id"), false);
    const auto text = stringField(body, QStringLiteral("text"), false);
    const auto type = stringField(body, QStringLiteral("type"), true);
    if (!fromId || !toId || !text || !type) {
        const QString name = !fromId ? QStringLiteral("from_id")
            : !toId                  ? QStringLiteral("to_id")
            : !text                  ? QStringLiteral("text")
                                     : QStringLiteral("type");
        refuseRelay(responder, 400, refusal(QStringLiteral("Field \"%1\" must be a string").arg(name)));
        return;
    }
    std::optional<qint64> replyTo;
    const QJsonValue replyValue = body.value(QStringLiteral("reply_to"));
    if (replyValue.isDouble())
        replyTo = qint64(replyValue.toDouble());
    else if (!replyValue.isNull() && !replyValue.isUndefined()) {
        refuseRelay(responder, 400, refusal(QStringLiteral("Field \"reply_to\" must be an integer or null")));
        return;
    }
    QJsonValue metadata = body.value(QStringLiteral("metadata"));
    if (metadata.isUndefined())
        metadata = QJsonValue::Null;
    auto stored = m_context.broker->storeRelayedMessage(
        *fromId, *toId, *text, type->isEmpty() ? QStringLiteral("text") : *type, metadata, replyTo);
    if (!stored) {
        const int status = stored.error().httpStatus ? stored.error().httpStatus : 500;
        refuseRelay(responder, status, refusal(stored.error().message));
        return;
    }
    ++m_relaysAccepted;
    answer(responder, 200, {{QStringLiteral("ok"), true}, {QStringLiteral("message_id"), *stored}});
}

} // namespace Federation
