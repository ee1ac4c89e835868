#include "federation/relayenvelope.h"

#include "federation/canonicaljson.h"
#include "federation/jsonparser.h"
#include "federation/relaysignature.h"

#include <QRandomGenerator>

#include <array>
#include <cmath>

namespace Federation {

namespace {

using Kind = RelayError::Kind;

constexpr qint64 maxSafeInteger = (qint64(1) << 53) - 1;
const QStringList messageTypes = {QStringLiteral("text"), QStringLiteral("query"), QStringLiteral("response"),
                                  QStringLiteral("handoff"), QStringLiteral("broadcast")};

std::unexpected<RelayError> fail(Kind kind, const QString &message, const QString &field = {})
{
    return std::unexpected(RelayError {kind, message, field});
}

std::expected<QString, RelayError> requiredString(const JsonObject &body, const QString &name)
{
    const JsonValue *value = body.find(name);
    if (!value || value->isNull())
        return fail(Kind::MissingField, QStringLiteral("The relay has no \"%1\"").arg(name), name);
    if (!value->isString())
        return fail(Kind::BadField, QStringLiteral("The relay's \"%1\" must be a string").arg(name), name);
    return value->toString();
}

// A whole number within ±(2^53 - 1): a JSON number, or a string of decimal digits (0.7 passed
// reply_to through as the sender's tool call gave it).
std::optional<qint64> wholeNumber(const JsonValue &value)
{
    if (value.isNumber()) {
        const double d = value.toNumber();
        if (std::isfinite(d) && std::trunc(d) == d && std::abs(d) <= double(maxSafeInteger))
            return qint64(d);
        return std::nullopt;
    }
    if (value.isString()) {
        bool ok = false;
        const qint64 n = value.toString().trimmed().toLongLong(&ok);
        if (ok && std::abs(n) <= maxSafeInteger)
            return n;
    }
    return std::nullopt;
}

bool isBase64Url(QStringView s)
{
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') ||
            u == u'-' || u == u'_';
        if (!ok)
            return false;
    }
    return true;
}

std::expected<std::optional<RelayReplay>, RelayError> readReplay(const JsonObject &body)
{
    const JsonValue *ts = body.find(u"ts");
    const JsonValue *nonce = body.find(u"nonce");
    const JsonValue *toMachine = body.find(u"to_machine");
    const int present = int(ts != nullptr) + int(nonce != nullptr) + int(toMachine != nullptr);
    if (present == 0)
        return std::nullopt;
    if (present != 3) {
        const QString missing = !ts ? QStringLiteral("ts")
            : !nonce                ? QStringLiteral("nonce")
                                    : QStringLiteral("to_machine");
        return fail(Kind::MissingField,
                    QStringLiteral("The relay has some replay fields but no \"%1\": ts, nonce and to_machine "
                                   "go together")
                        .arg(missing),
                    missing);
    }
    RelayReplay replay;
    if (!ts->isNumber() || !wholeNumber(*ts) || *wholeNumber(*ts) < 0)
        return fail(Kind::BadField, QStringLiteral("The relay's \"ts\" must be Unix time in milliseconds"),
                    QStringLiteral("ts"));
    replay.tsMs = *wholeNumber(*ts);
    if (!nonce->isString() || nonce->toString().size() < 16 || nonce->toString().size() > 64 ||
        !isBase64Url(nonce->toString()))
        return fail(Kind::BadField,
                    QStringLiteral("The relay's \"nonce\" must be 16 to 64 base64url characters"),
                    QStringLiteral("nonce"));
    replay.nonce = nonce->toString();
    if (!toMachine->isString() || toMachine->toString().isEmpty())
        return fail(Kind::BadField, QStringLiteral("The relay's \"to_machine\" must be a hostname"),
                    QStringLiteral("to_machine"));
    replay.toMachine = toMachine->toString();
    return replay;
}

} // namespace

RelayReplay RelayReplay::fresh(qint64 nowMs, const QString &toMachine)
{
    std::array<quint32, 4> random;
    QRandomGenerator::system()->fillRange(random.data(), random.size());
    const QByteArray bytes(reinterpret_cast<const char *>(random.data()), qsizetype(sizeof random));
    return RelayReplay {
        nowMs,
        QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)),
        toMachine};
}

qsizetype RelayEnvelope::contentSize() const
{
    qsizetype size = message.text.size();
    if (!message.metadata.isNull())
        size += QString::fromUtf8(CanonicalJson::stringify(message.metadata)).size();
    return size;
}

std::expected<void, RelayError> RelayEnvelope::checkContent() const
{
    if (!message.metadata.isNull() && !message.metadata.isObject())
        return fail(Kind::MetadataNotObject, QStringLiteral("metadata must be a JSON object"),
                    QStringLiteral("metadata"));
    if (contentSize() > maxContentSize)
        return fail(Kind::ContentTooLarge, QStringLiteral("Message too large (text + metadata max 10KB)"));
    return {};
}

