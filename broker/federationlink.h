#pragma once

#include "common/dto.h"
#include "common/result.h"
#include "common/wire.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Broker {

// A message for a peer on another machine (docs/spec/peers-api.md §3.20 / §6.4).
using RemoteMessage = SendToRemoteRequest;

// What the local broker needs from federation. The broker calls it for /federation/* POSTs,
// the "lan" scope of /list-peers and /broadcast, and /metrics; the federation module
// implements it. Callbacks run once, on the broker's thread. A failure's message becomes the
// {"ok":false,"error":…} answer (HTTP 200, as the reference).
class FederationLink
{
public:
    using Callback = std::function<void(Result<QJsonObject>)>; // extra answer fields on success

    virtual ~FederationLink() = default;

    virtual bool isEnabled() const = 0;
    // GET /federation/status body (docs/spec/peers-api.md §3.5).
    virtual QJsonObject status() const = 0;
    // Cached peers of every connected remote, ids "<hostname>:<peer>", pid 0.
    virtual QList<Peer> remotePeers() const = 0;

    virtual void connectRemote(const QString &host, int port, Callback done) = 0; // {"hostname":…}
    virtual void disconnectRemote(const QString &host, int port, Callback done) = 0; // {}
    virtual void sendToRemote(const RemoteMessage &message, Callback done) = 0; // {}

    // The broker asks to hear when remotePeers() may have changed (a link connected, synced,
    // dropped), so a GUI showing them need not poll. Called on the broker's thread.
    void setRemotePeersChanged(std::function<void()> callback) { m_remotePeersChanged = std::move(callback); }

protected:
    void remotePeersChanged() const
    {
        if (m_remotePeersChanged)
            m_remotePeersChanged();
    }

private:
    std::function<void()> m_remotePeersChanged;
};

// The link of a broker without federation: every operation answers the reference's
// "Federation is not enabled" error.
class DisabledFederationLink final : public FederationLink
{
public:
    explicit DisabledFederationLink(int port = 7900) : m_port(port) { }

    static QString disabledMessage();

    bool isEnabled() const override { return false; }
    QJsonObject status() const override;
    QList<Peer> remotePeers() const override { return {}; }
    void connectRemote(const QString &host, int port, Callback done) override;
    void disconnectRemote(const QString &host, int port, Callback done) override;
    void sendToRemote(const RemoteMessage &message, Callback done) override;

private:
    int m_port;
};

} // namespace Broker
