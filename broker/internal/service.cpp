#include "broker/internal/service.h"
#include "broker/brokerlogging.h"
#include "broker/clock.h"
#include "broker/federationlink.h"
#include "broker/internal/bounce.h"
#include "broker/internal/peerid.h"
#include "broker/internal/store.h"

#include <QJsonDocument>
#include <QSet>

#include <memory>

namespace Broker {

namespace {

constexpr qsizetype maxContentSize = 10240; // docs/spec/peers-api.md §11.4, UTF-16 code units

std::unexpected<Error> rejected(const QString &message)
{
    return std::unexpected(Error {ErrorKind::Rejected, message, 0});
}

} // namespace

Service::Service(Store &store, const Clock &clock, FederationLink &federation, QObject *parent)
    : QObject(parent), m_store(store), m_clock(clock), m_federation(federation), m_silence(clock)
{
    connect(this, &Service::peerRegistered, this, [this](const QString &peerId) {
        m_liveTargets.remove(peerId);
        m_silence.heard(peerId);
    });
    connect(this, &Service::peerRemoved, this, [this](const QString &peerId) {
        m_liveTargets.remove(peerId);
        m_silence.forget(peerId);
    });
}

QString Service::nowIso() const
{
    const QDateTime now = m_clock.now();
    const qint64 ms = now.toMSecsSinceEpoch();
    if (m_isoCache.isEmpty() || ms != m_isoCacheMs) {
        m_isoCache = Clock::toIso(now);
        m_isoCacheMs = ms;
    }
    return m_isoCache;
}

bool Service::isKnownLiveTarget(const QString &peerId) const
{
    auto it = m_liveTargets.constFind(peerId);
    if (it == m_liveTargets.cend())
        return false;
    const qint64 age = m_clock.monotonicMs() - *it;
    return age >= 0 && age < liveTargetCacheMs;
}

bool Service::isValidRequestedId(const QString &id)
{
    if (id.isEmpty() || id.size() > 64)
        return false;
    for (QChar c : id) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('_') && c != QLatin1Char('-'))
            return false;
    }
    return true;
}

Result<Service::Registered> Service::registerPeer(const Registration &request)
{
    if (!request.requestedId.isEmpty() && !isValidRequestedId(request.requestedId))
        return std::unexpected(Error {ErrorKind::BadRequest,
                                      QStringLiteral("Field \"requested_id\" must be 1 to 64 characters "
                                                     "from A-Z, a-z, 0-9, _ and -"),
                                      400});
    const QString preferred = !request.requestedId.isEmpty() ? request.requestedId
        : !request.tty.isEmpty()                             ? PeerId::fromTty(request.tty)
                                                             : QString();
    // Live sessions of other processes that this registration must leave alone: the holder of
    // the preferred id, and the others on the same terminal (two helpers on one tty used to
    // void each other's secret forever, each re-registering on its 401).
    QStringList keep;
    bool preferredHeld = false;
    if (!preferred.isEmpty() || !request.tty.isEmpty()) {
        auto all = m_store.peers();
        if (!all)
            return std::unexpected(all.error());
        for (const Peer &peer : std::as_const(*all)) {
            if (peer.pid == request.pid)
                continue;
            const bool holdsPreferred = peer.id == preferred;
            if (!holdsPreferred && (request.tty.isEmpty() || peer.tty != request.tty))
                continue;
            if (!staleReason(peer).isEmpty())
                continue; // dead: replaced as the reference does
            keep.append(peer.id);
            if (holdsPreferred) {
                preferredHeld = true;
                qCInfo(lcApi).noquote() << "Peer" << preferred << "belongs to live pid" << peer.pid << "- pid"
                                        << request.pid << "gets a new id";
            }
        }
    }
    QString id = preferredHeld ? QString() : preferred;
    if (id.isEmpty()) {
        // A random id must not silently take over another session's row.
        for (int attempt = 0; attempt < 8; ++attempt) {
            id = PeerId::random();
            auto existing = m_store.peer(id);
            if (!existing)
                return std::unexpected(existing.error());
            if (!existing->has_value())
                break;
        }
    }
    const QByteArray secret = SessionSecret::generate();
    NewPeer newPeer;
    newPeer.id = id;
    newPeer.pid = request.pid;
    newPeer.cwd = request.cwd;
    newPeer.gitRoot = request.gitRoot;
    newPeer.tty = request.tty;
    newPeer.sessionName = request.sessionName;
    newPeer.summary = request.summary;
    newPeer.version = request.version;
    newPeer.secretHash = SessionSecret::hash(secret);
    newPeer.client = request.client;
    newPeer.keepIds = keep;

    auto registration = m_store.registerPeer(newPeer, nowIso());
    if (!registration)
        return std::unexpected(registration.error());
    for (const QString &evicted : std::as_const(registration->evictedIds)) {
        if (evicted != id) {
            qCInfo(lcApi).noquote() << "Evicted peer" << evicted << "replaced by" << id;
            Q_EMIT peerRemoved(evicted);
        }
    }
    qCInfo(lcApi).noquote() << "Registered peer" << id << "pid" << request.pid << "cwd" << request.cwd;
    Q_EMIT peerRegistered(id);
    return Registered {registration->peer, secret};
}

