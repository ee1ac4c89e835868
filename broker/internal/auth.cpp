#include "auth.h"
#include "logging.h"
#include "peerid.h"
#include "store.h"

namespace Broker {

Authenticator::Authenticator(const Store &store) : m_store(store) { }

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
    // The database holds only hashes, so the lookup itself leaks nothing about the secret.
    auto peerId = m_store.peerIdForSecretHash(SessionSecret::hash(presented));
    if (!peerId) {
        qCWarning(lcApi).noquote() << "Session secret lookup failed:" << peerId.error().message;
        return {};
    }
    if (!peerId->has_value())
        return {};
    return Credential {Credential::Kind::Session, **peerId};
}

} // namespace Broker
