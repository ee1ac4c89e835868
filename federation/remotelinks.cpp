#include "federation/remotelinks.h"

#include "broker/clock.h"
#include "federation/federationlogging.h"
#include "federation/inboundhandler.h"

#include <QJsonDocument>

#include <cmath>

using Broker::ErrorKind;
using Broker::fail;

namespace Federation {

namespace {

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QString originName(RemoteOrigin origin)
{
    switch (origin) {
    case RemoteOrigin::Manual:
        return QStringLiteral("manual");
    case RemoteOrigin::Config:
        return QStringLiteral("config");
    case RemoteOrigin::Inbound:
        return QStringLiteral("inbound");
    }
    return {};
}

QString stateName(RemoteState state)
{
    switch (state) {
    case RemoteState::Connecting:
        return QStringLiteral("connecting");
    case RemoteState::Connected:
        return QStringLiteral("connected");
    case RemoteState::Waiting:
        return QStringLiteral("reconnecting");
    case RemoteState::GaveUp:
        return QStringLiteral("gave_up");
    }
    return {};
}

QString stringOrEmpty(const QJsonObject &object, const QString &key)
{
    const QJsonValue value = object.value(key);
    return value.isString() ? value.toString() : QString();
}

} // namespace

RemoteLinks::RemoteLinks(LinkTransport &transport, const Broker::Clock &clock, LinkIdentity identity,
                         RelaySigner signer)
    : m_transport(transport), m_clock(clock), m_identity(std::move(identity)), m_signer(std::move(signer))
{
}

qint64 RemoteLinks::backoffDelayMs(int failedAttempts)
{
    switch (failedAttempts) {
    case 0:
        return 0;
    case 1:
        return 5'000;
    case 2:
        return 15'000;
    case 3:
        return 45'000;
    default:
        return 60'000;
    }
}

void RemoteLinks::connect(const RemoteAddress &address, RemoteOrigin origin, Callback done)
{
    const QString key = address.key();
    auto it = m_remotes.find(key);
    if (it == m_remotes.end()) {
        Remote remote;
        remote.address = address;
        remote.origin = origin;
        it = m_remotes.emplace(key, std::move(remote)).first;
    }
    Remote &remote = it->second;
    if (remote.state == RemoteState::Connected) {
        if (done)
            done(QJsonObject {{QStringLiteral("hostname"), remote.hostname}});
        return;
    }
    if (done)
        remote.waiting.push_back(std::move(done));
    if (origin == RemoteOrigin::Manual && remote.origin != RemoteOrigin::Manual)
        remote.failedAttempts = 0; // the user asks again: a fresh backoff
    if (remote.state == RemoteState::Connecting && remote.generation != 0)
        return; // the attempt in flight answers every caller
    attempt(remote);
}

void RemoteLinks::attempt(Remote &remote)
{
    remote.state = RemoteState::Connecting;
    remote.generation = m_nextGeneration++;
    remote.syncInFlight = false; // an older generation's answer is dropped unread
    remote.syncAgain = false;
    const QString key = remote.address.key();
    const quint64 generation = remote.generation;
    // No "psk" here: our brokers prove it with the challenge exchange; for a 0.7 remote the
    // transport adds it (SessionTransport's legacy path).
    const QJsonObject handshake {{QStringLiteral("hostname"), m_identity.hostname},
                                 {QStringLiteral("version"), QString::fromLatin1(kProtocolVersion)},
                                 {QStringLiteral("port"), int(m_identity.federationPort)}};
    qCDebug(lcFederation).noquote() << "handshake with" << key;
    m_transport.post(
        remote.address, "/federation/handshake", compact(handshake), psk(),
        [this, key, generation](LinkReply reply) {
            if (!lookup(key, generation))
                return;
            if (!reply.ok()) {
                attemptFailed(
                    key, generation,
                    QStringLiteral("Handshake failed (%1): %2").arg(reply.status).arg(reply.remoteError()));
                return;
            }
            const QString hostname = stringOrEmpty(reply.body, QStringLiteral("hostname"));
            if (hostname.isEmpty() || hostname.contains(QLatin1Char(':')) || hostname.size() > 63) {
                attemptFailed(key, generation,
                              QStringLiteral("Handshake failed (%1): the remote named itself \"%2\", "
                                             "which cannot prefix peer ids")
                                  .arg(reply.status)
                                  .arg(hostname.left(80)));
                return;
            }
            Remote *remote = lookup(key, generation);
            remote->hostname = hostname;
            remote->acceptsPeersChanged = false;
            for (const QJsonValue &capability : reply.body.value(QStringLiteral("capabilities")).toArray())
                remote->acceptsPeersChanged = remote->acceptsPeersChanged ||
                    capability.toString() == QLatin1String(InboundHandler::kPeersChangedCapability);
            m_transport.post(remote->address, "/federation/peers", "{}", psk(),
                             [this, key, generation, hostname](LinkReply peers) {
                                 connected(key, generation, hostname, peers);
                             });
        });
}

void RemoteLinks::connected(const QString &key, quint64 generation, const QString &hostname,
                            const LinkReply &peers)
{
    Remote *remote = lookup(key, generation);
    if (!remote)
        return;
    if (remote->origin == RemoteOrigin::Inbound) {
        for (const auto &[otherKey, other] : m_remotes) {
            if (otherKey != key && other.hostname == hostname && other.state == RemoteState::Connected) {
                // Both sides reached each other at once: the link we already have is enough.
                auto waiting = std::move(remote->waiting);
                m_remotes.erase(key);
                for (auto &done : waiting)
                    done(QJsonObject {{QStringLiteral("hostname"), hostname}});
                return;
            }
        }
    }
    // docs/spec/peers-api.md §6.3: a failed peer list still connects, with no peers until the next sync.
    remote->peers = peers.ok() ? mapPeers(hostname, peers.body) : QList<Broker::Peer> {};
    if (peers.ok())
        remote->roundTrip.add(peers.roundTripUs);
    remote->state = RemoteState::Connected;
    remote->connectedAt = m_clock.now();
    remote->lastSync = remote->connectedAt;
    remote->lastSyncMs = m_clock.monotonicMs();
    remote->everConnected = true;
    remote->failedAttempts = 0;
    remote->lastError.clear();
    qCInfo(lcFederation).noquote() << "connected to" << hostname << "at" << key << "with"
                                   << remote->peers.size() << "peers";
    peersChanged();
    if (onConnected)
        onConnected(*remote);
    remote = lookup(key, generation); // onConnected may not remove it, but be safe
    if (remote)
        finishWaiting(*remote, QJsonObject {{QStringLiteral("hostname"), hostname}});
}

void RemoteLinks::attemptFailed(const QString &key, quint64 generation, const QString &message)
{
    Remote *remote = lookup(key, generation);
    if (!remote)
        return;
    remote->lastError = message;
    ++remote->failedAttempts;
    qCInfo(lcFederation).noquote() << "connect to" << key << "failed (attempt" << remote->failedAttempts
                                   << "):" << message;
    auto waiting = std::move(remote->waiting);
    remote->waiting.clear();
    if (remote->origin == RemoteOrigin::Manual && !remote->everConnected) {
        m_remotes.erase(key); // 0.7: a manual connect that fails leaves nothing behind
    } else if (remote->failedAttempts >= kMaxAttempts) {
        remote->state = RemoteState::GaveUp;
        qCWarning(lcFederation).noquote() << "giving up on" << key << "after" << kMaxAttempts
                                          << "attempts; `claude-peers federation connect` tries again";
    } else {
        remote->state = RemoteState::Waiting;
        remote->nextAttemptMs = m_clock.monotonicMs() + backoffDelayMs(remote->failedAttempts);
    }
    for (auto &done : waiting)
        done(fail(ErrorKind::Unreachable, message));
}

void RemoteLinks::finishWaiting(Remote &remote, const Broker::Result<QJsonObject> &result)
{
    auto waiting = std::move(remote.waiting);
    remote.waiting.clear();
    for (auto &done : waiting)
        done(result);
}

Remote *RemoteLinks::lookup(const QString &key, quint64 generation)
{
    auto it = m_remotes.find(key);
    if (it == m_remotes.end() || it->second.generation != generation)
        return nullptr;
    return &it->second;
}

QList<Broker::Peer> RemoteLinks::mapPeers(const QString &hostname, const QJsonObject &answer) const
{
    QList<Broker::Peer> peers;
    const QJsonArray rows = answer.value(QStringLiteral("peers")).toArray();
    for (const QJsonValue &value : rows) {
        if (peers.size() >= kMaxPeersPerRemote) {
            qCWarning(lcFederation).noquote()
                << hostname << "lists more than" << kMaxPeersPerRemote << "peers; the rest are ignored";
            break;
        }
        const QJsonObject row = value.toObject();
        const QString id = stringOrEmpty(row, QStringLiteral("id"));
        if (id.isEmpty() || id.size() > 256)
            continue;
        Broker::Peer peer;
        peer.id = hostname + QLatin1Char(':') + id;
        peer.cwd = stringOrEmpty(row, QStringLiteral("cwd"));
        peer.gitRoot = stringOrEmpty(row, QStringLiteral("git_root"));
        peer.sessionName = stringOrEmpty(row, QStringLiteral("session_name"));
        peer.summary = stringOrEmpty(row, QStringLiteral("summary"));
        peer.lastSeen = stringOrEmpty(row, QStringLiteral("last_seen"));
        peer.registeredAt = peer.lastSeen; // docs/spec/peers-api.md §3.11: registered_at carries last_seen
        peers.append(peer);
    }
    return peers;
}

void RemoteLinks::peersChanged() const
{
    if (onPeersChanged)
        onPeersChanged();
}

bool RemoteLinks::disconnect(const RemoteAddress &address)
{
    auto it = m_remotes.find(address.key());
    if (it == m_remotes.end())
        return false;
    auto waiting = std::move(it->second.waiting);
    const bool hadPeers = !it->second.peers.isEmpty();
    m_remotes.erase(it);
    if (hadPeers)
        peersChanged();
    for (auto &done : waiting)
        done(fail(ErrorKind::Rejected,
                  QStringLiteral("Disconnected from %1 while connecting").arg(address.key())));
    return true;
}

void RemoteLinks::send(const Broker::RemoteMessage &message, Callback done)
{
    const qsizetype colon = message.toId.indexOf(QLatin1Char(':'));
    if (colon < 0) {
        done(fail(ErrorKind::Rejected,
                  QStringLiteral("Invalid remote peer ID \"%1\" — expected \"hostname:peer_id\" format")
                      .arg(message.toId)));
        return;
    }
    const QString hostname = message.toId.left(colon);
    const QString peerId = message.toId.mid(colon + 1);
    const Remote *target = nullptr;
    for (const auto &[key, remote] : m_remotes) {
        if (remote.state == RemoteState::Connected && remote.hostname == hostname) {
            target = &remote;
            break;
        }
    }
    if (!target) {
        done(fail(ErrorKind::Rejected,
                  QStringLiteral("No federation connection to machine \"%1\"").arg(hostname)));
        return;
    }
    const QByteArray body = m_signer(message, peerId, hostname);
    m_transport.post(target->address, "/federation/relay", body, psk(), [done, hostname](LinkReply reply) {
        if (!reply.ok()) {
            done(fail(ErrorKind::Rejected,
                      QStringLiteral("Relay failed (%1): %2").arg(reply.status).arg(reply.remoteError())));
            return;
        }
        qCDebug(lcFederation).noquote() << "relayed to" << hostname;
        done(QJsonObject {});
    });
}

void RemoteLinks::syncRound()
{
    const qint64 now = m_clock.monotonicMs();
    for (auto &[key, remote] : m_remotes) {
        if (remote.state != RemoteState::Connected || now - remote.lastSyncMs <= kEvictAfterMs)
            continue;
        // 0.7 forgets an evicted remote until a restart; we reconnect it with the backoff.
        qCInfo(lcFederation).noquote() << "evicting" << remote.hostname << "at" << key << "(no sync for"
                                       << (now - remote.lastSyncMs) / 1000 << "s); reconnecting";
        remote.state = RemoteState::Waiting;
        remote.peers.clear();
        peersChanged();
        remote.failedAttempts = 0;
        remote.nextAttemptMs = now;
        remote.generation = m_nextGeneration++;
        remote.syncInFlight = false;
        remote.syncAgain = false;
    }
    for (auto &[key, remote] : m_remotes) {
        if (remote.state == RemoteState::Connected)
            sync(remote);
    }
}

void RemoteLinks::sync(Remote &remote)
{
    if (remote.syncInFlight) {
        remote.syncAgain = true;
        return;
    }
    remote.syncInFlight = true;
    remote.syncAgain = false;
    const QString remoteKey = remote.address.key();
    const quint64 generation = remote.generation;
    const QString hostname = remote.hostname;
    m_transport.post(remote.address, "/federation/peers", "{}", psk(),
                     [this, remoteKey, generation, hostname](LinkReply reply) {
                         Remote *current = lookup(remoteKey, generation);
                         if (!current)
                             return;
                         current->syncInFlight = false;
                         if (current->state != RemoteState::Connected)
                             return;
                         if (!reply.ok()) {
                             qCInfo(lcFederation).noquote() << "sync with" << remoteKey << "failed ("
                                                            << reply.status << "):" << reply.remoteError();
                         } else {
                             current->peers = mapPeers(hostname, reply.body);
                             peersChanged();
                             current->roundTrip.add(reply.roundTripUs);
                             current->lastSync = m_clock.now();
                             current->lastSyncMs = m_clock.monotonicMs();
                         }
                         if (current->syncAgain)
                             sync(*current);
                     });
}

void RemoteLinks::syncRemote(const QString &hostname)
{
    for (auto &[key, remote] : m_remotes) {
        if (remote.state == RemoteState::Connected && remote.hostname == hostname) {
            qCDebug(lcFederation).noquote() << hostname << "announced a change of its peers";
            sync(remote);
        }
    }
}

void RemoteLinks::announcePeersChanged()
{
    const QByteArray body = compact({{QStringLiteral("hostname"), m_identity.hostname}});
    for (const auto &[key, remote] : m_remotes) {
        if (remote.state != RemoteState::Connected || !remote.acceptsPeersChanged)
            continue;
        const QString remoteKey = key;
        m_transport.post(
            remote.address, "/federation/peers-changed", body, psk(), [remoteKey](LinkReply reply) {
                // Not fatal: the remote's 30 s sync still brings the change.
                if (!reply.ok())
                    qCDebug(lcFederation).noquote() << "announcing our peers to" << remoteKey << "failed ("
                                                    << reply.status << "):" << reply.remoteError();
            });
    }
}

void RemoteLinks::reconnectDue()
{
    if (psk().isEmpty())
        return;
    const qint64 now = m_clock.monotonicMs();
    for (auto &[key, remote] : m_remotes) {
        if (remote.state == RemoteState::Waiting && remote.nextAttemptMs <= now)
            attempt(remote);
    }
}

bool RemoteLinks::hasHostname(const QString &hostname) const
{
    for (const auto &[key, remote] : m_remotes) {
        if (remote.hostname == hostname && remote.state != RemoteState::GaveUp)
            return true;
    }
    return false;
}

const Remote *RemoteLinks::find(const RemoteAddress &address) const
{
    auto it = m_remotes.find(address.key());
    return it == m_remotes.end() ? nullptr : &it->second;
}

QList<Broker::Peer> RemoteLinks::remotePeers() const
{
    QList<Broker::Peer> peers;
    for (const auto &[key, remote] : m_remotes) {
        if (remote.state == RemoteState::Connected)
            peers += remote.peers;
    }
    return peers;
}

int RemoteLinks::totalRemotePeers() const
{
    int total = 0;
    for (const auto &[key, remote] : m_remotes) {
        if (remote.state == RemoteState::Connected)
            total += int(remote.peers.size());
    }
    return total;
}

int RemoteLinks::connectedCount() const
{
    int count = 0;
    for (const auto &[key, remote] : m_remotes)
        count += remote.state == RemoteState::Connected ? 1 : 0;
    return count;
}

QJsonArray RemoteLinks::statusRemotes() const
{
    // 0.7 lists connected remotes only (docs/spec/peers-api.md §3.5); the others are ours, told
    // apart by "state".
    QJsonArray remotes;
    for (const auto &[key, remote] : m_remotes) {
        QJsonObject entry {{QStringLiteral("host"), remote.address.host},
                           {QStringLiteral("port"), remote.address.port},
                           {QStringLiteral("hostname"), remote.hostname},
                           {QStringLiteral("peer_count"), int(remote.peers.size())},
                           {QStringLiteral("state"), stateName(remote.state)},
                           {QStringLiteral("source"), originName(remote.origin)}};
        if (remote.connectedAt.isValid())
            entry.insert(QStringLiteral("connected_at"), Broker::Clock::toIso(remote.connectedAt));
        if (remote.lastSync.isValid())
            entry.insert(QStringLiteral("last_sync"), Broker::Clock::toIso(remote.lastSync));
        if (remote.roundTrip.measured()) {
            // Milliseconds with microseconds as decimals (loopback and LAN links answer in well under 1 ms).
            const auto ms = [](double us) { return std::round(us) / 1000.0; };
            entry.insert(QStringLiteral("rtt_ms"), ms(double(remote.roundTrip.lastUs)));
            entry.insert(QStringLiteral("rtt_smoothed_ms"), ms(remote.roundTrip.smoothedUs));
            entry.insert(QStringLiteral("rtt_samples"), remote.roundTrip.samples);
        }
        if (remote.state != RemoteState::Connected) {
            entry.insert(QStringLiteral("attempts"), remote.failedAttempts);
            if (!remote.lastError.isEmpty())
                entry.insert(QStringLiteral("last_error"), remote.lastError);
        }
        remotes.append(entry);
    }
    return remotes;
}

void RemoteLinks::clear()
{
    auto remotes = std::move(m_remotes);
    m_remotes.clear();
    for (auto &[key, remote] : remotes)
        for (auto &done : remote.waiting)
            done(fail(ErrorKind::Stopped, QStringLiteral("The broker is stopping")));
}

} // namespace Federation
