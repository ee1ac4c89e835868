#include "federation/certificate.h"
#include "common/secretfile.h"
#include "federation/certificatepin.h"
#include "federation/federationlogging.h"
#include "federation/internal/openssl.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QSaveFile>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

namespace Federation {

using namespace Internal;

namespace {

constexpr qint64 kMaxPemBytes = 1024 * 1024;

std::unexpected<CertificateError> fail(CertificateErrorKind kind, QString message)
{
    return std::unexpected<CertificateError>(CertificateError {kind, std::move(message)});
}

QString removeBothHint(const CertificateFiles &files)
{
    return QStringLiteral("Fix or replace it, or remove both %1 and %2 to let the broker generate a new "
                          "certificate (peers that pinned the old one must pair again).")
        .arg(files.certificatePath, files.keyPath);
}

CertificateResult<QByteArray> readCertificateFile(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return fail(CertificateErrorKind::Missing, QStringLiteral("%1 does not exist.").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return fail(CertificateErrorKind::Unreadable,
                    QStringLiteral("Cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray data = file.read(kMaxPemBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return fail(CertificateErrorKind::Unreadable,
                    QStringLiteral("Cannot read %1: %2").arg(path, file.errorString()));
    if (data.size() > kMaxPemBytes)
        return fail(CertificateErrorKind::Unreadable,
                    QStringLiteral("%1 is larger than %2 bytes: not a certificate file.")
                        .arg(path)
                        .arg(kMaxPemBytes));
    return data;
}

CertificateResult<QByteArray> readKeyFile(const QString &path)
{
    auto data = Broker::SecretFile::read(path, kMaxPemBytes + 1);
    if (!data) {
        const auto kind = data.error().kind == Broker::ErrorKind::Missing ? CertificateErrorKind::Missing
                                                                          : CertificateErrorKind::Unreadable;
        return fail(kind, data.error().message);
    }
    if (data->size() > kMaxPemBytes)
        return fail(
            CertificateErrorKind::Unreadable,
            QStringLiteral("%1 is larger than %2 bytes: not a key file.").arg(path).arg(kMaxPemBytes));
    return *data;
}

// Never prompts on a terminal for an encrypted key (OpenSSL's default callback would).
int refusePassphrase(char *, int, int, void *)
{
    return -1;
}

CertificateResult<PkeyPtr> parseKey(const QByteArray &pem, const QString &path)
{
    BioPtr bio = memoryBio(pem);
    PkeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, refusePassphrase, nullptr));
    if (!key) {
        const QString detail = takeOpenSslErrors();
        if (pem.contains("ENCRYPTED"))
            return fail(CertificateErrorKind::BadFormat,
                        QStringLiteral("%1 is an encrypted private key; the broker cannot ask for its "
                                       "passphrase. Store it unencrypted (owner-only, mode 0600), e.g. "
                                       "openssl pkey -in %1 -out <new file>.")
                            .arg(path));
        return fail(CertificateErrorKind::BadFormat,
                    QStringLiteral("%1 holds no PEM private key (-----BEGIN PRIVATE KEY-----): %2. Point "
                                   "CLAUDE_PEERS_FEDERATION_KEY at the certificate's key.")
                        .arg(path, detail));
    }
    return key;
}

QString describeKey(EVP_PKEY *key)
{
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA:
        return QStringLiteral("RSA-%1").arg(EVP_PKEY_get_bits(key));
    case EVP_PKEY_EC: {
        char group[80] = {};
        size_t length = 0;
        if (EVP_PKEY_get_group_name(key, group, sizeof group, &length) == 1) {
            const QByteArray name(group, qsizetype(length));
            if (name == "prime256v1" || name == "P-256")
                return QStringLiteral("ECDSA P-256");
            return QStringLiteral("ECDSA ") + QString::fromLatin1(name);
        }
        return QStringLiteral("ECDSA");
    }
    case EVP_PKEY_ED25519:
        return QStringLiteral("Ed25519");
    case EVP_PKEY_ED448:
        return QStringLiteral("Ed448");
    default:
        return QString::fromLatin1(OBJ_nid2sn(EVP_PKEY_get_base_id(key)));
    }
}

// QSslKey parses RSA and EC keys itself; for the others (Ed25519) it takes the EVP_PKEY as an
// opaque handle and owns that reference.
QSslKey toQSslKey(EVP_PKEY *key)
{
    const int id = EVP_PKEY_get_base_id(key);
    if (id == EVP_PKEY_RSA || id == EVP_PKEY_EC) {
        BioPtr out(BIO_new(BIO_s_mem()));
        if (out &&
            PEM_write_bio_PKCS8PrivateKey(out.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1) {
            QByteArray pem = bioContents(out.get());
            QSslKey parsed(pem, id == EVP_PKEY_RSA ? QSsl::Rsa : QSsl::Ec, QSsl::Pem, QSsl::PrivateKey);
            pem.fill('\0');
            if (!parsed.isNull())
                return parsed;
        }
        ERR_clear_error();
    }
    if (EVP_PKEY_up_ref(key) != 1)
        return {};
    return QSslKey(Qt::HANDLE(key), QSsl::PrivateKey);
}

bool isDnsName(const QString &name)
{
    if (name.isEmpty() || name.size() > 253 || name.startsWith(u'.') || name.endsWith(u'.') ||
        name.contains(QStringLiteral("..")))
        return false;
    for (const QChar c : name) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != u'-' && c != u'.')
            return false;
    }
    return true;
}

