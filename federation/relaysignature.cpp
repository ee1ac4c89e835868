#include "federation/relaysignature.h"

#include "federation/canonicaljson.h"

#include <QMessageAuthenticationCode>

#include <openssl/crypto.h>

namespace Federation::RelaySignature {

QByteArray compute(const JsonObject &body, QByteArrayView key)
{
    return QMessageAuthenticationCode::hash(CanonicalJson::signedForm(body), key.toByteArray(),
                                            QCryptographicHash::Sha256)
        .toHex();
}

bool matches(const JsonObject &body, QByteArrayView signature, QByteArrayView key)
{
    return constantTimeEquals(compute(body, key), signature);
}

bool constantTimeEquals(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    return a.isEmpty() || CRYPTO_memcmp(a.data(), b.data(), std::size_t(a.size())) == 0;
}

} // namespace Federation::RelaySignature