Result<bool> Service::touch(const QString &peerId)
{
    auto touched = m_store.touchPeer(peerId, nowIso());
    if (touched && *touched) {
        m_silence.heard(peerId);
        Q_EMIT peerUpdated(peerId);
    }
    return touched;
}

Result<void> Service::announceIfChanged(const QString &peerId, const Result<bool> &changed)
{
    if (!changed)
        return std::unexpected(changed.error());
    if (*changed)
        Q_EMIT peerUpdated(peerId);
    return {};
}

Result<void> Service::setSummary(const QString &peerId, const QString &summary)
{
    return announceIfChanged(peerId, m_store.setSummary(peerId, summary));
}

Result<void> Service::setSessionName(const QString &peerId, const QString &name)
{
    return announceIfChanged(peerId, m_store.setSessionName(peerId, name));
}

Result<void> Service::setChannelPush(const QString &peerId, const QString &state, const QString &delivery)
{
    static const QSet<QString> states {QStringLiteral("unknown"), QStringLiteral("unverified"),
                                       QStringLiteral("working")};
    static const QSet<QString> paths {QStringLiteral("channel"), QStringLiteral("inbox"),
                                      QStringLiteral("banner")};
    if (!states.contains(state))
        return {}; // docs/spec/peers-api.md §3.10: silently ignored
    if (paths.contains(delivery)) { // ours; another value is ignored the same way
        if (auto r = m_store.setDelivery(peerId, delivery); !r)
            return std::unexpected(r.error());
    }
    return announceIfChanged(peerId, m_store.setChannelPush(peerId, state));
}

Result<void> Service::setAttention(const QString &peerId, Attention state, const QString &message)
{
    auto found = m_store.setAttention(peerId, state, message, nowIso());
    if (!found)
        return std::unexpected(found.error());
    if (!*found)
        return std::unexpected(Error {ErrorKind::NotFound,
                                      QStringLiteral("Peer %1 is not registered: register it (start its "
                                                     "session's claude-peers helper) first")
                                          .arg(peerId),
                                      404});
    qCDebug(lcApi).noquote() << "Peer" << peerId << "attention" << attentionName(state);
    Q_EMIT peerUpdated(peerId);
    return {};
}

Result<void> Service::unregisterPeer(const QString &peerId)
{
    // Only the row: pending mail waits for a quick re-registration (same tty → same id) and
    // is bounced by the orphan sweep otherwise (docs/spec/peers-api.md §3.17).
    auto removed = m_store.removePeer(peerId);
    if (!removed)
        return std::unexpected(removed.error());
    if (*removed) {
        qCInfo(lcApi).noquote() << "Unregistered peer" << peerId;
        Q_EMIT peerRemoved(peerId);
    }
    return {};
}

Result<QList<Peer>> Service::listPeers(const QString &scope, const QString &cwd, const QString &gitRoot,
                                       const QString &excludeId)
{
    auto all = m_store.peers();
    if (!all)
        return std::unexpected(all.error());
    QList<Peer> result;
    for (const Peer &peer : std::as_const(*all)) {
        if (scope == QLatin1String("directory")) {
            if (peer.cwd != cwd)
                continue;
        } else if (scope == QLatin1String("repo")) {
            if (!gitRoot.isEmpty() ? peer.gitRoot != gitRoot : peer.cwd != cwd)
                continue;
        }
        if (!excludeId.isEmpty() && peer.id == excludeId)
            continue;
        const QString reason = staleReason(peer);
        if (!reason.isEmpty()) {
            if (auto evicted = evict(peer, reason); !evicted)
                return std::unexpected(evicted.error());
            continue;
        }
        result.append(peer);
    }
    if (scope == QLatin1String("lan") && m_federation.isEnabled()) {
        const QList<Peer> remote = m_federation.remotePeers();
        for (const Peer &peer : remote) {
            if (excludeId.isEmpty() || peer.id != excludeId)
                result.append(peer);
        }
    }
    return result;
}

