#pragma once

#include "common/dto.h"
#include "common/result.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Broker {

// The requests and answers of the local HTTP API (docs/spec/peers-api.md §3, docs/protocol.md), one struct
// each, shared by both sides: a front end builds a request with toJson(), the broker reads it
// with fromJson() — which is the broker's validation: the reference's 400 'Field "x" must be …'
// (ErrorKind::BadRequest) for the first bad field, integers also as decimal strings, labels
// capped. The broker writes its answers with the answer's toJson() (or bytes a test compares
// with it); the client reads them with fromJson().
//
// Every request names its path and its answer type, so BrokerApi::call() is typed end to end.
// An empty string stands for an absent optional field unless the struct says otherwise.

namespace Wire {
// A peer's summary and session name, in UTF-8 bytes: bounds every /list-peers answer
// (docs/divergences.md).
inline constexpr qsizetype maxLabelBytes = 2048;
// The MCP client's name a registration may carry (longer names are cut).
inline constexpr qsizetype maxClientNameChars = 64;
} // namespace Wire

// {"ok":true}, or a rule's refusal {"ok":false,"error"}: /heartbeat, /set-*, /ack-messages,
// /unregister.
struct OkAnswer
{
    bool ok = true;
    QString error;

    QJsonObject toJson() const;
    static Result<OkAnswer> fromJson(const QJsonObject &object);
};

// ---- Peers ------------------------------------------------------------------------------

struct RegisterAnswer
{
    QString id;
    QString sessionName; // the name the broker kept for this id; empty = none
    QString sessionSecret; // ours: empty from a 0.7 broker
    QString databaseId; // ours

    QJsonObject toJson() const;
    static Result<RegisterAnswer> fromJson(const QJsonObject &object);
};

struct RegisterRequest
{
    static constexpr const char *path = "/register";
    using Answer = RegisterAnswer;

    qint64 pid = 0;
    QString cwd;
    QString gitRoot; // null on the wire when empty
    QString tty; // null on the wire when empty
    QString sessionName;
    QString summary;
    QString version;
    QString requestedId; // ours: the id the session asks for (CLAUDE_PEERS_ID, tty-less helpers)
    QString client; // ours: the MCP client's name

    QJsonObject toJson() const;
    static Result<RegisterRequest> fromJson(const QJsonObject &object);
};

// {"id"}: the body of /heartbeat, /unregister and /poll-messages.
struct PeerIdBody
{
    QString id;

    QJsonObject toJson() const;
    static Result<PeerIdBody> fromJson(const QJsonObject &object);
};

struct HeartbeatRequest : PeerIdBody
{
    static constexpr const char *path = "/heartbeat";
    using Answer = OkAnswer;
};

struct UnregisterRequest : PeerIdBody
{
    static constexpr const char *path = "/unregister";
    using Answer = OkAnswer;
};

struct SetSummaryRequest
{
    static constexpr const char *path = "/set-summary";
    using Answer = OkAnswer;

    QString id;
    QString summary;

    QJsonObject toJson() const;
    static Result<SetSummaryRequest> fromJson(const QJsonObject &object);
};

struct SetNameRequest
{
    static constexpr const char *path = "/set-name";
    using Answer = OkAnswer;

    QString id;
    QString sessionName;

    QJsonObject toJson() const;
    static Result<SetNameRequest> fromJson(const QJsonObject &object);
};

struct SetChannelPushRequest
{
    static constexpr const char *path = "/set-channel-push";
    using Answer = OkAnswer;

    QString id;
    QString status; // unknown / unverified / working
    // Ours (Peer::delivery): channel / inbox / banner; empty = not said, the stored one stays.
    QString delivery;

    QJsonObject toJson() const;
    static Result<SetChannelPushRequest> fromJson(const QJsonObject &object);
};