QByteArray signRelay(const RelayMessage &message, const std::optional<RelayReplay> &replay,
                     QByteArrayView key)
{
    JsonObject body;
    body.insert(QStringLiteral("from_id"), JsonValue::string(message.fromId));
    body.insert(QStringLiteral("from_machine"), JsonValue::string(message.fromMachine));
    body.insert(QStringLiteral("to_id"), JsonValue::string(message.toId));
    body.insert(QStringLiteral("text"), JsonValue::string(message.text));
    body.insert(QStringLiteral("type"), JsonValue::string(message.type));
    body.insert(QStringLiteral("metadata"), message.metadata);
    body.insert(QStringLiteral("reply_to"),
                message.replyTo ? JsonValue::number(double(*message.replyTo)) : JsonValue::null());
    if (replay) {
        // An integer below 2^53 is written as plain digits, as Date.now() is.
        body.insert(QStringLiteral("ts"), JsonValue::number(double(replay->tsMs)));
        body.insert(QStringLiteral("nonce"), JsonValue::string(replay->nonce));
        body.insert(QStringLiteral("to_machine"), JsonValue::string(replay->toMachine));
    }
    body.insert(QStringLiteral("signature"),
                JsonValue::string(QString::fromLatin1(RelaySignature::compute(body, key))));
    return CanonicalJson::stringify(body);
}

std::expected<RelayEnvelope, RelayError> verifyRelay(QByteArrayView bytes, const RelayVerifyOptions &options)
{
    if (bytes.size() > RelayEnvelope::maxBodyBytes)
        return fail(Kind::TooLarge,
                    QStringLiteral("The relay body is %1 bytes, more than the limit of %2")
                        .arg(bytes.size())
                        .arg(RelayEnvelope::maxBodyBytes));
    auto parsed = parseJson(bytes, {RelayEnvelope::maxBodyBytes, RelayEnvelope::maxDepth});
    if (!parsed)
        return fail(Kind::Malformed, parsed.error().message);
    if (!parsed->isObject())
        return fail(Kind::Malformed, QStringLiteral("The relay body must be a JSON object"));

    RelayEnvelope envelope;
    envelope.body = parsed->toObject();
    const JsonObject &body = envelope.body;

    const JsonValue *signature = body.find(u"signature");
    if (!signature || !signature->isString() || signature->toString().isEmpty() ||
        !RelaySignature::matches(body, signature->toString().toLatin1(), options.key))
        return fail(Kind::BadSignature, QStringLiteral("Invalid HMAC signature"),
                    QStringLiteral("signature"));

    RelayMessage &message = envelope.message;
    for (const auto &[name, target] : {std::pair {QStringLiteral("from_id"), &message.fromId},
                                       std::pair {QStringLiteral("from_machine"), &message.fromMachine},
                                       std::pair {QStringLiteral("to_id"), &message.toId},
                                       std::pair {QStringLiteral("text"), &message.text}}) {
        auto value = requiredString(body, name);
        if (!value)
            return std::unexpected(value.error());
        *target = *value;
    }
    // 0.7 (docs/spec/peers-api.md §4.4 step 4): a null, missing or unknown type is "text".
    const JsonValue *type = body.find(u"type");
    message.type = type && type->isString() && messageTypes.contains(type->toString())
        ? type->toString()
        : QStringLiteral("text");
    if (const JsonValue *metadata = body.find(u"metadata"))
        message.metadata = *metadata;
    if (const JsonValue *replyTo = body.find(u"reply_to"); replyTo && !replyTo->isNull()) {
        message.replyTo = wholeNumber(*replyTo);
        if (!message.replyTo)
            return fail(Kind::BadField, QStringLiteral("The relay's \"reply_to\" must be a message id"),
                        QStringLiteral("reply_to"));
    }

    auto replay = readReplay(body);
    if (!replay)
        return std::unexpected(replay.error());
    envelope.replay = *replay;
    if (!envelope.replay) {
        if (!options.acceptLegacy)
            return fail(Kind::LegacyRefused,
                        QStringLiteral("The relay has no ts/nonce (a claude-peers 0.7 sender) and "
                                       "federation.accept_legacy is off"));
        return envelope;
    }
    const qint64 skew = options.nowMs - envelope.replay->tsMs;
    if (skew > options.windowMs || skew < -options.windowMs)
        return fail(Kind::StaleTimestamp,
                    QStringLiteral("The relay's ts is %1 s from this broker's clock (allowed: %2 s): check "
                                   "both machines' clocks")
                        .arg(double(skew) / 1000.0, 0, 'f', 1)
                        .arg(options.windowMs / 1000),
                    QStringLiteral("ts"));
    if (!options.localMachine.isEmpty() && envelope.replay->toMachine != options.localMachine)
        return fail(Kind::WrongMachine,
                    QStringLiteral("The relay is addressed to machine \"%1\", not this one (\"%2\")")
                        .arg(envelope.replay->toMachine, options.localMachine),
                    QStringLiteral("to_machine"));
    return envelope;
}

} // namespace Federation
