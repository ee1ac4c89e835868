#include "api.h"
#include "clock.h"
#include "deliveryhub.h"
#include "federationlink.h"
#include "groupcommit.h"
#include "logging.h"
#include "ratelimiter.h"
#include "service.h"
#include "store.h"
#include "wire.h"

#include "jsonbody.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace Broker {

// One static table: no dispatch by names built at run time.
const Api::Route Api::s_routes[] = {
    {"/register", &Api::registerPeer, Access::MainTokenOnly, false},
    {"/heartbeat", &Api::heartbeat, Access::Peer, false},
    {"/set-summary", &Api::setSummary, Access::Peer, false},
    {"/set-name", &Api::setName, Access::Peer, false},
    {"/set-channel-push", &Api::setChannelPush, Access::Peer, false},
    {"/list-peers", &Api::listPeers, Access::Peer, false},
    {"/send-message", &Api::sendMessage, Access::Peer, true},
    {"/broadcast", &Api::broadcast, Access::Peer, true},
    {"/poll-messages", &Api::pollMessages, Access::Peer, false},
    {"/ack-messages", &Api::ackMessages, Access::Peer, false},
    {"/message-status", &Api::messageStatus, Access::Peer, false},
    {"/unregister", &Api::unregisterPeer, Access::Peer, false},
    {"/wait-messages", &Api::waitMessages, Access::Peer, false},
    {"/messages", &Api::history, Access::MainTokenOnly, false},
    {"/shutdown", &Api::shutdown, Access::MainTokenOnly, false},
    {"/reload", &Api::reload, Access::MainTokenOnly, false},
    {"/secrets", &Api::secrets, Access::MainTokenOnly, false},
    {"/rotate-token", &Api::rotateToken, Access::MainTokenOnly, false},
    {"/federation/connect", &Api::federationConnect, Access::MainTokenOnly, false},
    {"/federation/disconnect", &Api::federationDisconnect, Access::MainTokenOnly, false},
    // A helper relays its own messages with its session credential (bound by from_id).
    {"/federation/send-to-remote", &Api::federationSendToRemote, Access::Peer, false},
};

Api::Api(Service &service, Authenticator &auth, RateLimiter &rateLimiter, DeliveryHub &hub,
         FederationLink &federation, GroupCommit &commit, TokenKeeper &tokens, QObject *parent)
    : QObject(parent),
      m_service(service),
      m_auth(auth),
      m_rateLimiter(rateLimiter),
      m_hub(hub),
      m_federation(federation),
      m_commit(commit),
      m_tokens(tokens)
{
    m_uptime.start();
    connect(&m_service, &Service::peerRemoved, this,
            [this](const QString &peerId) { m_lastWaitTouchMs.remove(peerId); });
}

QByteArray Api::compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

void Api::reply(const Http::ResponderPtr &responder, int status, const QByteArray &json)
{
    responder->respond(Http::Response::json(status, json));
}

void Api::replyObject(const Http::ResponderPtr &responder, const QJsonObject &object, int status)
{
    reply(responder, status, compact(object));
}

void Api::replyOk(const Http::ResponderPtr &responder)
{
    reply(responder, 200, QByteArrayLiteral("{\"ok\":true}"));
}

void Api::replyError(const Http::ResponderPtr &responder, const Error &error)
{
    if (error.httpStatus > 0) {
        replyObject(responder, {{QStringLiteral("error"), error.message}}, error.httpStatus);
    } else if (error.kind == ErrorKind::Rejected) {
        replyObject(responder, {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error.message}});
    } else {
        qCWarning(lcApi).noquote() << "Internal error:" << error.code() << error.message;
        replyObject(responder, {{QStringLiteral("error"), error.message}}, 500);
    }
}

void Api::replyFederationResult(const Http::ResponderPtr &responder, const Result<QJsonObject> &result)
{
    const FederationAnswer answer =
        result ? FederationAnswer {true, {}, *result} : FederationAnswer {false, result.error().message, {}};
    replyObject(responder, answer.toJson());
}

void Api::rotateRequestCounter()
{
    m_requestsLastMinute = m_requestsThisMinute;
    m_requestsThisMinute = 0;
    m_lastTouchMs.clear();
    m_lastWaitTouchMs.clear();
}

void Api::handle(const Http::Request &request, const Http::ResponderPtr &directResponder)
{
    // Every answer waits for the commit of the writes made in this event-loop pass.
    route(request, m_commit.wrap(directResponder));
    // A pass of pipelined requests with large answers must not pile them all up in memory.
    m_commit.flushIfHeavy();
}