// Ours: a session's attention state, from its Claude Code hooks (docs/protocol.md). The state
// is one of attentionNames() (400 otherwise); "unknown" clears it. Setting the state a peer is
// already in keeps the time it entered it and replaces the message.
struct SetAttentionRequest
{
    static constexpr const char *path = "/set-attention";
    using Answer = OkAnswer;

    QString id;
    Attention state = Attention::Unknown;
    QString message; // optional; at most Wire::maxLabelBytes

    QJsonObject toJson() const;
    static Result<SetAttentionRequest> fromJson(const QJsonObject &object);
};

// A JSON array on the wire.
struct ListPeersAnswer
{
    QList<Peer> peers;

    QJsonArray toJson() const;
    static Result<ListPeersAnswer> fromJson(const QJsonArray &array);
};

struct ListPeersRequest
{
    static constexpr const char *path = "/list-peers";
    using Answer = ListPeersAnswer;

    QString scope; // machine / directory / repo / lan
    QString cwd;
    QString gitRoot; // null on the wire when empty
    QString excludeId;

    QJsonObject toJson() const;
    static Result<ListPeersRequest> fromJson(const QJsonObject &object);
};

// ---- Messages ---------------------------------------------------------------------------

struct SendMessageAnswer
{
    bool ok = true;
    qint64 messageId = 0;
    QString error; // why not, when !ok

    QJsonObject toJson() const;
    // What toJson() gives, written without QJsonDocument (the broker's hot path).
    QByteArray toCompactJson() const;
    static Result<SendMessageAnswer> fromJson(const QJsonObject &object);
};

// type and metadata are checked by the broker after the fields (a bad type or metadata is a
// rule's refusal, 200 {"ok":false}, not a 400), so they travel as given.
struct SendMessageRequest
{
    static constexpr const char *path = "/send-message";
    using Answer = SendMessageAnswer;

    QString fromId;
    QString toId;
    QString text;
    std::optional<QString> type; // absent = "text"
    QJsonValue metadata; // an object; null (the default) or undefined for none
    std::optional<qint64> replyTo;

    QJsonObject toJson() const;
    static Result<SendMessageRequest> fromJson(const QJsonObject &object);
};

struct BroadcastAnswer
{
    bool ok = true;
    qint64 recipients = 0;
    QList<qint64> messageIds;
    QString error; // why not, when !ok

    QJsonObject toJson() const;
    static Result<BroadcastAnswer> fromJson(const QJsonObject &object);
};

struct BroadcastRequest
{
    static constexpr const char *path = "/broadcast";
    using Answer = BroadcastAnswer;

    QString fromId;
    QString text;
    std::optional<QString> type; // absent = "broadcast"
    QJsonValue metadata; // an object; null (the default) or undefined for none
    QString scope;
    QString cwd;
    QString gitRoot; // null on the wire when empty

    QJsonObject toJson() const;
    static Result<BroadcastRequest> fromJson(const QJsonObject &object);
};

// {"messages":[…]}: /poll-messages, /wait-messages, /messages.
struct MessagesAnswer
{
    QList<Message> messages;

    QJsonObject toJson() const; // delivered as 0/1, as the reference's poll
    static Result<MessagesAnswer> fromJson(const QJsonObject &object);
};

struct PollMessagesRequest : PeerIdBody
{
    static constexpr const char *path = "/poll-messages";
    using Answer = MessagesAnswer;
};

struct AckMessagesRequest
{
    static constexpr const char *path = "/ack-messages";
    using Answer = OkAnswer;

    QString id;
    QList<qint64> messageIds;

    QJsonObject toJson() const;
    static Result<AckMessagesRequest> fromJson(const QJsonObject &object);
};

// Ours: the push stream's long-poll (docs/protocol.md).
struct WaitMessagesRequest
{
    static constexpr const char *path = "/wait-messages";
    using Answer = MessagesAnswer;

    QString id;
    QList<qint64> ack; // acknowledged before waiting
    std::optional<qint64> timeoutMs; // absent = the broker's default; clamped by the broker
    std::optional<qint64> afterId; // only messages with a larger id

