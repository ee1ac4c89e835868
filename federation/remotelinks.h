#pragma once

#include "broker/federationlink.h"
#include "federation/linktransport.h"

#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QString>

#include <functional>
#include <map>
#include <vector>

namespace Broker {
class Clock;
}

namespace Federation {

// How a remote came to be in the list: it decides what a failure does.
enum class RemoteOrigin {
    Manual, // POST /federation/connect: a first failure is the caller's answer, nothing retried
    Config, // federation.remotes at start: retried with the backoff until it answers
    Inbound, // the remote handshook with us (bidirectional links): reached back, retried
};

enum class RemoteState {
    Connecting, // a handshake is on its way
    Connected,
    Waiting, // the next attempt is due at nextAttemptMs (after a failure or an eviction)
    GaveUp, // kMaxAttempts failed in a row; a manual connect tries again
};

// A link's round-trip time, from the answers of the peer list it fetches anyway (the 30 s sync,
// the connect, a peers-changed fetch): no extra traffic. The last sample, and a smoothed value
// kept as TCP keeps its SRTT (RFC 6298: 7/8 of the old value plus 1/8 of the new sample), so one
// slow answer moves it a little and a lasting change shows within a few minutes of syncs.
struct LinkRoundTrip
{
    static constexpr double kGain = 1.0 / 8;
    qint64 lastUs = -1;
    double smoothedUs = -1;
    qint64 samples = 0;

    void add(qint64 us)
    {
        if (us < 0)
            return; // not measured (e.g. a transport that cannot)
        lastUs = us;
        smoothedUs = samples == 0 ? double(us) : smoothedUs + kGain * (double(us) - smoothedUs);
        ++samples;
    }
    bool measured() const { return samples > 0; }
};

struct Remote
{
    RemoteAddress address;
    RemoteOrigin origin = RemoteOrigin::Manual;
    RemoteState state = RemoteState::Connecting;
    QString hostname; // the handshake's answer: the prefix of its peers' ids
    QList<Broker::Peer> peers; // ids "<hostname>:<peer>"
    QDateTime connectedAt;
    QDateTime lastSync;
    qint64 lastSyncMs = 0; // monotonic, for the eviction
    bool everConnected = false;
    int failedAttempts = 0; // in a row
    qint64 nextAttemptMs = 0; // monotonic
    QString lastError;
    quint64 generation = 0; // answers of an older attempt or sync are dropped
    bool acceptsPeersChanged = false; // its handshake answer listed "peers-changed" (ours, not 0.7)
    bool syncInFlight = false;
    bool syncAgain = false; // a change was announced while a sync was on its way
    LinkRoundTrip roundTrip;
    std::vector<Broker::FederationLink::Callback> waiting; // connect callers of the attempt in flight
};

// Who we are to remotes.
struct LinkIdentity
{
    QString hostname;
    quint16 federationPort = 7900; // sent in the handshake so the callee can reach us back
    std::function<QByteArray()> psk;
};

// The outbound side of federation (docs/spec/peers-api.md §6.3, §6.4, §6.7): the remotes, their handshakes
// and peer lists, the periodic sync with eviction, the reconnect backoff, relays. Timed only by
// the given clock (the module's jobs call syncRound() and reconnectDue()), so it is tested with
// a ManualClock and a fake transport.
class RemoteLinks
{
public:
    static constexpr qint64 kSyncIntervalMs = 30'000;
    static constexpr qint64 kEvictAfterMs = 90'000;
    static constexpr int kMaxAttempts = 20;
    static constexpr int kMaxPeersPerRemote = 1000;
    static constexpr const char *kProtocolVersion = "1.0.0";

    // The relay body (docs/spec/peers-api.md §6.4, plus ts/nonce/to_machine) signed with the PSK,
    // as it goes on the wire.
    using RelaySigner = std::function<QByteArray(const Broker::RemoteMessage &message, const QString &peerId,
                                                 const QString &remoteHostname)>;
    using Callback = Broker::FederationLink::Callback;

    RemoteLinks(LinkTransport &transport, const Broker::Clock &clock, LinkIdentity identity,
                RelaySigner signer);

    // docs/spec/peers-api.md §6.3: answers {"hostname":…} once the handshake and the first peer
    // list are done.
    void connect(const RemoteAddress &address, RemoteOrigin origin, Callback done);
    // Removes it (any state); false when it was not in the list.
    bool disconnect(const RemoteAddress &address);
    // docs/spec/peers-api.md §3.20 / §6.4.
    void send(const Broker::RemoteMessage &message, Callback done);

    // Every 30 s: evicts remotes not synced for 90 s (measured now), then asks each connected
    // remote for its peers.
    void syncRound();
    // Attempts whose backoff delay is over.
    void reconnectDue();
    // The remote named hostname says its peers changed: its list is fetched now (one fetch at a
    // time per remote; announcements during one cause one more after it).
    void syncRemote(const QString &hostname);
    // Our peers changed: tell the connected remotes that understand it (POST
    // /federation/peers-changed), so they fetch our list now instead of at their next sync.
    void announcePeersChanged();
    // The delay after the n-th failure in a row (docs/spec/peers-api.md §6.3: 5 s, 15 s, 45 s, then 60 s).
    static qint64 backoffDelayMs(int failedAttempts);

    // Called when a remote is connected (the module persists it to the config file).
    std::function<void(const Remote &)> onConnected;
    // Called when remotePeers() may have changed: a remote connected, synced, was evicted or dropped.
    std::function<void()> onPeersChanged;

    bool hasHostname(const QString &hostname) const;
    const Remote *find(const RemoteAddress &address) const;
    QList<Broker::Peer> remotePeers() const;
    QJsonArray statusRemotes() const;
    int totalRemotePeers() const;
    int connectedCount() const;
    void clear(); // stop(): pending callers are told the broker stops

private:
    void attempt(Remote &remote);
    void attemptFailed(const QString &key, quint64 generation, const QString &message);
    void connected(const QString &key, quint64 generation, const QString &hostname, const LinkReply &peers);
    QList<Broker::Peer> mapPeers(const QString &hostname, const QJsonObject &answer) const;
    void finishWaiting(Remote &remote, const Broker::Result<QJsonObject> &result);
    void sync(Remote &remote);
    Remote *lookup(const QString &key, quint64 generation);
    void peersChanged() const;
    QByteArray psk() const { return m_identity.psk ? m_identity.psk() : QByteArray(); }

    LinkTransport &m_transport;
    const Broker::Clock &m_clock;
    LinkIdentity m_identity;
    RelaySigner m_signer;
    std::map<QString, Remote> m_remotes; // by address key, ordered for a stable status
    quint64 m_nextGeneration = 1;
};

} // namespace Federation
