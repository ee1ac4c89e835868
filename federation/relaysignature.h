#pragma once

#include "federation/orderedjson.h"

#include <QByteArray>
#include <QByteArrayView>

namespace Federation::RelaySignature {

// claude-peers 0.7's relay signature (docs/spec/peers-api.md §6.5): lower-case hex of
// HMAC-SHA256(key, CanonicalJson::signedForm(body)). The key is the PSK string's UTF-8 bytes as
// they are (0.7's 64 hex characters are not hex-decoded). "signature" itself is not covered.
QByteArray compute(const JsonObject &body, QByteArrayView key);

// Whether `signature` is the signature of `body`: length check, then a constant-time compare.
bool matches(const JsonObject &body, QByteArrayView signature, QByteArrayView key);

// Constant-time equality (OpenSSL's CRYPTO_memcmp); unequal lengths are unequal at once.
bool constantTimeEquals(QByteArrayView a, QByteArrayView b);

} // namespace Federation::RelaySignature
