#pragma once

#include "location.h"
#include "result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QString>

#include <functional>

namespace Mcp {

// The helper's HTTP client for the local broker: the same calls, credentials and error values
// as Broker::BrokerClient (codes "unreachable", "http" with "Broker error (<path>): <status>
// <body>", "bad_json", "token", "too_large"; 401 with the main token → token file read again
// and the request retried once), but on plain keep-alive QTcpSocket connections in the main
// thread: one connection for the push stream's long-poll, one for everything else.
//
// Why not QNetworkAccessManager (what BrokerClient uses): an idle helper's only work is a few
// periodic requests, and QNAM's per-request cost (a worker thread, queued events, headers read
// byte by byte) made that about 1.2 CPU-s/h in our measurement against a target of 0.2, and
// it adds latency on the push path. See docs/mcp-helper.md, "Figures".
class BrokerLink : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(Broker::Result<QJsonValue>)>;

    static constexpr qint64 MaxAnswerBytes = 16 * 1024 * 1024;

    explicit BrokerLink(Broker::Location location, QObject *parent = nullptr);
    ~BrokerLink() override; // pending callbacks are dropped, not called

    const Broker::Location &location() const { return m_location; }
    // Requests other than /register authenticate with it when set (docs/protocol.md).
    void setSessionSecret(const QByteArray &secret) { m_sessionSecret = secret; }
    QByteArray sessionSecret() const { return m_sessionSecret; }
    void setDefaultTimeoutMs(int ms) { m_defaultTimeoutMs = ms > 0 ? ms : 5000; }

    // Exactly one callback per call, never from inside the call.
    void post(const QString &path, const QJsonObject &body, Callback callback, int timeoutMs = -1);
    void get(const QString &path, Callback callback, int timeoutMs = -1);

    QString unreachableMessage() const;
    int pendingCount() const;

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
    void fail(const std::shared_ptr<Request> &request, Broker::Error error);
    QByteArray mainToken();

    Broker::Location m_location;
    QByteArray m_sessionSecret;
    QByteArray m_token; // cached main token; empty = read the file on next use
    int m_defaultTimeoutMs = 5000;
    Connection *m_stream;
    Connection *m_control;
};

} // namespace Mcp