bool addExtension(X509 *certificate, int nid, const QByteArray &value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.constData());
    if (!extension)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

CertificateResult<X509Ptr> issueSelfSigned(EVP_PKEY *key, const QString &hostname, int validityDays)
{
    const auto failed = [](const char *step) {
        return fail(CertificateErrorKind::Generation,
                    QStringLiteral("Cannot create the federation certificate (%1): %2")
                        .arg(QLatin1String(step), takeOpenSslErrors()));
    };
    X509Ptr certificate(X509_new());
    if (!certificate || X509_set_version(certificate.get(), 2) != 1) // v3
        return failed("X509_new");
    BignumPtr serial(BN_new());
    if (!serial || BN_rand(serial.get(), 159, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ODD) != 1 ||
        !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate.get())))
        return failed("serial");
    // An hour back absorbs a peer's clock running behind ours.
    if (!X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600) ||
        !X509_gmtime_adj(X509_getm_notAfter(certificate.get()), long(validityDays) * 86400))
        return failed("validity");
    if (X509_set_pubkey(certificate.get(), key) != 1)
        return failed("public key");
    const QString name = hostname.isEmpty() ? QStringLiteral("claude-peers") : hostname;
    const QByteArray commonName = name.left(64).toUtf8(); // X.520 upper bound of a CN
    X509_NAME *subject = X509_get_subject_name(certificate.get());
    if (X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char *>(commonName.constData()),
                                   int(commonName.size()), -1, 0) != 1 ||
        X509_set_issuer_name(certificate.get(), subject) != 1)
        return failed("name");
    const bool rsa = EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA;
    if (!addExtension(certificate.get(), NID_basic_constraints, "critical,CA:FALSE") ||
        !addExtension(certificate.get(), NID_key_usage,
                      rsa ? "critical,digitalSignature,keyEncipherment" : "critical,digitalSignature") ||
        !addExtension(certificate.get(), NID_ext_key_usage, "serverAuth,clientAuth") ||
        !addExtension(certificate.get(), NID_subject_key_identifier, "hash"))
        return failed("extensions");
    const QString dnsName = name.toLower();
    if (isDnsName(dnsName)) {
        QByteArray san = "DNS:" + dnsName.toLatin1();
        if (!dnsName.endsWith(QStringLiteral(".local")))
            san += ",DNS:" + dnsName.toLatin1() + ".local";
        if (!addExtension(certificate.get(), NID_subject_alt_name, san))
            return failed("subjectAltName");
    }
    // Ed25519 signs without a separate digest.
    const EVP_MD *digest = EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 ? nullptr : EVP_sha256();
    if (X509_sign(certificate.get(), key, digest) <= 0)
        return failed("signature");
    return certificate;
}

CertificateResult<void> writeCertificate(X509 *certificate, const QString &path)
{
    BioPtr out(BIO_new(BIO_s_mem()));
    if (!out || PEM_write_bio_X509(out.get(), certificate) != 1)
        return fail(CertificateErrorKind::Generation,
                    QStringLiteral("Cannot encode the certificate: %1").arg(takeOpenSslErrors()));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bioContents(out.get())) < 0 || !file.commit())
        return fail(CertificateErrorKind::Unwritable,
                    QStringLiteral("Cannot write %1: %2. Check that its folder exists and is writable.")
                        .arg(path, file.errorString()));
    return {};
}

