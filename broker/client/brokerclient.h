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
// and the tests. Every call ends in exactly one callback; nothing blocks.
//
// Error codes: "unreachable" (refused, reset, timed out; message says the broker is not
// reachable at <url>), "http" (non-2xx; httpStatus set; message
// "Broker error (<path>): <status> <body>" as reference §7.12), "bad_json" (answer not JSON),
// "token" (token file missing/unreadable).
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
