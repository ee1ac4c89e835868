#pragma once

#include "federation/orderedjson.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <expected>
#include <optional>

namespace Federation {

// The message a relay carries (docs/spec/peers-api.md §4.4, §6.4), as the sender gives it.
struct RelayMessage
{
    QString fromId; // "<sender hostname>:<sender peer id>"
    QString fromMachine; // the sender's hostname
    QString toId; // the local peer id on the receiving broker
    QString text;
    QString type = QStringLiteral("text"); // one of the five types; anything else reads as "text"
    JsonValue metadata; // null or an object (checkContent says which it is)
    std::optional<qint64> replyTo; // a message id in the *sender's* database
};

// What our brokers add inside the signed body so that a receiver can refuse replays
// (docs/spec/federation-security.md §3). 0.7 receivers verify them like any other field and ignore them.
struct RelayReplay
{
    qint64 tsMs = 0; // Unix time in milliseconds, as JavaScript's Date.now()
    QString nonce; // 128 random bits, base64url without padding (22 characters)
    QString toMachine; // the receiving broker's hostname: a relay for B does not verify on C

    // A fresh nonce (QRandomGenerator::system()) for a relay sent at nowMs.
    static RelayReplay fresh(qint64 nowMs, const QString &toMachine);
};

struct RelayError
{
    enum class Kind {
        TooLarge, // the body is over RelayEnvelope::maxBodyBytes (413)
        Malformed, // not JSON, or not an object (0.7: 500)
        BadSignature, // signature missing, empty or wrong: 403 {"error":"Invalid HMAC signature"}
        MissingField, // a required field is absent or null, or the replay fields are incomplete
        BadField, // a field of the wrong type or form
        StaleTimestamp, // ts outside the window around now
        WrongMachine, // to_machine is another broker's hostname
        LegacyRefused, // no replay fields, and legacy relays are not accepted
        MetadataNotObject, // checkContent: 400 {"ok":false,"error":"metadata must be a JSON object"}
        ContentTooLarge, // checkContent: 400 {"ok":false,"error":"Message too large (text + metadata max
                         // 10KB)"}
    };
    Kind kind = Kind::Malformed;
    QString message; // plain words; for the two checkContent kinds, 0.7's exact error string
    QString field; // the field at fault, when there is one
};

struct RelayVerifyOptions
{
    QByteArray key; // the PSK string's UTF-8 bytes
    qint64 nowMs = 0; // the receiver's clock (injected)
    QString localMachine; // our hostname; empty: to_machine is not compared
    bool acceptLegacy = true; // federation.accept_legacy: relays without replay fields (0.7 senders)
    qint64 windowMs = 300 * 1000; // |now - ts| allowed
};

// A /federation/relay body that was parsed and whose signature verified.
struct RelayEnvelope
{
    // Every network input has a limit. A relay's text + compact metadata is at most 10240 UTF-16
    // code units (docs/spec/peers-api.md §11.4); written as JSON that is at most 6 bytes per unit
    // ("\u0001"), so 60 KiB, plus ids, names and the signature: 128 KiB holds any relay 0.7 can send.
    static constexpr qsizetype maxBodyBytes = 128 * 1024;
    static constexpr int maxDepth = 64;
    static constexpr qsizetype maxContentSize = 10240; // docs/spec/peers-api.md §11.4, UTF-16 code units

    RelayMessage message;
    std::optional<RelayReplay> replay; // absent: a legacy (0.7) relay
    JsonObject body; // the whole body as received, unknown fields included (all signed)

    bool isLegacy() const { return !replay.has_value(); }

    // 0.7's content rules, to run after the target peer was found
    // (docs/spec/peers-api.md §4.4 steps 5–6): metadata null or an object, and
    // text + JSON.stringify(metadata) at most 10240 UTF-16 code units.
    std::expected<void, RelayError> checkContent() const;
    // text.length + JSON.stringify(metadata).length, as 0.7 counts it.
    qsizetype contentSize() const;
};

// The body to POST to /federation/relay: 0.7's field order (from_id, from_machine, to_id, text,
// type, metadata, reply_to), then ts, nonce and to_machine when given, then the signature over
// all of them (RelaySignature, docs/spec/peers-api.md §6.5).
QByteArray signRelay(const RelayMessage &message, const std::optional<RelayReplay> &replay,
                     QByteArrayView key);

// Reads a received body and checks it in 0.7's order: size, JSON, signature (403 before any
// field is looked at), then the fields, then the replay fields: all three or none; with them,
// ts within the window and to_machine ours; without them, LegacyRefused unless acceptLegacy.
// The nonce-seen check is the caller's (its store outlives the process).
std::expected<RelayEnvelope, RelayError> verifyRelay(QByteArrayView body, const RelayVerifyOptions &options);

} // namespace Federation
