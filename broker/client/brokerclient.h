#pragma once

#include "location.h"
#include "result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>

#include <functional>

class QNetworkAccessManager;

namespace Broker {

// Asynchronous client of the local broker's HTTP API, shared by the helper, the CLI, the tray
// and the tests. Every call ends in exactly one callback; nothing blocks. Callbacks run from the
// event loop (never inside post()/get()), so a callback may delete the client. One
// QNetworkAccessManager per client: loopback HTTP/1.1 keep-alive, no proxy, no HTTP/2. Every
// request has a deadline (timeoutMs, default 5000) and answers are capped (16 MiB default).
//
// Error codes: "unreachable" (refused, reset, timed out; message says the broker is not
// reachable at <url>), "http" (non-2xx; httpStatus set; message
// "Broker error (<path>): <status> <body>" as reference §7.12), "bad_json" (answer not JSON),
// "token" (token file missing/unreadable), "too_large" (answer larger than maxAnswerBytes()).
//
// Without a token the request goes out unauthenticated (so a stopped broker still reads as
// "unreachable"); a 401 then re-reads the file and reports "token" if it is still missing.
// Destroying the client, or abortAll(), drops pending requests without calling their callbacks.
class BrokerClient : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(Result<QJsonValue>)>;

    explicit BrokerClient(Location location, QObject *parent = nullptr);
    ~BrokerClient() override;

    const Location &location() const;

    // When set, requests other than /register authenticate with this session secret instead
    // of the main token (docs/protocol.md).
    void setSessionSecret(const QByteArray &secret);
    void setDefaultTimeoutMs(int ms); // default 5000

    // Additions (keep additive): the main token to use instead of reading the token file, until
    // a 401 makes the client read the file again (rotate-token authenticates its /reload with
    // the old token after writing the new file).
    void setToken(const QByteArray &token);
    QByteArray sessionSecret() const;
    int defaultTimeoutMs() const;
    static constexpr qint64 DefaultMaxAnswerBytes = 16 * 1024 * 1024;
    void setMaxAnswerBytes(qint64 bytes);
    qint64 maxAnswerBytes() const;
    // "Broker not reachable at <url>. Is it running? Start it with ..." for this location.
    QString unreachableMessage() const;
    // Drops every pending request; their callbacks are not called.
    void abortAll();
    int pendingCount() const;

    // POST JSON with the bearer credential. On 401 the token file is read again and the
    // request retried once (handles rotation).
    void post(const QString &path, const QJsonObject &body, Callback callback, int timeoutMs = -1);
    // Unauthenticated GET (/health, /metrics, /federation/status).
    void get(const QString &pathAndQuery, Callback callback, int timeoutMs = -1);

private:
    class Private;
    Private *d;
};

} // namespace Broker
