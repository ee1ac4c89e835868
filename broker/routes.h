#pragma once

#include "broker/credential.h"
#include "broker/http/httptypes.h"

#include <QByteArray>
#include <QJsonObject>

#include <functional>

namespace Broker {

// Who may call a route. Every route, built-in or a module's, goes through the same pipeline
// (docs/spec/peers-api.md §3.1): authentication, the server's body limit (413), the route's own body limit
// (413), JSON validation of a POST body (400), the main-token and peer-binding checks (403),
// the per-peer rate limit (429), then the handler.
enum class RouteAuth {
    None, // anyone on the loopback interface (no credential asked)
    MainToken, // "Authorization: Bearer <local token>"; 401 without it, 403 for a session secret
    Session, // the main token, or a session secret acting only as its peer ("id"/"from_id" bound)
    FederationPsk, // "X-Claude-Peers-PSK: <federation key>"; 403 with the reference's text otherwise
};

// One request on its way through a handler.
struct RouteCall
{
    const Http::Request &request; // method, path, query, headers, raw body
    Http::ResponderPtr responder; // answer exactly once, now or later (it may be kept)
    QJsonObject body; // the parsed JSON body of a POST ({} when empty); {} for other methods
    Credential credential; // who called, as the route's auth kind admitted them
};

// A handler answers through call.responder, at once or later on the broker's thread (a long
// poll, a federation round trip); an answer after the client left is a no-op. It must not
// throw. The answers of one event-loop pass wait for the commit of the writes made in it.
using RouteHandler = std::function<void(RouteCall &call)>;

struct Route
{
    QByteArray method = "POST";
    QByteArray path; // exact, e.g. "/openchamber/sessions"; no query
    RouteAuth auth = RouteAuth::Session;
    bool rateLimited = false; // counts against the caller's per-minute limit (session or from_id)
    qsizetype maxBodyBytes = -1; // below the server's limit: 413 past it; -1: the server's limit
    RouteHandler handler;
};

// Answers a module's handler may need, shaped as the built-in routes answer.
namespace RouteAnswer {
void json(const Http::ResponderPtr &responder, const QJsonObject &object, int status = 200);
void error(const Http::ResponderPtr &responder, int status, const QString &message); // {"error":…}
} // namespace RouteAnswer

} // namespace Broker
