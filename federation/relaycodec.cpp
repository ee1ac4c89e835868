#include "relaycodec.h"

#include "inboundhandler.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

// INTERIM until fedcore's canonical JSON lands: Qt's sorted-key JSON stands in for §6.5's
// canonical form. Between two of our brokers both sides agree; byte-exact interop with 0.7
// (nested key order, number formatting) needs fedcore's serializer.
namespace Federation::RelayCodec {

namespace {

QByteArray hmacHex(const QByteArray &message, QByteArrayView psk)
{
    return QMessageAuthenticationCode::hash(message, psk.toByteArray(), QCryptographicHash::Sha256).toHex();
}

QJsonObject fields(const OutboundRelay &relay)
{
    return {{QStringLiteral("from_id"), relay.fromId},
            {QStringLiteral("from_machine"), relay.fromMachine},
            {QStringLiteral("to_id"), relay.toId},
            {QStringLiteral("text"), relay.text},
            {QStringLiteral("type"), relay.type},
            {QStringLiteral("metadata"), relay.metadata ? QJsonValue(*relay.metadata) : QJsonValue()},
            {QStringLiteral("reply_to"), relay.replyTo ? QJsonValue(*relay.replyTo) : QJsonValue()},
            {QStringLiteral("ts"), relay.ts},
            {QStringLiteral("nonce"), relay.nonce},
            {QStringLiteral("to_machine"), relay.toMachine}};
}

} // namespace

QByteArray sign(const OutboundRelay &relay, QByteArrayView psk)
{
    QJsonObject body = fields(relay);
    const QByteArray signature = hmacHex(QJsonDocument(body).toJson(QJsonDocument::Compact), psk);
    body.insert(QStringLiteral("signature"), QString::fromLatin1(signature));
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

std::expected<VerifiedRelay, QString> verify(const QByteArray &body, QByteArrayView psk)
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    if (!document.isObject())
        return std::unexpected(QStringLiteral("the body is not a JSON object"));
    VerifiedRelay relay;
    relay.body = document.object();
    const QByteArray signature = relay.body.take(QStringLiteral("signature")).toString().toLatin1();
    if (signature.isEmpty())
        return std::unexpected(QStringLiteral("no signature"));
    if (!sameSecret(signature, hmacHex(QJsonDocument(relay.body).toJson(QJsonDocument::Compact), psk)))
        return std::unexpected(QStringLiteral("the signature does not match"));
    const QJsonValue ts = relay.body.value(QStringLiteral("ts"));
    if (ts.isDouble())
        relay.ts = qint64(ts.toDouble());
    relay.nonce = relay.body.value(QStringLiteral("nonce")).toString();
    relay.toMachine = relay.body.value(QStringLiteral("to_machine")).toString();
    return relay;
}

QString makeNonce()
{
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(words), sizeof words)
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace Federation::RelayCodec
