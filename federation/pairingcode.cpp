#include "federation/pairingcode.h"

#include "federation/internal/openssl.h"
#include "federation/relaysignature.h"

#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

#include <openssl/evp.h>

#include <string_view>

namespace Federation::PairingCode {

namespace {

constexpr char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32
constexpr int kIvBytes = 12;
constexpr int kTagBytes = 16;
constexpr qsizetype kMaxSealedChars = 1024;

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, Internal::OpenSslDeleter<EVP_CIPHER_CTX_free>>;

QByteArray randomBytes(int count)
{
    QByteArray bytes(count, Qt::Uninitialized);
    QRandomGenerator::system()->generate(bytes.begin(), bytes.end());
    return bytes;
}

QByteArray sealKey(const QByteArray &codeKey)
{
    return QMessageAuthenticationCode::hash("cpt-pair-v1|seal", codeKey, QCryptographicHash::Sha256);
}

constexpr auto kBase64Url = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;

} // namespace

QString newCode()
{
    QString code;
    for (int i = 0; i < kCodeSymbols; ++i)
        code.append(QLatin1Char(kAlphabet[QRandomGenerator::system()->bounded(32)]));
    return displayCode(code);
}

std::optional<QString> normalizeCode(QStringView typed)
{
    if (typed.size() > 64)
        return std::nullopt;
    QString code;
    for (QChar c : typed) {
        if (c == u'-' || c == u' ')
            continue;
        char16_t u = c.toUpper().unicode();
        if (u == u'O')
            u = u'0';
        else if (u == u'I' || u == u'L')
            u = u'1';
        if (u > 127 || std::string_view(kAlphabet).find(char(u)) == std::string_view::npos)
            return std::nullopt;
        code.append(QChar(u));
    }
    if (code.size() != kCodeSymbols)
        return std::nullopt;
    return code;
}

QString displayCode(const QString &normalized)
{
    return normalized.left(kCodeSymbols / 2) + QLatin1Char('-') + normalized.mid(kCodeSymbols / 2);
}

QByteArray codeKey(const QString &normalizedCode, const QString &issuerPin)
{
    // OpenSSL's PBKDF2, not QPasswordDigestor: the same function, about 30 times faster here, which
    // matters on the broker's thread.
    const QByteArray password = normalizedCode.toUtf8();
    const QByteArray salt = QByteArray("cpt-pair-v1|") + issuerPin.toUtf8();
    QByteArray key(32, Qt::Uninitialized);
    if (PKCS5_PBKDF2_HMAC(password.constData(), int(password.size()),
                          reinterpret_cast<const unsigned char *>(salt.constData()), int(salt.size()),
                          kKeyIterations, EVP_sha256(), int(key.size()),
                          reinterpret_cast<unsigned char *>(key.data())) != 1)
        return {};
    return key;
}

QByteArray proof(const QByteArray &key, QByteArrayView label, const QList<QByteArray> &parts)
{
    QByteArray message = QByteArrayLiteral("cpt-pair-v1|") + label.toByteArray();
    for (const QByteArray &part : parts)
        message += '|' + part;
    return QMessageAuthenticationCode::hash(message, key, QCryptographicHash::Sha256).toHex();
}

bool proofMatches(const QByteArray &expected, QByteArrayView given)
{
    return RelaySignature::constantTimeEquals(expected, given);
}

QString newNonce()
{
    return QString::fromLatin1(randomBytes(16).toBase64(kBase64Url));
}

bool isWellFormedNonce(QStringView nonce)
{
    if (nonce.size() != kNonceChars)
        return false;
    for (QChar c : nonce) {
        const char16_t u = c.unicode();
        if (!((u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'-' ||
              u == u'_'))
            return false;
    }
    return true;
}

bool isWellFormedProof(QStringView proof)
{
    if (proof.size() != 64)
        return false;
    for (QChar c : proof) {
        const char16_t u = c.unicode();
        if (!((u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f')))
            return false;
    }
    return true;
}

QString sealSecret(const QByteArray &codeKey, const QByteArray &secret, const QByteArray &aad)
{
    const QByteArray key = sealKey(codeKey);
    const QByteArray iv = randomBytes(kIvBytes);
    CipherContext context(EVP_CIPHER_CTX_new());
    QByteArray out(secret.size() + kTagBytes, Qt::Uninitialized);
    int length = 0;
    int tail = 0;
    const auto *keyBytes = reinterpret_cast<const unsigned char *>(key.constData());
    const auto *ivBytes = reinterpret_cast<const unsigned char *>(iv.constData());
    auto *outBytes = reinterpret_cast<unsigned char *>(out.data());
    if (!context || EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, keyBytes, ivBytes) != 1 ||
        EVP_EncryptUpdate(context.get(), nullptr, &length,
                          reinterpret_cast<const unsigned char *>(aad.constData()), int(aad.size())) != 1 ||
        EVP_EncryptUpdate(context.get(), outBytes, &length,
                          reinterpret_cast<const unsigned char *>(secret.constData()),
                          int(secret.size())) != 1 ||
        EVP_EncryptFinal_ex(context.get(), outBytes + length, &tail) != 1 ||
        EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, outBytes + length + tail) != 1)
        return {};
    out.resize(length + tail + kTagBytes);
    return QString::fromLatin1(QByteArray(iv + out).toBase64(kBase64Url));
}

std::expected<QByteArray, QString> openSecret(const QByteArray &codeKey, QStringView sealed,
                                              const QByteArray &aad)
{
    const auto refused = [] {
        return std::unexpected(QStringLiteral("The sealed secret does not open with this pairing code (a "
                                              "different code, or it was altered on the way)"));
    };
    if (sealed.size() > kMaxSealedChars)
        return refused();
    const auto decoded = QByteArray::fromBase64Encoding(
        sealed.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() < kIvBytes + kTagBytes)
        return refused();
    const QByteArray &bytes = decoded.decoded;
    const QByteArray key = sealKey(codeKey);
    const QByteArray iv = bytes.left(kIvBytes);
    const QByteArray cipher = bytes.mid(kIvBytes, bytes.size() - kIvBytes - kTagBytes);
    QByteArray tag = bytes.right(kTagBytes);
    CipherContext context(EVP_CIPHER_CTX_new());
    QByteArray plain(cipher.size() + 1, Qt::Uninitialized);
    int length = 0;
    int tail = 0;
    auto *plainBytes = reinterpret_cast<unsigned char *>(plain.data());
    if (!context ||
        EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr,
                           reinterpret_cast<const unsigned char *>(key.constData()),
                           reinterpret_cast<const unsigned char *>(iv.constData())) != 1 ||
        EVP_DecryptUpdate(context.get(), nullptr, &length,
                          reinterpret_cast<const unsigned char *>(aad.constData()), int(aad.size())) != 1 ||
        EVP_DecryptUpdate(context.get(), plainBytes, &length,
                          reinterpret_cast<const unsigned char *>(cipher.constData()),
                          int(cipher.size())) != 1 ||
        EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
        EVP_DecryptFinal_ex(context.get(), plainBytes + length, &tail) != 1)
        return refused();
    plain.resize(length + tail);
    return plain;
}

CodeBook::Issued CodeBook::issue(const QString &issuerPin, qint64 nowMs)
{
    expire(nowMs);
    while (m_live.size() >= kMaxLive)
        m_live.removeFirst();
    const QString code = newCode();
    const qint64 expiresAt = nowMs + kLifetimeMs;
    m_live.append({codeKey(*normalizeCode(code), issuerPin), expiresAt, 0});
    return {code, expiresAt};
}

std::optional<QByteArray> CodeBook::redeem(const std::function<bool(const QByteArray &key)> &matches,
                                           qint64 nowMs)
{
    expire(nowMs);
    for (qsizetype i = 0; i < m_live.size(); ++i) {
        if (matches(m_live.at(i).key)) {
            const QByteArray key = m_live.at(i).key;
            m_live.removeAt(i);
            return key;
        }
    }
    for (Live &live : m_live)
        ++live.failures;
    const qsizetype before = m_live.size();
    m_live.removeIf([](const Live &live) { return live.failures >= kMaxFailures; });
    m_burned += int(before - m_live.size());
    return std::nullopt;
}

int CodeBook::liveCount(qint64 nowMs)
{
    expire(nowMs);
    return int(m_live.size());
}

void CodeBook::expire(qint64 nowMs)
{
    m_live.removeIf([nowMs](const Live &live) { return live.expiresAtMs <= nowMs; });
}

} // namespace Federation::PairingCode