void Api::route(const Http::Request &request, const Http::ResponderPtr &responder)
{
    // Reference §3.1, in its order.
    ++m_requestsThisMinute;
    if (request.path == "/health") {
        health(responder);
        return;
    }
    if (request.path == "/metrics") {
        metrics(request, responder);
        return;
    }
    const bool isPost = request.method == "POST";
    Credential credential;
    if (isPost) {
        credential = m_auth.resolve(request.header("authorization"));
        if (!credential.isValid()) {
            reply(responder, 401, QByteArrayLiteral("{\"error\":\"Unauthorized\"}"));
            return;
        }
    }
    if (!isPost) {
        if (request.method == "GET" && request.path == "/federation/status") {
            replyObject(responder, m_federation.status());
            return;
        }
        responder->respond(Http::Response::text(200, QByteArrayLiteral("claude-peers broker")));
        return;
    }

    const Route *route = nullptr;
    for (const Route &candidate : s_routes) {
        if (candidate.path == QByteArrayView(request.path)) {
            route = &candidate;
            break;
        }
    }
    if (!route) {
        reply(responder, 404, QByteArrayLiteral("{\"error\":\"not found\"}"));
        return;
    }
    auto body = parseJsonBody(request.body);
    if (!body) {
        replyError(responder, body.error());
        return;
    }
    m_commit.open();
    Call call {request, responder, std::move(*body), credential};
    if (!credential.isMain()) {
        if (route->access == Access::MainTokenOnly) {
            replyObject(
                responder,
                {{QStringLiteral("error"),
                  QStringLiteral("Forbidden: %1 needs the main token").arg(QString::fromUtf8(request.path))}},
                403);
            return;
        }
        if (!checkBinding(call))
            return;
    }
    if (route->rateLimited) {
        // Per sending peer (reference: one bucket for every local client, §13.1 #13).
        const QString key =
            credential.isMain() ? call.body.value(QStringLiteral("from_id")).toString() : credential.peerId;
        if (!m_rateLimiter.allow(key, m_service.clock().msecsSinceEpoch())) {
            qCInfo(lcApi).noquote() << "Rate limited" << key << "on" << request.path;
            reply(responder, 429, QByteArrayLiteral("{\"error\":\"Rate limited\"}"));
            return;
        }
    }
    (this->*route->handler)(call);
}

bool Api::checkBinding(Call &call) const
{
    for (const char *field : {"id", "from_id"}) {
        const QJsonValue value = call.body.value(QLatin1String(field));
        if (value.isString() && value.toString() != call.credential.peerId) {
            replyObject(call.responder,
                        {{QStringLiteral("error"),
                          QStringLiteral("Forbidden: this session credential may only act as peer %1")
                              .arg(call.credential.peerId)}},
                        403);
            return false;
        }
    }
    return true;
}

void Api::touchActor(const QString &peerId)
{
    // A send or set-* also proves the peer is alive, but a write per request would double the
    // cost of a send; once a second is plenty against a timeout of a minute.
    const qint64 now = m_service.clock().msecsSinceEpoch();
    auto it = m_lastTouchMs.find(peerId);
    if (it != m_lastTouchMs.end() && now - *it >= 0 && now - *it < 1000)
        return;
    m_lastTouchMs.insert(peerId, now);
    if (auto touched = m_service.touch(peerId); !touched)
        qCWarning(lcApi).noquote() << "Cannot update last_seen of" << peerId << ":"
                                   << touched.error().message;
}

Result<bool> Api::touchWaiter(const QString &peerId)
{
    const qint64 now = m_service.clock().msecsSinceEpoch();
    auto it = m_lastWaitTouchMs.find(peerId);
    if (it != m_lastWaitTouchMs.end() && now - *it >= 0 && now - *it < 1000)
        return true;
    auto known = m_service.touch(peerId);
    if (known && *known)
        m_lastWaitTouchMs.insert(peerId, now);
    else
        m_lastWaitTouchMs.remove(peerId);
    return known;
}

void Api::health(const Http::ResponderPtr &responder)
{
    auto counts = m_service.store().counts();
    if (!counts) {
        replyError(responder, counts.error());
        return;
    }
    HealthAnswer answer;
    answer.status = QStringLiteral("ok");
    answer.peers = counts->peers;
    answer.uptimeMs = m_uptime.elapsed();
    answer.requestsLastMinute = m_requestsLastMinute;
    answer.pendingMessages = counts->pending;
    answer.pid = QCoreApplication::applicationPid();
    answer.version = QStringLiteral(PEERS_VERSION);
    answer.databaseId = m_service.store().databaseId();
    answer.capabilities = capabilities();
    replyObject(responder, answer.toJson());
}

QStringList Api::capabilities()
{
    // What a helper may use beyond the reference (docs/protocol.md); a 0.7 broker has no list.
    return {QStringLiteral("wait-messages"), QStringLiteral("wait-after-id"),
            QStringLiteral("session-secret"), QStringLiteral("database-id")};
}

void Api::metrics(const Http::Request &request, const Http::ResponderPtr &responder)
{
    auto counts = m_service.store().counts();
    if (!counts) {
        replyError(responder, counts.error());
        return;
    }
    const QJsonObject federationStatus = m_federation.status();
    MetricsAnswer answer;
    answer.uptimeSeconds = m_uptime.elapsed() / 1000;
    answer.peerCount = counts->peers;
    answer.messages.total = counts->messages;
    answer.messages.delivered = counts->delivered;
    answer.messages.pending = counts->pending;
    answer.messages.deliveryRatePct = counts->messages == 0
        ? 100.0
        : std::round(double(counts->delivered) / double(counts->messages) * 100.0 * 100.0) / 100.0;
    answer.requestsPerMinute = m_requestsLastMinute;
    answer.federation.enabled = m_federation.isEnabled();
    answer.federation.remoteCount = federationStatus.value(QStringLiteral("remotes")).toArray().size();
    answer.federation.remotePeerCount =
        federationStatus.value(QStringLiteral("total_remote_peers")).toInteger();
    if (request.queryItem("detailed") == "true") {
        auto peers = m_service.store().peers();
        if (!peers) {
            replyError(responder, peers.error());
            return;
        }
        QList<MetricsAnswer::PeerRow> rows;
        for (const Peer &peer : std::as_const(*peers))
            rows.append(
                {peer.id, peer.displayName(), peer.cwd, peer.channelPush, peer.registeredAt, peer.lastSeen});
        answer.peers = rows;
    }
    replyObject(responder, answer.toJson());
}

} // namespace Broker
