#pragma once

#include <QByteArray>
#include <QString>
#include <QStringView>

class QSslCertificate;

// Identity of a federation peer: the SHA-256 of its certificate's SubjectPublicKeyInfo (DER),
// written `sha256-<base64url without padding>`. The same value curl's --pinnedpubkey takes (in
// standard base64 there). It survives renewing the certificate with the same key, and it is
// computed with OpenSSL so that Ed25519 keys (whose QSslCertificate::publicKey() is null) pin
// too.
namespace Federation {

inline constexpr QStringView kPinPrefix = u"sha256-";

// The pin of a certificate; empty for a null or unparsable one.
QString spkiPin(const QSslCertificate &certificate);
// The same from the SubjectPublicKeyInfo DER itself.
QString spkiPinFromDer(const QByteArray &subjectPublicKeyInfoDer);

// "sha256-" followed by the 43 base64url characters of 32 bytes.
bool isWellFormedPin(QStringView pin);

// Constant-time comparison (no early exit on the first differing character).
bool pinsEqual(QStringView a, QStringView b);

// Six decimal digits both sides of a pairing show for the user to compare: SHA-256 over a
// label, the two pins in sorted order (so both sides get the same digits) and `context`.
// Pure. Six digits can be matched by an attacker who may pick its key after seeing ours
// (about 10^6 key generations), so the caller passes as context something the attacker had
// to commit to before (both sides' nonces of the pairing exchange, sent after each side's
// certificate is fixed by the TLS handshake); see docs/decisions.md.
QString shortAuthenticationString(QStringView pinA, QStringView pinB, const QByteArray &context = {});

} // namespace Federation
