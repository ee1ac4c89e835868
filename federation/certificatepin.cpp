#include "federation/certificatepin.h"
#include "federation/internal/openssl.h"

#include <QCryptographicHash>
#include <QSslCertificate>

#include <openssl/x509.h>

#include <algorithm>

namespace Federation {

QString spkiPinFromDer(const QByteArray &subjectPublicKeyInfoDer)
{
    if (subjectPublicKeyInfoDer.isEmpty())
        return {};
    const QByteArray digest = QCryptographicHash::hash(subjectPublicKeyInfoDer, QCryptographicHash::Sha256);
    return kPinPrefix.toString() +
        QString::fromLatin1(digest.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString spkiPin(const QSslCertificate &certificate)
{
    if (certificate.isNull())
        return {};
    return spkiPinFromDer(Internal::subjectPublicKeyInfoDer(certificate.toDer()));
}

bool isWellFormedPin(QStringView pin)
{
    if (!pin.startsWith(kPinPrefix) || pin.size() != kPinPrefix.size() + 43)
        return false;
    const QStringView digest = pin.mid(kPinPrefix.size());
    const bool alphabet = std::all_of(digest.begin(), digest.end(), [](QChar c) {
        return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') ||
            c == u'-' || c == u'_';
    });
    // 43 characters carry 258 bits: the last one's two low bits are zero for 32 bytes.
    static constexpr QStringView lastChars = u"AEIMQUYcgkosw048";
    return alphabet && lastChars.contains(digest.back());
}

bool pinsEqual(QStringView a, QStringView b)
{
    if (a.size() != b.size())
        return false;
    char16_t difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= char16_t(a[i].unicode() ^ b[i].unicode());
    return difference == 0;
}

QString shortAuthenticationString(QStringView pinA, QStringView pinB, const QByteArray &context)
{
    const QStringView low = pinA < pinB ? pinA : pinB;
    const QStringView high = pinA < pinB ? pinB : pinA;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView("claude-peers-sas-v1"));
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(low.toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(high.toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(context);
    const QByteArray digest = hash.result();
    quint64 value = 0;
    for (int i = 0; i < 8; ++i)
        value = (value << 8) | quint8(digest[i]);
    // 2^64 mod 10^6 leaves a bias of about 10^-13 per value: irrelevant.
    return QStringLiteral("%1").arg(value % 1000000, 6, 10, QLatin1Char('0'));
}

} // namespace Federation
