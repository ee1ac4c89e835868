#pragma once

#include <QByteArray>
#include <QString>

namespace Broker {

class Store;

// Who is asking: the main token (every right) or a session secret (acts only as its peer).
struct Credential
{
    enum class Kind { None, MainToken, Session };
    Kind kind = Kind::None;
    QString peerId; // set for Session

    bool isValid() const { return kind != Kind::None; }
    bool isMain() const { return kind == Kind::MainToken; }
};

// Resolves the Authorization header (reference §3.1 step 4 plus docs/protocol.md secrets).
class Authenticator
{
public:
    explicit Authenticator(const Store &store);

    void setToken(const QByteArray &token) { m_token = token; }
    const QByteArray &token() const { return m_token; }

    // "Bearer <credential>" exactly (case-sensitive, one space, credential not trimmed).
    Credential resolve(const QByteArray &authorizationHeader) const;

    // Length check, then a compare whose time does not depend on where the bytes differ.
    static bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

private:
    const Store &m_store;
    QByteArray m_token;
};

} // namespace Broker
