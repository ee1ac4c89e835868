#include "federation/challengeproof.h"

#include "federation/certificatepin.h"
#include "federation/relaysignature.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

#include <algorithm>
#include <vector>

namespace Federation::Challenge {

namespace {

std::unexpected<ParseError> fail(ParseErrorKind kind, const QString &message)
{
    return std::unexpected(ParseError {kind, message});
}

bool isBase64Url(QStringView text)
{
    return std::all_of(text.begin(), text.end(), [](QChar c) {
        return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') ||
            c == u'-' || c == u'_';
    });
}

// A random value of 16 to 48 bytes in base64url: nonces, challenge ids, sessions, proofs.
bool isToken(QStringView text)
{
    return text.size() >= 22 && text.size() <= 64 && isBase64Url(text);
}

bool isHostname(QStringView text)
{
    return !text.isEmpty() && text.size() <= 63 && !text.contains(u':') &&
        std::none_of(text.begin(), text.end(), [](QChar c) { return c.unicode() < 0x20; });
}

Parsed<QJsonObject> objectOf(QByteArrayView body)
{
    if (body.size() > kMaxBodyBytes)
        return fail(ParseErrorKind::TooLarge,
                    QStringLiteral("Request body too large (limit %1 bytes)").arg(kMaxBodyBytes));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body.toByteArray(), &error);
    if (!document.isObject())
        return fail(ParseErrorKind::Malformed, QStringLiteral("Invalid JSON body: expected a JSON object"));
    return document.object();
}

// A required string field that `valid` accepts.
template<typename Valid>
Parsed<QString> field(const QJsonObject &object, const char *name, const QString &expected, Valid valid)
{
    const QJsonValue value = object.value(QLatin1String(name));
    if (value.isUndefined())
        return fail(ParseErrorKind::MissingField,
                    QStringLiteral("\"%1\" is missing (%2)").arg(QLatin1String(name), expected));
    if (!value.isString() || !valid(value.toString()))
        return fail(ParseErrorKind::BadField,
                    QStringLiteral("\"%1\" must be %2").arg(QLatin1String(name), expected));
    return value.toString();
}

const QString kTokenForm = QStringLiteral("22 to 64 base64url characters");
const QString kHostnameForm = QStringLiteral("a machine name of 1 to 63 characters without ':'");

void appendField(QByteArray &out, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    out += QByteArray::number(utf8.size());
    out += ':';
    out += utf8;
    out += '\n';
}

} // namespace