qsizetype Service::contentSize(const QString &text, const std::optional<QJsonObject> &metadata)
{
    qsizetype size = text.size();
    if (metadata)
        size += QString::fromUtf8(QJsonDocument(*metadata).toJson(QJsonDocument::Compact)).size();
    return size;
}

Result<Service::Content> Service::validateContent(const QJsonValue &type, const QJsonValue &metadata,
                                                  const QString &text, const QString &defaultType,
                                                  TypeErrorStyle style)
{
    Content content;
    content.type = (type.isUndefined() || type.isNull()) ? defaultType : type.toString();
    if (!messageTypeFromName(content.type)) {
        if (style == TypeErrorStyle::Quoted)
            return rejected(QStringLiteral("Invalid message type: \"%1\". Valid types: %2")
                                .arg(content.type, messageTypeList()));
        return rejected(QStringLiteral("Invalid message type: %1").arg(content.type));
    }
    if (!metadata.isUndefined() && !metadata.isNull()) {
        if (!metadata.isObject())
            return rejected(QStringLiteral("metadata must be a JSON object"));
        content.metadata = metadata.toObject();
    }
    if (contentSize(text, content.metadata) > maxContentSize)
        return rejected(QStringLiteral("Message too large (text + metadata max 10KB)"));
    return content;
}

Result<qint64> Service::sendMessage(const QString &fromId, const QString &toId, const QString &text,
                                    const Content &content, std::optional<qint64> replyTo)
{
    if (replyTo) {
        auto exists = m_store.messageExists(*replyTo);
        if (!exists)
            return std::unexpected(exists.error());
        if (!*exists)
            return rejected(QStringLiteral("Referenced message %1 not found").arg(*replyTo));
    }
    if (!isKnownLiveTarget(toId)) {
        auto target = m_store.peer(toId);
        if (!target)
            return std::unexpected(target.error());
        if (!target->has_value())
            return rejected(
                QStringLiteral("Peer %1 not found. Run list_peers to see available peers, or the peer "
                               "may have disconnected.")
                    .arg(toId));
        const Peer &peer = **target;
        const QString reason = staleReason(peer);
        if (!reason.isEmpty()) {
            if (auto evicted = evict(peer, reason); !evicted)
                return std::unexpected(evicted.error());
            return rejected(QStringLiteral("Peer %1 is not running (%2)").arg(toId, reason));
        }
        if (m_liveTargets.size() >= 4096) // bounded: entries of long-gone peers
            m_liveTargets.clear();
        m_liveTargets.insert(toId, m_clock.monotonicMs());
    }

    NewMessage message;
    message.fromId = fromId;
    message.toId = toId;
    message.text = text;
    message.type = content.type;
    message.metadata = content.metadata;
    message.replyTo = replyTo;
    const QString sentAt = nowIso();
    auto id = m_store.insertMessage(message, sentAt);
    if (!id)
        return std::unexpected(id.error());
    qCDebug(lcApi).noquote() << "Stored message" << *id << fromId << "->" << toId;
    emitStored(*id, message, sentAt);
    return *id;
}

Result<qint64> Service::storeRelayed(const QString &fromId, const QString &toId, const QString &text,
                                     const QString &type, const QJsonValue &metadata,
                                     std::optional<qint64> replyTo)
{
    const auto refuse = [](ErrorKind kind, int status, const QString &message) {
        return std::unexpected(Error {kind, message, status});
    };
    auto target = m_store.peer(toId);
    if (!target)
        return std::unexpected(target.error());
    if (!target->has_value())
        return refuse(ErrorKind::NotFound, 404, QStringLiteral("Peer %1 not found locally").arg(toId));
    const QString reason = staleReason(**target);
    if (!reason.isEmpty()) {
        if (auto evicted = evict(**target, reason); !evicted)
            return std::unexpected(evicted.error());
        return refuse(ErrorKind::Gone, 410, QStringLiteral("Peer %1 is not running").arg(toId));
    }
    // Unknown types become "text" (docs/spec/peers-api.md §4.4 step 4); metadata and size as for local sends.
    const QString effectiveType = messageTypeFromName(type) ? type : QStringLiteral("text");
    auto content = validateContent(QJsonValue(effectiveType), metadata, text, QStringLiteral("text"),
                                   TypeErrorStyle::Quoted);
    if (!content)
        return refuse(ErrorKind::BadRequest, 400, content.error().message);

    NewMessage message;
    message.fromId = fromId;
    message.toId = toId;
    message.text = text;
    message.type = content->type;
    message.metadata = content->metadata;
    message.replyTo = replyTo; // refers to the sender's database: not checked here
    const QString sentAt = nowIso();
    auto id = m_store.insertMessage(message, sentAt);
    if (!id)
        return std::unexpected(id.error());
    emitStored(*id, message, sentAt);
    return *id;
}