    QJsonObject toJson() const;
    static Result<WaitMessagesRequest> fromJson(const QJsonObject &object);
};

struct MessageStatusAnswer
{
    qint64 id = 0;
    QString fromId;
    QString toId;
    bool delivered = false;
    QString sentAt;

    QJsonObject toJson() const;
    static Result<MessageStatusAnswer> fromJson(const QJsonObject &object);
};

struct MessageStatusRequest
{
    static constexpr const char *path = "/message-status";
    using Answer = MessageStatusAnswer;

    qint64 messageId = 0;

    QJsonObject toJson() const;
    static Result<MessageStatusRequest> fromJson(const QJsonObject &object);
};

// When the broker handed a message to its recipient (ours, docs/protocol.md "/messages"): the
// first answer of the recipient's /wait-messages stream ("stream") or of /poll-messages
// ("poll") that carried it. Kept in the broker's memory only (the newest 65,536 messages, since
// the broker started), so an empty one means "not known", not "not handed out".
struct MessageHandout
{
    QString at; // ISO-8601 UTC with milliseconds
    QString by; // "stream" or "poll"

    bool isKnown() const { return !at.isEmpty(); }
    bool operator==(const MessageHandout &) const = default;
};

// The /messages answer: delivered as true/false (docs/protocol.md), "pushed_at"/"pushed_by"
// when the broker knows the message's handout, and "more" when more messages match than the
// answer holds (the limit or the size bound cut it; ask again with before_id / after_id).
struct HistoryAnswer : MessagesAnswer
{
    QHash<qint64, MessageHandout> handouts; // by message id; absent = not known
    bool more = false;

    QJsonObject toJson() const;
    static Result<HistoryAnswer> fromJson(const QJsonObject &object);
};

// Ours: the broker-wide message log (main token; docs/protocol.md). Every filter is optional;
// together they narrow (AND).
struct HistoryRequest
{
    static constexpr const char *path = "/messages";
    using Answer = HistoryAnswer;
    // Bounds of a request (400 above them).
    static constexpr qsizetype maxFilterBytes = 2048; // each string filter, UTF-8
    static constexpr qsizetype maxIds = 500;

    QString from; // substring of from_id
    QString to; // substring of to_id
    QString since; // ISO-8601
    QString search; // substring of the text
    std::optional<qint64> limit; // absent = 20; clamped to 1..1000 by the broker
    // Paging by id: only ids below beforeId / above afterId.
    std::optional<qint64> beforeId;
    std::optional<qint64> afterId;
    bool ascending = false; // "order":"asc" (oldest first); default "desc" (newest first)
    QString peer; // exact id: messages from or to this peer
    QString with; // exact id, needs peer: only the thread between peer and with (both ways)
    QList<qint64> ids; // only these messages (at most maxIds): a client refreshing their state

    QJsonObject toJson() const;
    static Result<HistoryRequest> fromJson(const QJsonObject &object);
};

// ---- Broker ------------------------------------------------------------------------------

// GET /health. A 0.7 broker says only status and peers: the rest is then absent.
struct HealthAnswer
{
    static constexpr const char *path = "/health";

    QString status; // "ok"
    qint64 peers = 0;
    std::optional<qint64> uptimeMs;
    std::optional<qint64> requestsLastMinute;
    std::optional<qint64> pendingMessages;
    std::optional<qint64> pid;
    QString version;
    QString databaseId;
    std::optional<QStringList> capabilities;

    bool isOk() const { return status == QLatin1String("ok"); }
    bool hasCapability(const QString &name) const { return capabilities && capabilities->contains(name); }

    QJsonObject toJson() const;
    static Result<HealthAnswer> fromJson(const QJsonObject &object);
};

// GET /metrics[?detailed=true] (docs/spec/peers-api.md §3.4, the v0.8.0 branch).
struct MetricsAnswer
{
    static constexpr const char *path = "/metrics";

