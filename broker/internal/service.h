#pragma once

#include "broker/internal/privateheader.h"

#include "broker/internal/peersilence.h"
#include "common/dto.h"
#include "common/liveness.h"
#include "common/result.h"
#include "common/wire.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>

#include <functional>
#include <optional>

namespace Broker {

class Clock;
class FederationLink;
class Store;
struct NewMessage;

// The broker's rules, free of HTTP: registration, liveness, sending, broadcast, the sweeps.
// Failures that the reference answers as HTTP 200 {"ok":false,"error":…} come back as an
// Error with httpStatus 0 and the reference's exact text; database failures carry code
// "database".
class Service : public QObject
{
    Q_OBJECT
public:
    Service(Store &store, const Clock &clock, FederationLink &federation, QObject *parent = nullptr);

    // Liveness beyond the PID: a peer silent longer than this is gone (0 = PID only). Silence
    // is measured on monotonic time from the later of the peer's last request and the broker
    // start, a wall-clock jump or a pause of the broker (PeerSilence), so peers survive a
    // restart or hand-over, a suspend and an NTP step that took longer than the timeout.
    void setHeartbeatTimeoutMs(qint64 ms) { m_heartbeatTimeoutMs = ms; }
    qint64 heartbeatTimeoutMs() const { return m_heartbeatTimeoutMs; }
    // Looks at the clocks now (the host runs it on a timer) and sets how long the broker's own
    // event loop may stand still before that counts as a pause.
    void observeClocks() { m_silence.observe(); }
    void setPauseThresholdMs(qint64 ms) { m_silence.setPauseThresholdMs(ms); }
    // How long a send target found alive is trusted (see isKnownLiveTarget()).
    static constexpr qint64 liveTargetCacheMs = 1000;

    using Registration = RegisterRequest; // its fields as /register carries them
    struct Registered
    {
        Peer peer;
        QByteArray sessionSecret;
    };
    // docs/spec/peers-api.md §3.6, except that a live session of another process is never replaced: when
    // the id the request derives (requested id, else the tty's) belongs to one, the newcomer
    // gets a fresh random id, and live sessions on the same tty are not evicted as zombies.
    Result<Registered> registerPeer(const Registration &request);
    // [A-Za-z0-9_-]{1,64}: what a requested id may be (no ':', which marks remote peers).
    static bool isValidRequestedId(const QString &id);

    Result<bool> touch(const QString &peerId); // last_seen = now; false if unknown
    Result<void> setSummary(const QString &peerId, const QString &summary);
    Result<void> setSessionName(const QString &peerId, const QString &name);
    // Unknown states and delivery paths are ignored; an empty delivery keeps the stored one.
    Result<void> setChannelPush(const QString &peerId, const QString &state, const QString &delivery = {});
    // 404 (NotFound) when no peer has the id.
    Result<void> setAttention(const QString &peerId, Attention state, const QString &message);
    Result<void> unregisterPeer(const QString &peerId);

    // docs/spec/peers-api.md §3.11: scope selection, exclude, liveness prune, remote peers for "lan".
    Result<QList<Peer>> listPeers(const QString &scope, const QString &cwd, const QString &gitRoot,
                                  const QString &excludeId);

    // Type, metadata and size checks of docs/spec/peers-api.md §3.12 steps 1–3 (shared with /broadcast).
    struct Content
    {
        QString type;
        std::optional<QJsonObject> metadata;
    };
    enum class TypeErrorStyle { Quoted, Bare }; // /send-message quotes the type, /broadcast not
    static Result<Content> validateContent(const QJsonValue &type, const QJsonValue &metadata,
                                           const QString &text, const QString &defaultType,
                                           TypeErrorStyle style);
    static qsizetype contentSize(const QString &text, const std::optional<QJsonObject> &metadata);

    Result<qint64> sendMessage(const QString &fromId, const QString &toId, const QString &text,
                               const Content &content, std::optional<qint64> replyTo);

    // A message relayed from another machine (docs/spec/peers-api.md §4.4 steps 2–7, but a dead target is
    // refused whatever the sender, §13.1 #20). Errors carry the federation status: 404 unknown
    // peer, 410 dead peer, 400 bad metadata or size.
    Result<qint64> storeRelayed(const QString &fromId, const QString &toId, const QString &text,
                                const QString &type, const QJsonValue &metadata,
                                std::optional<qint64> replyTo);

    struct BroadcastResult
    {
        int recipients = 0;
        QList<qint64> messageIds; // -1 for every successful remote relay (docs/spec/peers-api.md §3.13)
    };
    void broadcast(const QString &fromId, const QString &text, const Content &content, const QString &scope,
                   const QString &cwd, const QString &gitRoot,
                   std::function<void(Result<BroadcastResult>)> done);

    // For an answer: bounded by Store::maxListBytes; only ids above afterId.
    Result<QList<Message>> undelivered(const QString &peerId, int limit = -1, qint64 afterId = 0) const;
    // Marks the peer's own pending messages delivered and emits messageDelivered for them (when
    // some ids were not pending, an id acknowledged twice may be reported again).
    Result<int> acknowledge(const QString &peerId, const QList<qint64> &ids);

    // True when the PID is dead or the heartbeat timed out.
    bool isGone(const Peer &peer) const;
    // Bounces the peer's pending messages to live senders, deletes them and the peer row.
    Result<void> evict(const Peer &peer, const QString &reason);

    // Periodic jobs (docs/spec/peers-api.md §11.8–11.10).
    Result<int> sweepStalePeers();
    Result<int> sweepOrphans();
    Result<int> purgeDelivered(qint64 retentionMs);

    Store &store() { return m_store; }
    const Clock &clock() const { return m_clock; }

Q_SIGNALS:
    void peerRegistered(const QString &peerId);
    void peerUpdated(const QString &peerId);
    void peerRemoved(const QString &peerId);
    // Carries the row as /wait-messages answers it, so a held wait is answered without
    // reading it back.
    void messageStored(const Broker::Message &message);
    void messageDelivered(qint64 messageId);

private:
    // A peer's field was set: peerUpdated when the row changed, the store's error as it is.
    Result<void> announceIfChanged(const QString &peerId, const Result<bool> &changed);
    void emitStored(qint64 id, const NewMessage &message, const QString &sentAt);
    QString staleReason(const Peer &peer) const; // empty when alive
    // Send targets found registered and alive less than liveTargetCacheMs ago skip the row
    // lookup and the kill(pid, 0) (they were a fifth of a send's cost). Registration and
    // removal through this Service drop the entry at once; a target that died meanwhile is
    // noticed by the next send after the second, its messages bounced like any dead peer's.
    bool isKnownLiveTarget(const QString &peerId) const;
    // m_clock.nowIso(), formatted once per millisecond (QDateTime::toString was ~5% of a send).
    QString nowIso() const;
    bool senderCanTakeBounce(const QString &fromId, const QString &except) const;
    Result<void> storeBounce(const Message &original, const QString &target);

    Store &m_store;
    const Clock &m_clock;
    FederationLink &m_federation;
    qint64 m_heartbeatTimeoutMs = 60000;
    mutable PeerSilence m_silence;
    mutable Liveness::Checker m_liveness; // asked for every listed peer and uncached send target
    QHash<QString, qint64> m_liveTargets; // peer id → monotonic ms when found alive
    mutable QString m_isoCache;
    mutable qint64 m_isoCacheMs = 0;
};

} // namespace Broker
