#pragma once

#include <QDateTime>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

#include <expected>

class QProcessEnvironment;

// The federation port's certificate and key: generated in-process (ECDSA P-256, self-signed,
// renewed with the same key so the pin survives), or given by path and used as they are
// (RSA, ECDSA, Ed25519; the latter loaded through OpenSSL since QSslKey cannot read it).
namespace Federation {

enum class CertificateErrorKind {
    Missing, // a file is not there (or only one of the pair is)
    Unreadable, // exists but cannot be read, or is too large
    Unwritable, // cannot create or replace a file
    BadFormat, // not a PEM certificate / an unencrypted PEM private key
    KeyMismatch, // the key does not belong to the certificate
    Unsupported, // a key type Qt's TLS cannot use
    Generation, // OpenSSL failed to create a key or certificate
};

struct CertificateError
{
    CertificateErrorKind kind = CertificateErrorKind::BadFormat;
    QString message; // names the file and says what to do
};

template<typename T> using CertificateResult = std::expected<T, CertificateError>;

enum class KeyType { EcdsaP256, Rsa2048, Ed25519 };

// Where the certificate and key live: CLAUDE_PEERS_FEDERATION_CERT / _KEY, else
// ~/.claude-peers-federation.crt / .key (docs/spec/peers-api.md §6.10).
struct CertificateFiles
{
    QString certificatePath;
    QString keyPath;

    static CertificateFiles fromEnvironment(const QProcessEnvironment &environment, const QString &home);
};

// A certificate with its private key, ready for QSslConfiguration.
struct TlsIdentity
{
    QSslCertificate certificate;
    QList<QSslCertificate> chain; // further certificates of the file, if any (usually none)
    QSslKey privateKey; // opaque (Qt::HANDLE) for key types QSslKey cannot parse
    QString pin; // spkiPin(certificate)
    QString keyDescription; // "ECDSA P-256", "RSA-2048", "Ed25519", ...
    bool selfSigned = false;

    QDateTime expiresAt() const { return certificate.expiryDate(); }
    bool isNull() const { return certificate.isNull() || privateKey.isNull(); }
};

struct GenerateOptions
{
    KeyType keyType = KeyType::EcdsaP256; // the others: compatibility and tests
    int validityDays = 825; // Apple's limit for TLS server certificates
};

// Reads both files (PEM, at most 1 MiB each). The key may be PKCS#8 or traditional, must not be
// encrypted, and must belong to the first certificate of the file. A key file open to others
// is used but warned about.
CertificateResult<TlsIdentity> loadIdentity(const CertificateFiles &files);
// The same on contents already read (fuzzing, tests); `files` only names them in messages.
CertificateResult<TlsIdentity> identityFromPem(const QByteArray &certificatePem, QByteArray keyPem,
                                               const CertificateFiles &files);

// A new key and a self-signed certificate for `hostname` (CN, and SAN DNS:<host>,
// DNS:<host>.local when it is a DNS name). The key file is written owner-only from its
// creation (O_EXCL 0600 temporary, then renamed); both files are replaced atomically.
CertificateResult<TlsIdentity> generateIdentity(const CertificateFiles &files, const QString &hostname,
                                                GenerateOptions options = {});

// A new self-signed certificate for the key already in files.keyPath: same key, same pin.
CertificateResult<TlsIdentity> renewIdentity(const CertificateFiles &files, const QString &hostname,
                                             int validityDays = GenerateOptions {}.validityDays);

// Whether a self-signed certificate should be renewed: it expires within `renewBeforeDays`
// (or has expired). Certificates signed by someone else are never renewed by us.
bool needsRenewal(const TlsIdentity &identity, const QDateTime &now, int renewBeforeDays = 30);

enum class EnsureOutcome { Loaded, Generated, Renewed };

struct EnsuredIdentity
{
    TlsIdentity identity;
    EnsureOutcome outcome = EnsureOutcome::Loaded;
};

// What the broker runs at start and once a day: both files there → load them (and renew a
// self-signed certificate close to expiry, keeping the key); only the key → issue a
// certificate for it; neither → generate. Only a certificate without its key is an error: a
// new key would change the pin every peer holds, so that needs the user's decision. `now` is
// the broker's clock (invalid: the system's).
CertificateResult<EnsuredIdentity> ensureIdentity(const CertificateFiles &files, const QString &hostname,
                                                  GenerateOptions options = {}, int renewBeforeDays = 30,
                                                  const QDateTime &now = {});

} // namespace Federation
