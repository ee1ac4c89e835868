#pragma once

#include "common/brokerclient.h"
#include "common/controlwire.h"
#include "common/wire.h"

#include <functional>
#include <type_traits>

namespace Broker {

// Typed calls over a BrokerClient: a request struct of wire.h in, its answer struct out.
//   api.call(SendMessageRequest {…}, [](Result<SendMessageAnswer> sent) { … });
// Errors are the client's (ErrorKind::Unreachable, Http with httpStatus, Token, TooLarge), or
// ErrorKind::BadJson for an answer that is not what the route promises. A cheap handle: the
// client must outlive the calls' setup, not the callbacks (which hold nothing of this).
class BrokerApi
{
public:
    template<typename Request> using Done = std::function<void(Result<typename Request::Answer>)>;

    explicit BrokerApi(BrokerClient &client) : m_client(client) { }

    BrokerClient &client() const { return m_client; }

    // POST Request::path with the request's JSON; timeoutMs -1 = the client's default.
    template<typename Request> void call(const Request &request, Done<Request> done, int timeoutMs = -1) const
    {
        const QString path = QLatin1String(Request::path);
        m_client.post(
            path, request.toJson(),
            [path, done = std::move(done)](Result<QJsonValue> answer) {
                done(decode<typename Request::Answer>(path, std::move(answer)));
            },
            timeoutMs);
    }

    // The same on a connection of its own (BrokerClient::postAlone): for a long request; the
    // id cancels it with client().abort(id).
    template<typename Request>
    quint64 callAlone(const Request &request, Done<Request> done, int timeoutMs = -1) const
    {
        const QString path = QLatin1String(Request::path);
        return m_client.postAlone(
            path, request.toJson(),
            [path, done = std::move(done)](Result<QJsonValue> answer) {
                done(decode<typename Request::Answer>(path, std::move(answer)));
            },
            timeoutMs);
    }

    // GET /health and GET /metrics[?detailed=true] (unauthenticated).
    void health(std::function<void(Result<HealthAnswer>)> done, int timeoutMs = -1) const;
    void metrics(bool detailed, std::function<void(Result<MetricsAnswer>)> done, int timeoutMs = -1) const;
    // GET /federation/status (unauthenticated, docs/spec/peers-api.md §3.5).
    void federationStatus(std::function<void(Result<FederationStatusAnswer>)> done, int timeoutMs = -1) const;

    // The typed answer of path from what the client received.
    template<typename Answer> static Result<Answer> decode(const QString &path, Result<QJsonValue> answer)
    {
        if (!answer)
            return std::unexpected(std::move(answer.error()));
        if constexpr (std::is_same_v<Answer, ListPeersAnswer>) {
            if (!answer->isArray())
                return std::unexpected(badAnswer(path, QStringLiteral("not a JSON array")));
            return named(path, Answer::fromJson(answer->toArray()));
        } else {
            if (!answer->isObject())
                return std::unexpected(badAnswer(path, QStringLiteral("not a JSON object")));
            return named(path, Answer::fromJson(answer->toObject()));
        }
    }

private:
    template<typename Answer>
    void get(const QString &path, const QString &query, std::function<void(Result<Answer>)> done,
             int timeoutMs) const
    {
        m_client.get(
            path + query,
            [path, done = std::move(done)](Result<QJsonValue> answer) {
                done(decode<Answer>(path, std::move(answer)));
            },
            timeoutMs);
    }

    // "Bad answer from the broker to <path>: <why>" (ErrorKind::BadJson).
    static Error badAnswer(const QString &path, const QString &why);
    template<typename Answer> static Result<Answer> named(const QString &path, Result<Answer> answer)
    {
        if (!answer)
            return std::unexpected(badAnswer(path, answer.error().message));
        return answer;
    }

    BrokerClient &m_client;
};

} // namespace Broker
