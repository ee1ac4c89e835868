#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringView>

#include <expected>
#include <functional>
#include <optional>

// Pairing by a one-time code (issue #9): the code the user carries from machine A to machine B,
// the key both derive from it, the proofs that bind it to both certificates, and the sealing of
// the PSK A hands to B. Why this shape (and not a PAKE): docs/decisions.md "Pairing by code".
namespace Federation::PairingCode {

inline constexpr int kCodeSymbols = 10; // Crockford base32: 50 bits
inline constexpr int kKeyIterations = 100'000; // PBKDF2-HMAC-SHA256 rounds per guess
inline constexpr int kNonceChars = 22; // 128 bits, base64url without padding

// A fresh code, "ABCDE-FGHJK" (Crockford base32, no I L O U).
QString newCode();
// The code as typed (any case, '-' or spaces anywhere, O for 0, I/L for 1) in canonical form
// without the dash; nullopt when it is not kCodeSymbols symbols of the alphabet.
std::optional<QString> normalizeCode(QStringView typed);
// "ABCDEFGHJK" → "ABCDE-FGHJK".
QString displayCode(const QString &normalized);

// The 32-byte key of a code, salted with the pin of the machine that issued it: slow on
// purpose (every offline guess costs kKeyIterations rounds).
QByteArray codeKey(const QString &normalizedCode, const QString &issuerPin);

// HMAC-SHA256(key, "cpt-pair-v1|<label>|<part>|<part>…") as 64 lower-case hex characters.
QByteArray proof(const QByteArray &key, QByteArrayView label, const QList<QByteArray> &parts);
bool proofMatches(const QByteArray &expected, QByteArrayView given);

QString newNonce();
bool isWellFormedNonce(QStringView nonce);
bool isWellFormedProof(QStringView proof);

// AES-256-GCM under a key derived from the code key; aad binds it to the request and both pins.
// Output: base64url(iv | ciphertext | tag).
QString sealSecret(const QByteArray &codeKey, const QByteArray &secret, const QByteArray &aad);
std::expected<QByteArray, QString> openSecret(const QByteArray &codeKey, QStringView sealed,
                                              const QByteArray &aad);

// The codes this machine issued and not yet used: only their keys are kept. A code is used up
// by its first correct proof; every wrong proof counts against each live code, and a code that
// took kMaxFailures wrong proofs is dropped (online guessing gets kMaxFailures tries per code).
class CodeBook
{
public:
    static constexpr int kMaxLive = 4;
    static constexpr int kMaxFailures = 5;
    static constexpr qint64 kLifetimeMs = 10 * 60 * 1000;

    struct Issued
    {
        QString code; // display form
        qint64 expiresAtMs = 0;
    };
    // A new code for this issuer pin; the oldest live code goes when kMaxLive are live.
    Issued issue(const QString &issuerPin, qint64 nowMs);
    // The key of the live code whose proof `matches`; the code is used up. nullopt: a failure
    // counted against each live code.
    std::optional<QByteArray> redeem(const std::function<bool(const QByteArray &key)> &matches, qint64 nowMs);
    int liveCount(qint64 nowMs);
    int codesBurned() const { return m_burned; }

private:
    struct Live
    {
        QByteArray key;
        qint64 expiresAtMs = 0;
        int failures = 0;
    };
    void expire(qint64 nowMs);
    QList<Live> m_live;
    int m_burned = 0;
};

} // namespace Federation::PairingCode
