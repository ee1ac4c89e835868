#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QString>

#include <expected>
#include <optional>

// The challenge/verify exchange between our brokers, which replaces 0.7's PSK header (issue #9):
//   C→S POST /federation/challenge {client_nonce, client_fingerprint, hostname, port?}
//   S→C {challenge_id, server_nonce, hostname, server_proof}
//       the client checks server_proof against the pin it saw in TLS BEFORE revealing anything
//   C→S POST /federation/verify {challenge_id, client_proof}
//   S→C {session, expires_in}; later requests carry X-Federation-Session instead of the PSK.
// Each proof is HMAC-SHA256(PSK, role + both nonces + both pins + both hostnames), so a proof
// cannot be reflected (the roles differ), replayed (fresh nonces) or relayed by a man in the
// middle holding another certificate (the server's pin as the client saw it is inside). This
// file is the pure part: the bodies, their parsers (fuzzed) and the proofs.
namespace Federation::Challenge {

inline constexpr qsizetype kMaxBodyBytes = 4096; // every challenge/verify body, both directions
inline constexpr QByteArrayView kSessionHeader = "X-Federation-Session";
inline constexpr QByteArrayView kSessionHeaderLower = "x-federation-session";
inline constexpr qsizetype kMaxSessionHeaderBytes = 128;

enum class ParseErrorKind {
    TooLarge, // over kMaxBodyBytes
    Malformed, // not a JSON object
    MissingField,
    BadField, // present with the wrong type or form
};

struct ParseError
{
    ParseErrorKind kind = ParseErrorKind::Malformed;
    QString message; // plain words: which field, what is expected
};

template<typename T> using Parsed = std::expected<T, ParseError>;

struct ChallengeRequest
{
    QString clientNonce; // 16..48 random bytes, base64url
    QString clientPin; // the client's own certificate pin ("" when it has none: plain HTTP)
    QString hostname; // the client's machine name (0.7's rules: 1..63 characters, no ':')
    std::optional<int> port; // its federation port, so the server can reach it back

    QByteArray toJson() const;
};

struct ChallengeAnswer
{
    QString challengeId;
    QString serverNonce;
    QString hostname; // the server's machine name
    QString serverProof;

    QJsonObject toJson() const;
};

struct VerifyRequest
{
    QString challengeId;
    QString clientProof;

    QByteArray toJson() const;
};

struct VerifyAnswer
{
    QString session;
    qint64 expiresInSeconds = 0;

    QJsonObject toJson() const;
};

// Server side: the raw request bodies (size-checked here too).
Parsed<ChallengeRequest> parseChallengeRequest(QByteArrayView body);
Parsed<VerifyRequest> parseVerifyRequest(QByteArrayView body);
// Client side: the server's answers (already parsed as JSON by the transport).
Parsed<ChallengeAnswer> parseChallengeAnswer(const QJsonObject &answer);
Parsed<VerifyAnswer> parseVerifyAnswer(const QJsonObject &answer);

// `bytes` random bytes from the system generator, base64url without padding.
QString randomToken(int bytes);

// Everything both proofs cover.
struct Transcript
{
    QString clientNonce;
    QString serverNonce;
    QString serverPin; // the server's certificate pin (the client: as seen in its TLS handshake)
    QString clientPin;
    QString clientHostname;
    QString serverHostname;
};

enum class Role { Server, Client };

// base64url(HMAC-SHA256(psk, "claude-peers-challenge-v1", role, the transcript's fields)), each
// field length-prefixed so that no two transcripts encode alike.
QString proof(QByteArrayView psk, Role role, const Transcript &transcript);
// Length check, then a constant-time comparison.
bool proofMatches(QByteArrayView psk, Role role, const Transcript &transcript, QStringView candidate);

} // namespace Federation::Challenge