void Service::broadcast(const QString &fromId, const QString &text, const Content &content,
                        const QString &scope, const QString &cwd, const QString &gitRoot,
                        std::function<void(Result<BroadcastResult>)> done)
{
    auto peers = listPeers(scope, cwd, gitRoot, fromId);
    if (!peers) {
        done(std::unexpected(peers.error()));
        return;
    }
    QList<NewMessage> local;
    QList<Peer> remote;
    for (const Peer &peer : std::as_const(*peers)) {
        if (peer.isRemote()) {
            remote.append(peer);
            continue;
        }
        NewMessage message;
        message.fromId = fromId;
        message.toId = peer.id;
        message.text = text;
        message.type = content.type;
        message.metadata = content.metadata;
        local.append(message);
    }

    auto result = std::make_shared<BroadcastResult>();
    result->recipients = int(local.size() + remote.size());
    if (!local.isEmpty()) {
        const QString sentAt = nowIso();
        auto ids = m_store.insertMessages(local, sentAt);
        if (!ids) {
            done(std::unexpected(ids.error()));
            return;
        }
        result->messageIds = *ids;
        for (qsizetype i = 0; i < ids->size() && i < local.size(); ++i)
            emitStored(ids->at(i), local.at(i), sentAt);
    }
    qCInfo(lcApi).noquote() << "Broadcast from" << fromId << "to" << result->recipients << "peer(s) in scope"
                            << scope
                            << QStringLiteral("(%1 local, %2 remote)").arg(local.size()).arg(remote.size());
    if (remote.isEmpty() || !m_federation.isEnabled()) {
        done(*result);
        return;
    }
    // Relays run in parallel; the answer waits for all of them (docs/spec/peers-api.md §3.13).
    auto pending = std::make_shared<qsizetype>(remote.size());
    for (const Peer &peer : std::as_const(remote)) {
        RemoteMessage message;
        message.toId = peer.id;
        message.fromId = fromId;
        message.text = text;
        message.type = content.type;
        message.metadata = content.metadata;
        const QString toId = peer.id;
        m_federation.sendToRemote(message, [result, pending, done, toId](Result<QJsonObject> relayed) {
            if (relayed)
                result->messageIds.append(-1);
            else
                qCWarning(lcApi).noquote()
                    << "broadcast relay to" << toId << "failed:" << relayed.error().message;
            if (--*pending == 0)
                done(*result);
        });
    }
}

Result<QList<Message>> Service::undelivered(const QString &peerId, int limit, qint64 afterId) const
{
    return m_store.undelivered(peerId, limit, afterId, Store::maxListBytes);
}

Result<int> Service::acknowledge(const QString &peerId, const QList<qint64> &ids)
{
    if (ids.isEmpty())
        return 0;
    QList<qint64> unique;
    unique.reserve(ids.size());
    QSet<qint64> seen;
    for (qint64 id : ids) {
        if (!seen.contains(id)) {
            seen.insert(id);
            unique.append(id);
        }
    }
    auto acked = m_store.acknowledge(peerId, unique);
    if (!acked)
        return std::unexpected(acked.error());
    if (*acked == 0)
        return 0;
    if (*acked == unique.size()) { // the usual case: every id was this peer's pending message
        for (qint64 id : std::as_const(unique))
            Q_EMIT messageDelivered(id);
        return *acked;
    }
    // Some ids were not ours or already delivered: tell only about this peer's messages.
    for (qint64 id : std::as_const(unique)) {
        auto message = m_store.message(id);
        if (message && message->has_value() && (*message)->toId == peerId && (*message)->delivered)
            Q_EMIT messageDelivered(id);
    }
    return *acked;
}