CertificateResult<PkeyPtr> generateKey(KeyType type)
{
    EVP_PKEY *key = nullptr;
    switch (type) {
    case KeyType::EcdsaP256:
        key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
        break;
    case KeyType::Rsa2048:
        key = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(2048));
        break;
    case KeyType::Ed25519:
        key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
        break;
    }
    if (!key)
        return fail(CertificateErrorKind::Generation,
                    QStringLiteral("Cannot generate a key: %1").arg(takeOpenSslErrors()));
    return PkeyPtr(key);
}

} // namespace

CertificateFiles CertificateFiles::fromEnvironment(const QProcessEnvironment &environment,
                                                   const QString &home)
{
    CertificateFiles files;
    files.certificatePath = environment.value(QStringLiteral("CLAUDE_PEERS_FEDERATION_CERT"));
    files.keyPath = environment.value(QStringLiteral("CLAUDE_PEERS_FEDERATION_KEY"));
    if (files.certificatePath.isEmpty())
        files.certificatePath = QDir(home).filePath(QStringLiteral(".claude-peers-federation.crt"));
    if (files.keyPath.isEmpty())
        files.keyPath = QDir(home).filePath(QStringLiteral(".claude-peers-federation.key"));
    return files;
}

CertificateResult<TlsIdentity> loadIdentity(const CertificateFiles &files)
{
    auto certificatePem = readCertificateFile(files.certificatePath);
    if (!certificatePem)
        return std::unexpected(certificatePem.error());
    auto keyPem = readKeyFile(files.keyPath);
    if (!keyPem) {
        CertificateError error = keyPem.error();
        if (error.kind == CertificateErrorKind::Missing)
            error.message = QStringLiteral("The federation key %1 is missing but its certificate %2 exists. "
                                           "Restore the key, or remove %2 to generate a new certificate "
                                           "and key (peers that pinned the old one must pair again).")
                                .arg(files.keyPath, files.certificatePath);
        return std::unexpected(error);
    }
    return identityFromPem(*certificatePem, std::move(*keyPem), files);
}

CertificateResult<TlsIdentity> identityFromPem(const QByteArray &certificatePem, QByteArray keyPem,
                                               const CertificateFiles &files)
{
    std::vector<X509Ptr> certificates;
    {
        BioPtr bio = memoryBio(certificatePem);
        while (X509 *certificate = PEM_read_bio_X509(bio.get(), nullptr, refusePassphrase, nullptr))
            certificates.emplace_back(certificate);
        ERR_clear_error(); // the loop ends on "no start line"
    }
    if (certificates.empty())
        return fail(CertificateErrorKind::BadFormat,
                    QStringLiteral("%1 holds no PEM certificate (-----BEGIN CERTIFICATE-----). %2")
                        .arg(files.certificatePath, removeBothHint(files)));
    auto key = parseKey(keyPem, files.keyPath);
    keyPem.fill('\0');
    if (!key)
        return std::unexpected(key.error());
    X509 *leaf = certificates.front().get();
    if (X509_check_private_key(leaf, key->get()) != 1) {
        ERR_clear_error();
        return fail(CertificateErrorKind::KeyMismatch,
                    QStringLiteral("The key %1 does not belong to the certificate %2. %3")
                        .arg(files.keyPath, files.certificatePath, removeBothHint(files)));
    }

    TlsIdentity identity;
    for (const X509Ptr &certificate : certificates) {
        unsigned char *der = nullptr;
        const int size = i2d_X509(certificate.get(), &der);
        if (size <= 0)
            continue;
        const QSslCertificate qt(QByteArray(reinterpret_cast<const char *>(der), size), QSsl::Der);
        OPENSSL_free(der);
        if (identity.certificate.isNull())
            identity.certificate = qt;
        else if (!qt.isNull())
            identity.chain << qt;
    }
    identity.keyDescription = describeKey(key->get());
    identity.privateKey = toQSslKey(key->get());
    if (identity.certificate.isNull() || identity.privateKey.isNull())
        return fail(CertificateErrorKind::Unsupported,
                    QStringLiteral("Qt's TLS cannot use the %1 key of %2. Use an ECDSA P-256 or RSA "
                                   "certificate, or remove both files to let the broker generate one.")
                        .arg(identity.keyDescription, files.certificatePath));
    identity.pin = spkiPinFromDer(subjectPublicKeyInfoDer(leaf));
    // Not X509_check_issued(): it also demands keyCertSign, which a leaf does not have.
    identity.selfSigned = X509_NAME_cmp(X509_get_subject_name(leaf), X509_get_issuer_name(leaf)) == 0 &&
        X509_verify(leaf, X509_get0_pubkey(leaf)) == 1;
    ERR_clear_error();
    return identity;
}

