#pragma once

#include "common/location.h"
#include "common/result.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace Broker {

// The one HTTP client of the local broker, used by the helper, the CLI, the tray and the tests.
// Every call ends in exactly one callback, from the event loop (never inside post()/get()), so a
// callback may delete the client. Destroying the client, or abortAll(), drops pending requests
// without calling their callbacks.
//
// Transport: plain keep-alive TCP connections to 127.0.0.1 (a non-blocking POSIX socket with
// QSocketNotifiers, Qt Core only): one for the push stream's long-poll (/wait-messages), one for
// everything else, each carrying one request at a time, in order. Every request has a deadline
// (timeoutMs, default 5000; it covers queueing too) and answers are capped (16 MiB by default).
// Why not QNetworkAccessManager: an idle helper's only work is a few periodic requests, and
// QNAM's per-request cost (a worker thread, queued events, headers read byte by byte) made
// that about 1.2 CPU-s/h in our measurement against a target of 0.2, and it added latency on
// the push path (docs/mcp-helper.md, "Figures"; docs/decisions.md for what a port would swap).
//
// Credentials: POSTs carry the session secret when one is set (except /register), else the main
// token from the token file. Without a token the request goes out unauthenticated (so a stopped
// broker still reads as "unreachable"). A 401 with the main token re-reads the token file and
// retries once when it changed (rotation); reports "token" when the file is missing.
//
// Error codes: "unreachable" (refused, reset, timed out; the message says the broker is not
// reachable and how to start it), "http" (non-2xx; httpStatus set; message
// "Broker error (<path>): <status> <body>" as docs/spec/peers-api.md §7.12), "bad_json" (answer not JSON),
// "token" (token file missing or unreadable), "too_large" (answer larger than maxAnswerBytes()).
class BrokerClient : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(Result<QJsonValue>)>;

    static constexpr qint64 DefaultMaxAnswerBytes = 16 * 1024 * 1024;

    explicit BrokerClient(Location location, QObject *parent = nullptr);
    ~BrokerClient() override; // pending callbacks are dropped, not called

    const Location &location() const { return m_location; }

    // Requests other than /register authenticate with it when set (docs/protocol.md).
    void setSessionSecret(const QByteArray &secret) { m_sessionSecret = secret; }
    QByteArray sessionSecret() const { return m_sessionSecret; }
    // The main token to use instead of reading the token file, until a 401 makes the client read
    // the file again (rotate-token authenticates its /reload with the old token).
    void setToken(const QByteArray &token) { m_token = token; }
    void setDefaultTimeoutMs(int ms) { m_defaultTimeoutMs = ms > 0 ? ms : 5000; }
    int defaultTimeoutMs() const { return m_defaultTimeoutMs; }
    void setMaxAnswerBytes(qint64 bytes) { m_maxAnswerBytes = bytes > 0 ? bytes : DefaultMaxAnswerBytes; }
    qint64 maxAnswerBytes() const { return m_maxAnswerBytes; }

    // POST JSON with the bearer credential.
    void post(const QString &path, const QJsonObject &body, Callback callback, int timeoutMs = -1);
    // Unauthenticated GET (/health, /metrics, /federation/status); the path may carry a query.
    void get(const QString &pathAndQuery, Callback callback, int timeoutMs = -1);

    // POST on a connection of its own, opened for this request and closed after its answer: for
    // a request that may take minutes (/control with a wait, /agent-tool), which then holds up
    // no other request. Returns the request's id for abort().
    quint64 postAlone(const QString &path, const QJsonObject &body, Callback callback, int timeoutMs = -1);
    // Drops a postAlone() request without calling its callback and closes its connection, so
    // that the broker sees the client leave (and cancels what it was doing for it). An id that
    // already answered: nothing happens.
    void abort(quint64 requestId);

    // Drops every pending request; their callbacks are not called.
    void abortAll();
    int pendingCount() const;

    // "Broker not reachable at <url>. Is it running? Start it with ..." for this location.
    QString unreachableMessage() const;

Q_SIGNALS:
    // A request made with the session secret was refused (401): the broker no longer knows
    // this session (restarted with a fresh database, secret voided). Register again.
    void sessionRejected(const QString &path);
    // A request found no broker (refused, closed, timed out).
    void unreachable(const QString &path);

private:
    class Connection;
    struct Request;
    friend class Connection;

    void enqueue(std::shared_ptr<Request> request);
    Connection *connectionFor(const QString &path);
    // Turns an HTTP answer into the callback's value; may re-send the request (401 retry).
    void finish(const std::shared_ptr<Request> &request, int status, const QByteArray &body);
    void fail(const std::shared_ptr<Request> &request, Error error);
    QByteArray mainToken();
    void release(Connection *connection);

    Location m_location;
    QByteArray m_sessionSecret;
    QByteArray m_token; // cached main token; empty = read the file on next use
    int m_defaultTimeoutMs = 5000;
    qint64 m_maxAnswerBytes = DefaultMaxAnswerBytes;
    quint64 m_generation = 0; // bumped by abortAll(): queued failures of older requests are dropped
    Connection *m_stream;
    Connection *m_control;
    QHash<quint64, Connection *> m_alone; // postAlone() requests in flight, by id
    quint64 m_lastAloneId = 0;
    // The broker echoed an Idempotency-Key: a send closed before its answer may go again.
    bool m_keysHonoured = false;
};

} // namespace Broker