QString Service::staleReason(const Peer &peer) const
{
    if (peer.isRemote())
        return {};
    if (!m_liveness.isProcessAlive(peer.pid))
        return QStringLiteral("PID %1 dead").arg(peer.pid);
    if (m_heartbeatTimeoutMs > 0) {
        // Not last_seen: that is wall-clock time, which jumps (issue 7 §1.6).
        const qint64 silentMs = m_silence.silentMs(peer.id);
        if (silentMs > m_heartbeatTimeoutMs)
            return QStringLiteral("no heartbeat for %1 s").arg(silentMs / 1000);
    }
    return {};
}

void Service::emitStored(qint64 id, const NewMessage &stored, const QString &sentAt)
{
    Message message;
    message.id = id;
    message.fromId = stored.fromId;
    message.toId = stored.toId;
    message.text = stored.text;
    message.type = stored.type.isEmpty() ? QStringLiteral("text") : stored.type;
    message.metadata = stored.metadata;
    message.replyTo = stored.replyTo;
    message.sentAt = sentAt;
    Q_EMIT messageStored(message);
}

bool Service::isGone(const Peer &peer) const
{
    return !staleReason(peer).isEmpty();
}

bool Service::senderCanTakeBounce(const QString &fromId, const QString &except) const
{
    if (!Bounce::senderMayReceiveBounce(fromId) || fromId == except)
        return false;
    auto sender = m_store.peer(fromId);
    return sender && sender->has_value() && staleReason(**sender).isEmpty();
}

Result<void> Service::storeBounce(const Message &original, const QString &target)
{
    NewMessage bounce;
    bounce.fromId = QStringLiteral("system");
    bounce.toId = original.fromId;
    bounce.text = Bounce::text(original.id, target, original.text);
    bounce.type = QStringLiteral("text");
    bounce.replyTo = original.id;
    const QString sentAt = nowIso();
    auto id = m_store.insertMessage(bounce, sentAt);
    if (!id)
        return std::unexpected(id.error());
    qCInfo(lcMaintenance).noquote() << "Bounced message" << original.id << "to" << original.fromId << "as"
                                    << *id;
    emitStored(*id, bounce, sentAt);
    return {};
}

Result<void> Service::evict(const Peer &peer, const QString &reason)
{
    auto pending = m_store.undelivered(peer.id);
    if (!pending)
        return std::unexpected(pending.error());
    for (const Message &message : std::as_const(*pending)) {
        if (!senderCanTakeBounce(message.fromId, peer.id))
            continue;
        if (auto bounced = storeBounce(message, peer.displayName()); !bounced)
            return bounced;
    }
    if (auto deleted = m_store.deleteUndeliveredFor(peer.id); !deleted)
        return std::unexpected(deleted.error());
    auto removed = m_store.removePeer(peer.id);
    if (!removed)
        return std::unexpected(removed.error());
    qCInfo(lcMaintenance).noquote() << "Removed peer" << peer.id << "(" << reason << ")," << pending->size()
                                    << "pending message(s) dropped";
    Q_EMIT peerRemoved(peer.id);
    return {};
}

Result<int> Service::sweepStalePeers()
{
    auto peers = m_store.peers();
    if (!peers)
        return std::unexpected(peers.error());
    int removed = 0;
    for (const Peer &peer : std::as_const(*peers)) {
        const QString reason = staleReason(peer);
        if (reason.isEmpty())
            continue;
        if (auto evicted = evict(peer, reason); !evicted)
            return std::unexpected(evicted.error());
        ++removed;
    }
    return removed;
}

Result<int> Service::sweepOrphans()
{
    auto orphans = m_store.orphans();
    if (!orphans)
        return std::unexpected(orphans.error());
    if (orphans->isEmpty())
        return 0;
    QList<qint64> ids;
    ids.reserve(orphans->size());
    for (const Message &message : std::as_const(*orphans)) {
        ids.append(message.id);
        if (!senderCanTakeBounce(message.fromId, message.toId))
            continue;
        if (auto bounced = storeBounce(message, message.toId); !bounced)
            return std::unexpected(bounced.error());
    }
    auto deleted = m_store.deleteMessages(ids);
    if (!deleted)
        return std::unexpected(deleted.error());
    qCInfo(lcMaintenance) << "Removed" << *deleted << "orphaned message(s)";
    return *deleted;
}

Result<int> Service::purgeDelivered(qint64 retentionMs)
{
    const QString cutoff = Clock::toIso(m_clock.now().addMSecs(-retentionMs));
    auto purged = m_store.purgeDeliveredBefore(cutoff);
    if (purged && *purged > 0)
        qCInfo(lcMaintenance) << "Purged" << *purged << "delivered message(s) older than" << cutoff;
    return purged;
}

} // namespace Broker
