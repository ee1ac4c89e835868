#pragma once

#include "broker/internal/privateheader.h"

#include "broker/credential.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QString>

namespace Broker {

class Store;

// Resolves the Authorization header (docs/spec/peers-api.md §3.1 step 4 plus docs/protocol.md secrets).
class Authenticator
{
public:
    explicit Authenticator(const Store &store);

    void setToken(const QByteArray &token) { m_token = token; }
    const QByteArray &token() const { return m_token; }

    // "Bearer <credential>" exactly (case-sensitive, one space, credential not trimmed).
    // A session secret found in the store is remembered for up to cacheMs (a lookup per
    // request was a tenth of a send's cost); forget() drops it at once when the peer's row is
    // removed or replaced, so only another process editing the database waits for the expiry.
    Credential resolve(const QByteArray &authorizationHeader) const;
    void forget(const QString &peerId);
    void forgetAll() { m_cache.clear(); }

    static constexpr qint64 cacheMs = 1000;

    // Length check, then a compare whose time does not depend on where the bytes differ.
    static bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

private:
    struct Cached
    {
        QByteArray secret; // compared in constant time on a hit
        QString peerId;
        qint64 atMs = 0;
    };

    const Store &m_store;
    QByteArray m_token;
    QElapsedTimer m_monotonic;
    // By a seeded hash of the presented secret, not its SHA-256: the SHA-256 per request was
    // ~7% of a send's instructions. The store still sees only SHA-256 hashes.
    mutable QHash<size_t, Cached> m_cache;
};

} // namespace Broker