    struct Messages
    {
        qint64 total = 0;
        qint64 delivered = 0;
        qint64 pending = 0;
        double deliveryRatePct = 100.0;
    };
    struct Federation
    {
        bool enabled = false;
        qint64 remoteCount = 0;
        qint64 remotePeerCount = 0;
    };
    struct PeerRow
    {
        QString id;
        QString name; // session name or id
        QString cwd;
        QString channelPush;
        QString registeredAt;
        QString lastSeen;
    };

    qint64 uptimeSeconds = 0;
    qint64 peerCount = 0;
    Messages messages;
    qint64 requestsPerMinute = 0;
    Federation federation;
    std::optional<QList<PeerRow>> peers; // with ?detailed=true

    QJsonObject toJson() const;
    static Result<MetricsAnswer> fromJson(const QJsonObject &object);
};

struct ShutdownAnswer
{
    bool ok = true;
    qint64 pid = 0; // 0 = not said

    QJsonObject toJson() const;
    static Result<ShutdownAnswer> fromJson(const QJsonObject &object);
};

struct ShutdownRequest
{
    static constexpr const char *path = "/shutdown";
    using Answer = ShutdownAnswer;
    QJsonObject toJson() const { return {}; }
};

struct ReloadAnswer
{
    bool ok = true;
    std::optional<qint64> peers;

    QJsonObject toJson() const;
    static Result<ReloadAnswer> fromJson(const QJsonObject &object);
};

struct ReloadRequest
{
    static constexpr const char *path = "/reload";
    using Answer = ReloadAnswer;
    QJsonObject toJson() const { return {}; }
};

// Where the broker keeps its secrets (POST /secrets; POST /rotate-token adds "ok").
struct SecretsAnswer
{
    struct LocalToken
    {
        QString store; // "keychain" or "file"
        QString where; // the keychain backend's name or the file's path
        QString tokenFile;
        QString note; // empty = none
    };
    std::optional<bool> ok; // set by /rotate-token
    LocalToken localToken;

    bool inKeychain() const { return localToken.store == QLatin1String("keychain"); }

    QJsonObject toJson() const;
    static Result<SecretsAnswer> fromJson(const QJsonObject &object);
};

struct SecretsRequest
{
    static constexpr const char *path = "/secrets";
    using Answer = SecretsAnswer;
    QJsonObject toJson() const { return {}; }
};

struct RotateTokenRequest
{
    static constexpr const char *path = "/rotate-token";
    using Answer = SecretsAnswer;
    QJsonObject toJson() const { return {}; }
};

// ---- Federation ---------------------------------------------------------------------------

// {"ok":true, …what the link says} or {"ok":false,"error"}.
struct FederationAnswer
{
    bool ok = true;
    QString error;
    QJsonObject details; // the other fields

    QJsonObject toJson() const;
    static Result<FederationAnswer> fromJson(const QJsonObject &object);
};

// /federation/connect and /federation/disconnect.
struct FederationRemoteRequest
{
    QString host;
    qint64 port = 0;

    QJsonObject toJson() const;
    static Result<FederationRemoteRequest> fromJson(const QJsonObject &object);
};

struct FederationConnectRequest : FederationRemoteRequest
{
    static constexpr const char *path = "/federation/connect";
    using Answer = FederationAnswer;
};

struct FederationDisconnectRequest : FederationRemoteRequest
{
    static constexpr const char *path = "/federation/disconnect";
    using Answer = FederationAnswer;
};

// /federation/revoke {host, port}: forget a paired broker (link, saved remote, pin) and refuse
// it until it is paired or connected again. Answer details: hostname, fingerprint,
// was_connected, note.
struct FederationRevokeRequest : FederationRemoteRequest
{
    static constexpr const char *path = "/federation/revoke";
    using Answer = FederationAnswer;
};

