#include "broker/internal/auth.h"
#include "broker/brokerlogging.h"
#include "broker/internal/peerid.h"
#include "broker/internal/store.h"

namespace Broker {

Authenticator::Authenticator(const Store &store) : m_store(store)
{
    m_monotonic.start();
}

void Authenticator::forget(const QString &peerId)
{
    for (auto it = m_cache.begin(); it != m_cache.end();) {
        if (it->peerId == peerId)
            it = m_cache.erase(it);
        else
            ++it;
    }
}

bool Authenticator::constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

Credential Authenticator::resolve(const QByteArray &authorizationHeader) const
{
    static const QByteArray prefix = QByteArrayLiteral("Bearer ");
    if (!authorizationHeader.startsWith(prefix))
        return {};
    const QByteArray presented = authorizationHeader.mid(prefix.size());
    if (presented.isEmpty())
        return {};
    if (!m_token.isEmpty() && constantTimeEquals(presented, m_token))
        return Credential {Credential::Kind::MainToken, {}};
    if (!SessionSecret::looksLikeSecret(presented))
        return {};
    // The key's seed is random per process, and a hit compares the whole secret in constant
    // time, so neither the bucket nor the compare tells an attacker which bytes were right.
    const size_t key = qHash(presented, QHashSeed::globalSeed());
    const qint64 now = m_monotonic.elapsed();
    if (auto it = m_cache.constFind(key); it != m_cache.cend()) {
        if (now - it->atMs < cacheMs && constantTimeEquals(it->secret, presented))
            return Credential {Credential::Kind::Session, it->peerId};
        m_cache.erase(it);
    }
    // The database holds only hashes, so the lookup itself leaks nothing about the secret.
    auto peerId = m_store.peerIdForSecretHash(SessionSecret::hash(presented));
    if (!peerId) {
        qCWarning(lcApi).noquote() << "Session secret lookup failed:" << peerId.error().message;
        return {};
    }
    if (!peerId->has_value())
        return {};
    if (m_cache.size() >= 4096) // bounded: expired entries of many short sessions
        m_cache.clear();
    m_cache.insert(key, Cached {presented, **peerId, now});
    return Credential {Credential::Kind::Session, **peerId};
}

} // namespace Broker