CertificateResult<TlsIdentity> generateIdentity(const CertificateFiles &files, const QString &hostname,
                                                GenerateOptions options)
{
    auto key = generateKey(options.keyType);
    if (!key)
        return std::unexpected(key.error());
    auto certificate = issueSelfSigned(key->get(), hostname, options.validityDays);
    if (!certificate)
        return std::unexpected(certificate.error());
    BioPtr keyOut(BIO_new(BIO_s_mem()));
    if (!keyOut ||
        PEM_write_bio_PrivateKey(keyOut.get(), key->get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return fail(CertificateErrorKind::Generation,
                    QStringLiteral("Cannot encode the key: %1").arg(takeOpenSslErrors()));
    QByteArray keyPem = bioContents(keyOut.get());
    // The key first: a certificate without its key would block the next start.
    const auto keyWritten = Broker::SecretFile::write(files.keyPath, keyPem);
    keyPem.fill('\0');
    if (!keyWritten)
        return fail(CertificateErrorKind::Unwritable,
                    keyWritten.error().message +
                        QStringLiteral(". Check that the folder exists and is writable, or set "
                                       "CLAUDE_PEERS_FEDERATION_KEY to another path."));
    if (auto written = writeCertificate(certificate->get(), files.certificatePath); !written)
        return std::unexpected(written.error());
    qCInfo(lcFederationTls).noquote() << "generated a" << describeKey(key->get()) << "certificate for"
                                      << hostname << "in" << files.certificatePath;
    return loadIdentity(files);
}

CertificateResult<TlsIdentity> renewIdentity(const CertificateFiles &files, const QString &hostname,
                                             int validityDays)
{
    auto keyPem = readKeyFile(files.keyPath);
    if (!keyPem)
        return std::unexpected(keyPem.error());
    auto key = parseKey(*keyPem, files.keyPath);
    keyPem->fill('\0');
    if (!key)
        return std::unexpected(key.error());
    auto certificate = issueSelfSigned(key->get(), hostname, validityDays);
    if (!certificate)
        return std::unexpected(certificate.error());
    if (auto written = writeCertificate(certificate->get(), files.certificatePath); !written)
        return std::unexpected(written.error());
    qCInfo(lcFederationTls).noquote() << "issued a new certificate for the key in" << files.keyPath
                                      << "(same pin) in" << files.certificatePath;
    return loadIdentity(files);
}

bool needsRenewal(const TlsIdentity &identity, const QDateTime &now, int renewBeforeDays)
{
    return identity.selfSigned && identity.expiresAt() <= now.addDays(renewBeforeDays);
}

CertificateResult<EnsuredIdentity> ensureIdentity(const CertificateFiles &files, const QString &hostname,
                                                  GenerateOptions options, int renewBeforeDays,
                                                  const QDateTime &clockNow)
{
    const bool haveCertificate = QFile::exists(files.certificatePath);
    const bool haveKey = QFile::exists(files.keyPath);
    if (!haveCertificate && !haveKey) {
        auto generated = generateIdentity(files, hostname, options);
        if (!generated)
            return std::unexpected(generated.error());
        return EnsuredIdentity {*generated, EnsureOutcome::Generated};
    }
    if (!haveCertificate) {
        auto renewed = renewIdentity(files, hostname, options.validityDays);
        if (!renewed)
            return std::unexpected(renewed.error());
        return EnsuredIdentity {*renewed, EnsureOutcome::Renewed};
    }
    auto loaded = loadIdentity(files);
    if (!loaded)
        return std::unexpected(loaded.error());
    const QDateTime now = clockNow.isValid() ? clockNow : QDateTime::currentDateTimeUtc();
    if (!needsRenewal(*loaded, now, renewBeforeDays)) {
        if (!loaded->selfSigned && loaded->expiresAt() <= now.addDays(renewBeforeDays))
            qCWarning(lcFederationTls).noquote()
                << QStringLiteral("The federation certificate %1 expires on %2 and was not issued by "
                                  "this broker: renew it with its issuer.")
                       .arg(files.certificatePath, loaded->expiresAt().toString(Qt::ISODate));
        return EnsuredIdentity {*loaded, EnsureOutcome::Loaded};
    }
    auto renewed = renewIdentity(files, hostname, options.validityDays);
    if (!renewed)
        return std::unexpected(renewed.error());
    return EnsuredIdentity {*renewed, EnsureOutcome::Renewed};
}

} // namespace Federation
