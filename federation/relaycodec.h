#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QString>

#include <expected>
#include <optional>

namespace Federation {

// A relay as we send it (reference §6.4 plus ts, nonce and to_machine, which 0.7 receivers
// verify with the rest since the HMAC covers every top-level field).
struct OutboundRelay
{
    QString fromId; // "<our hostname>:<sender>"
    QString fromMachine;
    QString toId; // the peer on the remote, without its hostname
    QString text;
    QString type = QStringLiteral("text");
    std::optional<QJsonObject> metadata; // null when absent
    std::optional<qint64> replyTo;
    qint64 ts = 0; // Unix ms
    QString nonce; // 128 random bits, base64url
    QString toMachine;
};

// A relay body whose HMAC is right, with the replay fields it carried.
struct VerifiedRelay
{
    QJsonObject body; // every field, signature removed
    std::optional<qint64> ts;
    QString nonce;
    QString toMachine; // empty when absent (0.7 senders)
    bool hasReplayFields() const { return ts.has_value() && !nonce.isEmpty(); }
};

namespace RelayCodec {

// The body on the wire, "signature" last, signed with the PSK's bytes.
QByteArray sign(const OutboundRelay &relay, QByteArrayView psk);
// An error (in words, for the log) when the body is not a JSON object or the signature is
// missing or wrong.
std::expected<VerifiedRelay, QString> verify(const QByteArray &body, QByteArrayView psk);
// 22 characters of base64url from 16 random bytes.
QString makeNonce();

} // namespace RelayCodec

} // namespace Federation
