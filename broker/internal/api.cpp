#include "broker/internal/api.h"
#include "broker/brokerlogging.h"
#include "broker/clock.h"
#include "broker/federationlink.h"
#include "broker/internal/deliveryhub.h"
#include "broker/internal/groupcommit.h"
#include "broker/internal/ratelimiter.h"
#include "broker/internal/requestkey.h"
#include "broker/internal/service.h"
#include "broker/internal/store.h"
#include "common/wire.h"

#include "broker/internal/jsonbody.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace Broker {

// One static table: no dispatch by names built at run time. Every built-in route is a POST.
const Api::BuiltInRoute Api::s_builtInRoutes[] = {
    {"/register", &Api::registerPeer, RouteAuth::MainToken, false},
    {"/heartbeat", &Api::heartbeat, RouteAuth::Session, false},
    {"/set-summary", &Api::setSummary, RouteAuth::Session, false},
    {"/set-name", &Api::setName, RouteAuth::Session, false},
    {"/set-channel-push", &Api::setChannelPush, RouteAuth::Session, false},
    {"/set-attention", &Api::setAttention, RouteAuth::Session, false},
    {"/list-peers", &Api::listPeers, RouteAuth::Session, false},
    {"/send-message", &Api::sendMessage, RouteAuth::Session, true},
    {"/broadcast", &Api::broadcast, RouteAuth::Session, true},
    {"/poll-messages", &Api::pollMessages, RouteAuth::Session, false},
    {"/ack-messages", &Api::ackMessages, RouteAuth::Session, false},
    {"/message-status", &Api::messageStatus, RouteAuth::Session, false},
    {"/unregister", &Api::unregisterPeer, RouteAuth::Session, false},
    {"/wait-messages", &Api::waitMessages, RouteAuth::Session, false},
    {"/messages", &Api::history, RouteAuth::MainToken, false},
    {"/shutdown", &Api::shutdown, RouteAuth::MainToken, false},
    {"/reload", &Api::reload, RouteAuth::MainToken, false},
    {"/secrets", &Api::secrets, RouteAuth::MainToken, false},
    {"/rotate-token", &Api::rotateToken, RouteAuth::MainToken, false},
    {"/federation/connect", &Api::federationConnect, RouteAuth::MainToken, false},
    {"/federation/disconnect", &Api::federationDisconnect, RouteAuth::MainToken, false},
    // A helper relays its own messages with its session credential (bound by from_id).
    {"/federation/send-to-remote", &Api::federationSendToRemote, RouteAuth::Session, false},
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
    for (const BuiltInRoute &builtIn : s_builtInRoutes) {
        m_routes.append({"POST", builtIn.path.toByteArray(), builtIn.auth, builtIn.rateLimited, -1,
                         [this, handler = builtIn.handler](Call &call) { (this->*handler)(call); }});
    }
    m_federationKey = [this] { return m_auth.token(); };
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

Result<void> Api::addRoute(Route route)
{
    const QString name =
        QStringLiteral("%1 %2").arg(QString::fromUtf8(route.method), QString::fromUtf8(route.path));
    if (!route.handler || route.method.isEmpty() || !route.path.startsWith('/'))
        return fail(
            ErrorKind::Route,
            QStringLiteral("the route %1 needs a method, a path starting with / and a handler").arg(name));
    if (route.path == "/health" || route.path == "/metrics" || findRoute(route.method, route.path))
        return fail(ErrorKind::Route, QStringLiteral("%1 is already served by the broker").arg(name));
    m_routes.append(std::move(route));
    return {};
}

const Route *Api::findRoute(const QByteArray &method, const QByteArray &path) const
{
    for (const Route &candidate : m_routes) {
        if (candidate.path == path && candidate.method == method)
            return &candidate;
    }
    return nullptr;
}

bool Api::authenticate(const Route *route, const Http::Request &request, const Http::ResponderPtr &responder,
                       Credential &credential) const
{
    // Without a route, a POST is asked for the bearer credential before its 404 (as the
    // reference), other methods for nothing.
    const RouteAuth auth = route   ? route->auth
        : request.method == "POST" ? RouteAuth::Session
                                   : RouteAuth::None;
    switch (auth) {
    case RouteAuth::None:
        return true;
    case RouteAuth::MainToken:
    case RouteAuth::Session:
        credential = m_auth.resolve(request.header("authorization"));
        if (!credential.isValid()) {
            reply(responder, 401, QByteArrayLiteral("{\"error\":\"Unauthorized\"}"));
            return false;
        }
        return true;
    case RouteAuth::FederationPsk: {
        const QByteArray key = m_federationKey();
        if (key.isEmpty() || !Authenticator::constantTimeEquals(request.header("x-claude-peers-psk"), key)) {
            // The reference's answer (docs/spec/peers-api.md §4.1), word for word.
            replyObject(responder,
                        {{QStringLiteral("error"),
                          QStringLiteral("PSK mismatch \u2014 ensure both machines share the same "
                                         "~/.claude-peers-token file")}},
                        403);
            return false;
        }
        credential.kind = Credential::Kind::Federation;
        return true;
    }
    }
    return false;
}

void Api::route(const Http::Request &request, const Http::ResponderPtr &responder)
{
    // docs/spec/peers-api.md §3.1, in its order.
    ++m_requestsThisMinute;
    if (request.path == "/health") {
        health(responder);
        return;
    }
    if (request.path == "/metrics") {
        metrics(request, responder);
        return;
    }
    const Route *route = findRoute(request.method, request.path);
    Credential credential;
    if (!authenticate(route, request, responder, credential))
        return;
    const bool isPost = request.method == "POST";
    if (!route) {
        if (isPost)
            reply(responder, 404, QByteArrayLiteral("{\"error\":\"not found\"}"));
        else if (request.method == "GET" && request.path == "/federation/status")
            replyObject(responder, m_federation.status());
        else
            responder->respond(Http::Response::text(200, QByteArrayLiteral("claude-peers broker")));
        return;
    }
    if (route->maxBodyBytes >= 0 && request.body.size() > route->maxBodyBytes) {
        replyObject(responder,
                    {{QStringLiteral("error"),
                      QStringLiteral("Request body too large (limit %1 bytes)").arg(route->maxBodyBytes)}},
                    413);
        return;
    }
    QJsonObject body;
    if (isPost) {
        auto parsed = parseJsonBody(request.body);
        if (!parsed) {
            replyError(responder, parsed.error());
            return;
        }
        body = std::move(*parsed);
    }
    m_commit.open();
    Call call {request, responder, std::move(body), credential};
    if (credential.kind == Credential::Kind::Session) {
        if (route->auth == RouteAuth::MainToken) {
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
    if (RequestKey::appliesTo(request.path) && !keyRequest(call))
        return;
    if (route->rateLimited) {
        // Per sending peer (reference: one bucket for every local client, docs/spec/peers-api.md §13.1 #13).
        const QString key = credential.kind == Credential::Kind::Session
            ? credential.peerId
            : call.body.value(QStringLiteral("from_id")).toString();
        if (!m_rateLimiter.allow(key, m_service.clock().msecsSinceEpoch())) {
            qCInfo(lcApi).noquote() << "Rate limited" << key << "on" << request.path;
            reply(responder, 429, QByteArrayLiteral("{\"error\":\"Rate limited\"}"));
            return;
        }
    }
    route->handler(call);
}

bool Api::keyRequest(Call &call)
{
    const QByteArray header = call.request.header(RequestKey::headerName);
    if (header.isNull())
        return true; // a 0.7 client: as before
    auto key = RequestKey::validated(header);
    if (!key) {
        replyError(call.responder, key.error());
        return false;
    }
    const QString sender = call.credential.kind == Credential::Kind::Session
        ? call.credential.peerId
        : call.body.value(QStringLiteral("from_id")).toString();
    auto answered = m_service.store().keyedAnswer(sender, *key);
    if (!answered) {
        replyError(call.responder, answered.error());
        return false;
    }
    if (*answered) {
        qCInfo(lcApi).noquote() << "Re-sent" << call.request.path << "from" << sender
                                << "(same Idempotency-Key): answered as the first time, not stored again";
        call.responder->respond(RequestKey::replay(**answered, *key));
        return false;
    }
    call.responder =
        RequestKey::recording(call.responder, m_service.store(), m_service.clock(), sender, *key);
    return true;
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
    return {QStringLiteral("wait-messages"),  QStringLiteral("wait-after-id"),
            QStringLiteral("session-secret"), QStringLiteral("database-id"),
            QStringLiteral("attention"),      QStringLiteral("idempotency-key")};
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