// /federation/attempts {}: the audit trail. Answer details: attempts (newest first: kind,
// address, hostname, fingerprint, path, status, reason, first_at, last_at, count), refusals,
// revoked (address, hostname, fingerprint, revoked_at).
struct FederationAttemptsRequest
{
    static constexpr const char *path = "/federation/attempts";
    using Answer = FederationAnswer;

    QJsonObject toJson() const { return {}; }
};

struct SendToRemoteRequest
{
    static constexpr const char *path = "/federation/send-to-remote";
    using Answer = FederationAnswer;

    QString toId; // "<hostname>:<peer>"
    QString fromId;
    QString text;
    QString type = QStringLiteral("text");
    std::optional<QJsonObject> metadata;
    std::optional<qint64> replyTo;

    QJsonObject toJson() const;
    // A non-object metadata is a rule's refusal (ErrorKind::Rejected), as the reference's.
    static Result<SendToRemoteRequest> fromJson(const QJsonObject &object);
};

// GET /federation/status (docs/spec/peers-api.md §3.5) with our fields. Unknown fields are ignored; absent
// ones read as their defaults, so a 0.7 broker's answer reads too.
struct FederationStatusAnswer
{
    struct Remote
    {
        QString host;
        qint64 port = 0;
        QString hostname;
        qint64 peerCount = 0;
        QString connectedAt; // ISO-8601
        QString lastSync;
        QString state; // ours: "connected" | "reconnecting" | "evicted" (empty from 0.7)
        QString fingerprint; // ours
        bool legacy = false; // ours: speaks 0.7's PSK header
    };

    bool enabled = false;
    qint64 port = 7900;
    QString subnet;
    QStringList subnets; // ours; [subnet] from 0.7
    QList<Remote> remotes;
    qint64 totalRemotePeers = 0;
    QString hostname; // ours
    QString fingerprint; // ours: this broker's pin
    QString pskSource; // ours: "own" | "local-token-copy"
    std::optional<bool> acceptLegacy; // ours
    QStringList warnings; // ours, plain sentences
    qint64 pending = 0; // ours: pairing requests waiting
    QJsonObject raw; // the answer as received (--json prints it)

    bool pskIsTokenCopy() const { return pskSource == QLatin1String("local-token-copy"); }
    static Result<FederationStatusAnswer> fromJson(const QJsonObject &object);
};

// /federation/token: the join URL of this broker. The broker builds it (it holds the PSK and
// the certificate); host is the address the other machine should dial (empty: the broker picks
// its LAN address), legacy = 0.7's form without the fingerprint.
struct FederationTokenAnswer
{
    bool ok = true;
    QString error;
    QString url; // cpt://host:port;fp=sha256-…/<token>
    QString host;
    qint64 port = 0;
    QString hostname;
    QString fingerprint;

    QJsonObject toJson() const;
    static Result<FederationTokenAnswer> fromJson(const QJsonObject &object);
};

struct FederationTokenRequest
{
    static constexpr const char *path = "/federation/token";
    using Answer = FederationTokenAnswer;

    QString host;
    bool legacy = false;

    QJsonObject toJson() const;
    static Result<FederationTokenRequest> fromJson(const QJsonObject &object);
};

// /federation/join {url}: the broker reads the cpt:// URL, keeps its PSK, pins its fingerprint,
// saves the remote and connects. Answer details: hostname, host, port, fingerprint, sas.
struct FederationJoinRequest
{
    static constexpr const char *path = "/federation/join";
    using Answer = FederationAnswer;

    QString url;

    QJsonObject toJson() const;
    static Result<FederationJoinRequest> fromJson(const QJsonObject &object);
};

// /federation/init: own PSK when there is none or only the token's copy, certificate ensured,
// federation enabled. Answer details: fingerprint, psk_location, url.
struct FederationInitRequest
{
    static constexpr const char *path = "/federation/init";
    using Answer = FederationAnswer;

    std::optional<qint64> port;
    QStringList subnets;

    QJsonObject toJson() const;
    static Result<FederationInitRequest> fromJson(const QJsonObject &object);
};

