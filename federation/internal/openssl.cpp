#include "federation/internal/openssl.h"

#include <QStringList>

#include <openssl/err.h>

namespace Federation::Internal {

QString takeOpenSslErrors()
{
    QStringList parts;
    while (const unsigned long code = ERR_get_error()) {
        char text[256];
        ERR_error_string_n(code, text, sizeof text);
        parts << QString::fromLatin1(text);
    }
    return parts.isEmpty() ? QStringLiteral("unknown error") : parts.join(QStringLiteral("; "));
}

BioPtr memoryBio(const QByteArray &bytes)
{
    return BioPtr(BIO_new_mem_buf(bytes.constData(), int(bytes.size())));
}

QByteArray bioContents(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return size > 0 ? QByteArray(data, qsizetype(size)) : QByteArray();
}

QByteArray subjectPublicKeyInfoDer(X509 *certificate)
{
    X509_PUBKEY *key = certificate ? X509_get_X509_PUBKEY(certificate) : nullptr;
    if (!key)
        return {};
    unsigned char *der = nullptr;
    const int size = i2d_X509_PUBKEY(key, &der);
    if (size <= 0)
        return {};
    QByteArray out(reinterpret_cast<const char *>(der), size);
    OPENSSL_free(der);
    return out;
}

QByteArray subjectPublicKeyInfoDer(const QByteArray &certificateDer)
{
    const auto *p = reinterpret_cast<const unsigned char *>(certificateDer.constData());
    X509Ptr certificate(d2i_X509(nullptr, &p, long(certificateDer.size())));
    if (!certificate) {
        ERR_clear_error();
        return {};
    }
    return subjectPublicKeyInfoDer(certificate.get());
}

} // namespace Federation::Internal
