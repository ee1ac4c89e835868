#pragma once

#include "broker/http/httptypes.h"
#include "broker/routes.h"
#include "common/result.h"
#include "federation/linktransport.h"
#include "federation/pairingcode.h"
#include "federation/pendingrequests.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

namespace Broker {
class Clock;
}

namespace Federation {

class PinnedTlsClient;

// Pairing by a one-time code with a short authentication string (issue #9; protocol in
// docs/protocol.md "Pairing", reasons in docs/decisions.md "Pairing by code").
//   Machine A (issuer): /federation/pair-code makes a code; another machine proving it on the
//   federation port (/federation/pair/request, before any PSK check) becomes a pending request;
//   /federation/accept pins it, and its /federation/pair/collect then gets A's PSK, sealed
//   under the code's key, over TLS pinned on A's key.
//   Machine B (joiner): /federation/pair probes A's key (trust on first use, nothing secret
//   sent), proves the code bound to both keys, checks A's proof, and shows the six digits;
//   /federation/pair/confirm (after the user compared them) waits for A's accept, keeps the
//   PSK, pins A and connects.
class Pairing final : public QObject
{
    Q_OBJECT
public:
    struct Hooks
    {
        std::function<QString()> ownPin;
        std::function<QString()> hostname;
        std::function<int()> federationPort; // ours, told to the other side
        std::function<QString()> dialAddress; // where another machine reaches us (LAN address)
        std::function<QByteArray()> psk;
        std::function<bool()> pskIsTokenCopy;
        std::function<void(const QByteArray &psk, std::function<void(Broker::Result<void>)> done)> replacePsk;
        std::function<QString(const RemoteAddress &)> pinFor;
        std::function<Broker::Result<void>(const RemoteAddress &, const QString &pin)> setPin;
        std::function<void(const RemoteAddress &, std::function<void(Broker::Result<QJsonObject>)>)> connect;
        // The user accepted or rejected a request (the audit trail); may be empty.
        std::function<void(const PendingRequest &request)> decided;
        const Broker::Clock *clock = nullptr;
    };

    static constexpr qsizetype kMaxInboundBodyBytes = 4096;
    static constexpr int kMaxWaitMs = 60'000; // one /federation/pair/confirm call
    static constexpr int kCollectIntervalMs = 1000;

    explicit Pairing(Hooks hooks, QObject *parent = nullptr);
    ~Pairing() override;

    // The federation port's pairing routes; false when the path is not one of them.
    bool handleInbound(const Broker::Http::Request &request, const Broker::Http::ResponderPtr &responder);

    // The local routes (the user's token).
    QList<Broker::Route> routes();

    PendingRequests &pendingRequests() { return m_pending; }
    qint64 nowMs() const;
    // For /federation/status: "pending" (count) and "pairing_requests" (the list).
    void addToStatus(QJsonObject &status);

private:
    struct Joining // machine B's side of one pairing
    {
        RemoteAddress address;
        QString remotePin;
        QString remoteHostname;
        QByteArray codeKey;
        QString clientNonce;
        QString serverNonce;
        QString sas;
    };

    void inboundRequest(const Broker::Http::Request &request, const QJsonObject &body,
                        const Broker::Http::ResponderPtr &responder);
    void inboundCollect(const Broker::Http::Request &request, const QJsonObject &body,
                        const Broker::Http::ResponderPtr &responder);

    void pairCode(Broker::RouteCall &call);
    void listPending(Broker::RouteCall &call);
    void accept(Broker::RouteCall &call);
    void reject(Broker::RouteCall &call);
    void join(Broker::RouteCall &call);
    void confirm(Broker::RouteCall &call);
    void cancel(Broker::RouteCall &call);

    void joinWithPin(const Broker::Http::ResponderPtr &responder, const RemoteAddress &address,
                     const QString &code, const QString &remotePin);
    void collect(const Broker::Http::ResponderPtr &responder, const QString &id, qint64 deadlineMs);
    void collected(const Broker::Http::ResponderPtr &responder, const QString &id, const QJsonObject &answer);

    Hooks m_hooks;
    std::unique_ptr<PinnedTlsClient> m_client;
    PendingRequests m_pending;
    PairingCode::CodeBook m_codes;
    QHash<QString, Joining> m_joining; // by the id machine A gave
};

// The additional authenticated data of a sealed PSK: the request and both pins.
QByteArray pairingSealAad(const QString &id, const QString &issuerPin, const QString &joinerPin);

} // namespace Federation