// /federation/rotate-psk {}: a new random PSK. Answer details: location.
struct FederationRotatePskRequest
{
    static constexpr const char *path = "/federation/rotate-psk";
    using Answer = FederationAnswer;

    QJsonObject toJson() const { return {}; }
};

// /federation/pending {}: pairing requests from hosts that are not pinned yet.
struct FederationPendingAnswer
{
    struct Request
    {
        QString id;
        QString host;
        qint64 port = 0;
        QString hostname;
        QString fingerprint;
        QString sas; // the short code both sides show
        QString receivedAt; // ISO-8601
        QString state; // ours: "pending" | "accepted" | "rejected"
        QString origin; // ours: "code" | "discovery"
    };

    bool ok = true;
    QString error;
    QList<Request> requests;
    QJsonObject raw;

    QJsonObject toJson() const;
    static Result<FederationPendingAnswer> fromJson(const QJsonObject &object);
};

struct FederationPendingRequest
{
    static constexpr const char *path = "/federation/pending";
    using Answer = FederationPendingAnswer;

    QJsonObject toJson() const { return {}; }
};

// /federation/accept {id} and /federation/reject {id}. Answer details: hostname.
struct FederationPairingRequest
{
    QString id;

    QJsonObject toJson() const;
    static Result<FederationPairingRequest> fromJson(const QJsonObject &object);
};

struct FederationAcceptRequest : FederationPairingRequest
{
    static constexpr const char *path = "/federation/accept";
    using Answer = FederationAnswer;
};

struct FederationRejectRequest : FederationPairingRequest
{
    static constexpr const char *path = "/federation/reject";
    using Answer = FederationAnswer;
};

// /federation/pair-code {}: a one-time pairing code of this broker. Answer details: code,
// expires_at, expires_in_s, host, port, hostname, fingerprint.
struct FederationPairCodeRequest
{
    static constexpr const char *path = "/federation/pair-code";
    using Answer = FederationAnswer;

    QJsonObject toJson() const { return {}; }
};

// /federation/pair {host, port, code}: this broker proves the other machine's code to it.
// Answer details: id, hostname, host, port, fingerprint, own_fingerprint, sas.
struct FederationPairRequest
{
    static constexpr const char *path = "/federation/pair";
    using Answer = FederationAnswer;

    QString host;
    qint64 port = 0;
    QString code;

    QJsonObject toJson() const
    {
        return {
            {QStringLiteral("host"), host}, {QStringLiteral("port"), port}, {QStringLiteral("code"), code}};
    }
};

// /federation/pair/confirm {id, wait_ms}: the user compared the code; wait for the other side's
// accept (details: state "pending" | "accepted", hostname, fingerprint).
struct FederationPairConfirmRequest
{
    static constexpr const char *path = "/federation/pair/confirm";
    using Answer = FederationAnswer;

    QString id;
    qint64 waitMs = 20000;

    QJsonObject toJson() const { return {{QStringLiteral("id"), id}, {QStringLiteral("wait_ms"), waitMs}}; }
};

struct FederationPairCancelRequest : FederationPairingRequest
{
    static constexpr const char *path = "/federation/pair/cancel";
    using Answer = FederationAnswer;
};

// /federation/doctor {}: what only the broker can check (its port, certificate, PSK, subnet,
// mDNS daemon, clock skew against each remote), each with a fix line.
struct FederationDoctorAnswer
{
    struct Check
    {
        QString name;
        QString status; // "ok" | "warn" | "fail"
        QString detail;
        QString fix;
    };

    bool ok = true;
    QString error;
    QList<Check> checks;

    QJsonObject toJson() const;
    static Result<FederationDoctorAnswer> fromJson(const QJsonObject &object);
};

struct FederationDoctorRequest
{
    static constexpr const char *path = "/federation/doctor";
    using Answer = FederationDoctorAnswer;

    QJsonObject toJson() const { return {}; }
};

} // namespace Broker
