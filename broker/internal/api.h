#pragma once

#include "broker/internal/privateheader.h"

#include "broker/http/httptypes.h"
#include "broker/internal/auth.h"
#include "broker/routes.h"
#include "common/result.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>

#include <optional>

#include <functional>

namespace Broker {

class DeliveryHub;
class FederationLink;
class GroupCommit;
class RateLimiter;
class Service;
class TokenKeeper;
struct SecretsAnswer;
struct SecretsStatus;

// The local HTTP API (docs/spec/peers-api.md §3, docs/protocol.md): the request pipeline of §3.1 and one
// route table: the built-in routes (a static table of handlers) and the modules' routes
// (routes.h), looked up by method and path, all through the same pipeline. Handlers validate
// fields (400 'Field "x" must be …'), call the Service and map its result to the reference's
// answers in one place.
class Api : public QObject, public Http::RequestHandler
{
    Q_OBJECT
public:
    Api(Service &service, Authenticator &auth, RateLimiter &rateLimiter, DeliveryHub &hub,
        FederationLink &federation, GroupCommit &commit, TokenKeeper &tokens, QObject *parent = nullptr);

    void handle(const Http::Request &request, const Http::ResponderPtr &responder) override;

    // A module's route. Refused (code "route") when its method and path are taken, the path
    // is /health or /metrics or does not start with '/', or it has no handler.
    Result<void> addRoute(Route route);
    // The key X-Claude-Peers-PSK must match for RouteAuth::FederationPsk routes. Default: the
    // local token, as in the reference (docs/spec/peers-api.md §4: the PSK is the token file's
    // content). An empty key matches nothing.
    void setFederationKey(std::function<QByteArray()> key) { m_federationKey = std::move(key); }

    // The /health counter: requests of the previous minute (rotated by the host's timer,
    // which also drops old entries of the last_seen write throttle).
    void rotateRequestCounter();
    qint64 requestsLastMinute() const { return m_requestsLastMinute; }

    static QByteArray compact(const QJsonObject &object);

Q_SIGNALS:
    // POST /shutdown was answered.
    void shutdownRequested();
    // POST /reload: the host re-reads token and config before the answer is built.
    void reloadRequested();

private:
    using Call = RouteCall;
    struct BuiltInRoute
    {
        QByteArrayView path;
        void (Api::*handler)(Call &);
        RouteAuth auth;
        bool rateLimited;
    };
    static const BuiltInRoute s_builtInRoutes[];

    const Route *findRoute(const QByteArray &method, const QByteArray &path) const;
    bool authenticate(const Route *route, const Http::Request &request, const Http::ResponderPtr &responder,
                      Credential &credential) const;
    void route(const Http::Request &request, const Http::ResponderPtr &responder);

    // Unauthenticated GETs
    void health(const Http::ResponderPtr &responder);
    static QStringList capabilities();
    void metrics(const Http::Request &request, const Http::ResponderPtr &responder);

    // Peers (apipeers.cpp)
    void registerPeer(Call &call);
    void heartbeat(Call &call);
    void setSummary(Call &call);
    void setName(Call &call);
    void setChannelPush(Call &call);
    void setAttention(Call &call);
    void listPeers(Call &call);
    void unregisterPeer(Call &call);

    // Messages (apimessages.cpp)
    void sendMessage(Call &call);
    void broadcast(Call &call);
    void pollMessages(Call &call);
    void ackMessages(Call &call);
    void messageStatus(Call &call);
    void waitMessages(Call &call);
    void history(Call &call);

    // Admin and federation (apiadmin.cpp)
    void shutdown(Call &call);
    void reload(Call &call);
    void secrets(Call &call);
    void rotateToken(Call &call);
    static SecretsAnswer secretsAnswer(const SecretsStatus &status);
    void federationConnect(Call &call);
    void federationDisconnect(Call &call);
    void federationSendToRemote(Call &call);

    // Answers
    static void reply(const Http::ResponderPtr &responder, int status, const QByteArray &json);
    static void replyObject(const Http::ResponderPtr &responder, const QJsonObject &object, int status = 200);
    static void replyOk(const Http::ResponderPtr &responder);
    // httpStatus set → that status + {"error"}; a rule of the reference (httpStatus 0,
    // code "rejected") → 200 {"ok":false,"error"}; anything else (database) → 500.
    static void replyError(const Http::ResponderPtr &responder, const Error &error);
    static void replyFederationResult(const Http::ResponderPtr &responder, const Result<QJsonObject> &result);

    // The call's body as the route's typed request (wire.h); nothing after answering the
    // body's error (400 with the reference's text).
    // (Several requests share one body type, e.g. PeerIdBody.)
    template<typename Request,
             typename Body = typename decltype(Request::fromJson(QJsonObject {}))::value_type>
    static std::optional<Body> parsed(const Call &call)
    {
        auto request = Request::fromJson(call.body);
        if (!request) {
            replyError(call.responder, request.error());
            return std::nullopt;
        }
        return std::move(*request);
    }

    // The credential may act as the peer named in the body.
    bool checkBinding(Call &call) const;
    // An Idempotency-Key (RequestKey): false when answered already (the first answer again,
    // or a malformed key); else the call's responder records its answer under the key.
    bool keyRequest(Call &call);
    void touchActor(const QString &peerId);
    // The wait's heartbeat: false if the peer is not registered. A peer seen registered less
    // than a second ago is not written again (its row can only go through Service, which
    // tells us by peerRemoved; another process deleting it is noticed within a second).
    Result<bool> touchWaiter(const QString &peerId);

    Service &m_service;
    Authenticator &m_auth;
    RateLimiter &m_rateLimiter;
    DeliveryHub &m_hub;
    FederationLink &m_federation;
    GroupCommit &m_commit;
    TokenKeeper &m_tokens;
    QList<Route> m_routes; // the built-in ones first
    std::function<QByteArray()> m_federationKey;
    QElapsedTimer m_uptime;
    qint64 m_requestsThisMinute = 0;
    qint64 m_requestsLastMinute = 0;
    QHash<QString, qint64> m_lastTouchMs; // implicit heartbeats: at most one write per second
    QHash<QString, qint64> m_lastWaitTouchMs; // waiters known registered at that time
};

} // namespace Broker