QByteArray ChallengeRequest::toJson() const
{
    QJsonObject object {{QStringLiteral("client_nonce"), clientNonce},
                        {QStringLiteral("client_fingerprint"), clientPin},
                        {QStringLiteral("hostname"), hostname}};
    if (port)
        object.insert(QStringLiteral("port"), *port);
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QJsonObject ChallengeAnswer::toJson() const
{
    return {{QStringLiteral("challenge_id"), challengeId},
            {QStringLiteral("server_nonce"), serverNonce},
            {QStringLiteral("hostname"), hostname},
            {QStringLiteral("server_proof"), serverProof}};
}

QByteArray VerifyRequest::toJson() const
{
    return QJsonDocument(QJsonObject {{QStringLiteral("challenge_id"), challengeId},
                                      {QStringLiteral("client_proof"), clientProof}})
        .toJson(QJsonDocument::Compact);
}

QJsonObject VerifyAnswer::toJson() const
{
    return {{QStringLiteral("session"), session}, {QStringLiteral("expires_in"), expiresInSeconds}};
}

Parsed<ChallengeRequest> parseChallengeRequest(QByteArrayView body)
{
    auto object = objectOf(body);
    if (!object)
        return std::unexpected(object.error());
    ChallengeRequest request;
    auto nonce = field(*object, "client_nonce", kTokenForm, isToken);
    if (!nonce)
        return std::unexpected(nonce.error());
    request.clientNonce = *nonce;
    auto pin = field(*object, "client_fingerprint",
                     QStringLiteral("sha256-<43 base64url characters>, or \"\" without a certificate"),
                     [](const QString &text) { return text.isEmpty() || isWellFormedPin(text); });
    if (!pin)
        return std::unexpected(pin.error());
    request.clientPin = *pin;
    auto hostname = field(*object, "hostname", kHostnameForm, isHostname);
    if (!hostname)
        return std::unexpected(hostname.error());
    request.hostname = *hostname;
    const QJsonValue port = object->value(QStringLiteral("port"));
    if (!port.isUndefined() && !port.isNull()) {
        const double number = port.toDouble(-1);
        if (!port.isDouble() || !(number >= 1 && number <= 65535) || number != double(qint64(number)))
            return fail(ParseErrorKind::BadField,
                        QStringLiteral("\"port\" must be a whole number from 1 to 65535"));
        request.port = int(number);
    }
    return request;
}

Parsed<VerifyRequest> parseVerifyRequest(QByteArrayView body)
{
    auto object = objectOf(body);
    if (!object)
        return std::unexpected(object.error());
    auto id = field(*object, "challenge_id", kTokenForm, isToken);
    if (!id)
        return std::unexpected(id.error());
    auto proofText = field(*object, "client_proof", kTokenForm, isToken);
    if (!proofText)
        return std::unexpected(proofText.error());
    return VerifyRequest {*id, *proofText};
}

Parsed<ChallengeAnswer> parseChallengeAnswer(const QJsonObject &answer)
{
    ChallengeAnswer parsed;
    auto id = field(answer, "challenge_id", kTokenForm, isToken);
    if (!id)
        return std::unexpected(id.error());
    parsed.challengeId = *id;
    auto nonce = field(answer, "server_nonce", kTokenForm, isToken);
    if (!nonce)
        return std::unexpected(nonce.error());
    parsed.serverNonce = *nonce;
    auto hostname = field(answer, "hostname", kHostnameForm, isHostname);
    if (!hostname)
        return std::unexpected(hostname.error());
    parsed.hostname = *hostname;
    auto proofText = field(answer, "server_proof", kTokenForm, isToken);
    if (!proofText)
        return std::unexpected(proofText.error());
    parsed.serverProof = *proofText;
    return parsed;
}

Parsed<VerifyAnswer> parseVerifyAnswer(const QJsonObject &answer)
{
    auto session = field(answer, "session", kTokenForm, isToken);
    if (!session)
        return std::unexpected(session.error());
    const QJsonValue expires = answer.value(QStringLiteral("expires_in"));
    const double seconds = expires.toDouble(-1);
    // The range first: converting a double outside qint64's range is undefined (found by
    // fuzz_challenge: "expires_in": 1.8e36).
    if (!expires.isDouble() || !(seconds >= 1 && seconds <= 7 * 86400) || seconds != double(qint64(seconds)))
        return fail(ParseErrorKind::BadField,
                    QStringLiteral("\"expires_in\" must be a whole number of seconds, at most a week"));
    return VerifyAnswer {*session, qint64(seconds)};
}

QString randomToken(int bytes)
{
    std::vector<quint32> words(std::size_t((bytes + 3) / 4));
    QRandomGenerator::system()->fillRange(words.data(), qsizetype(words.size()));
    const QByteArray raw(reinterpret_cast<const char *>(words.data()), bytes);
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString proof(QByteArrayView psk, Role role, const Transcript &transcript)
{
    QByteArray message = QByteArrayLiteral("claude-peers-challenge-v1\n");
    message += role == Role::Server ? QByteArrayLiteral("server\n") : QByteArrayLiteral("client\n");
    for (const QString *value :
         {&transcript.clientNonce, &transcript.serverNonce, &transcript.serverPin, &transcript.clientPin,
          &transcript.clientHostname, &transcript.serverHostname})
        appendField(message, *value);
    const QByteArray mac =
        QMessageAuthenticationCode::hash(message, psk.toByteArray(), QCryptographicHash::Sha256);
    return QString::fromLatin1(mac.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool proofMatches(QByteArrayView psk, Role role, const Transcript &transcript, QStringView candidate)
{
    return RelaySignature::constantTimeEquals(proof(psk, role, transcript).toLatin1(), candidate.toLatin1());
}

} // namespace Federation::Challenge
