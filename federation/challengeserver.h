#pragma once

#include "federation/challengeproof.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

namespace Broker {
class Clock;
}

namespace Federation {

// The server side of the challenge/verify exchange (challengeproof.h): pending challenges
// (single use, 30 s, bounded), the sessions it hands out (random, in memory only, bounded in
// number and lifetime; a broker restart forgets them and clients run the exchange again on
// their 401), and a per-source limit on failed verifications. Timed by the broker's clock.
class ChallengeServer
{
public:
    static constexpr qint64 kChallengeLifetimeMs = 30'000;
    static constexpr qint64 kSessionLifetimeMs = 3'600'000;
    static constexpr int kMaxChallenges = 256;
    static constexpr int kMaxChallengesPerSource = 16; // so one source cannot push out the others'
    static constexpr int kMaxSessions = 1024;
    static constexpr int kMaxFailures = 10; // failed verifications per source and window
    static constexpr qint64 kFailureWindowMs = 60'000;
    static constexpr int kMaxTrackedSources = 4096;

    struct Context
    {
        QString hostname;
        std::function<QByteArray()> psk;
        std::function<QString()> ownPin; // our certificate's pin ("" on plain HTTP)
        const Broker::Clock *clock = nullptr;
    };

    struct Answer
    {
        int status = 200;
        QJsonObject body;
    };

    // Who a session belongs to, as its verification showed.
    struct Session
    {
        QString hostname;
        QString clientPin;
        std::optional<int> port;
        QHostAddress source;
        qint64 expiresMs = 0; // monotonic
        quint64 order = 0; // when it was made: the oldest goes first when full
    };

    explicit ChallengeServer(Context context) : m_context(std::move(context)) { }

    Answer challenge(const QHostAddress &source, QByteArrayView body);
    Answer verify(const QHostAddress &source, QByteArrayView body);

    // The live session `token` names, used from `source` (the address that verified it);
    // nullptr when unknown, expired (then forgotten) or used from elsewhere.
    const Session *session(QByteArrayView token, const QHostAddress &source);
    // The PSK changed: every challenge and session proved the old one.
    void clear();

    int sessionCount() const { return int(m_sessions.size()); }
    qint64 sessionsIssued() const { return m_issued; }
    qint64 failedVerifications() const { return m_failed; }

private:
    struct Pending
    {
        Challenge::Transcript transcript;
        std::optional<int> port;
        QHostAddress source;
        qint64 expiresMs = 0;
        quint64 order = 0;
    };
    struct Failures
    {
        int count = 0;
        qint64 windowStartMs = 0;
    };

    bool limited(const QString &source, qint64 now) const;
    Answer failed(const QString &source, qint64 now, const QString &message);
    void dropExpired(qint64 now);
    static QByteArray sessionKey(QByteArrayView token);

    Context m_context;
    QHash<QString, Pending> m_challenges; // by challenge id
    QHash<QByteArray, Session> m_sessions; // by SHA-256 of the token: lookups leak nothing of it
    QHash<QString, Failures> m_failures; // by source address
    quint64 m_order = 0;
    qint64 m_issued = 0;
    qint64 m_failed = 0;
};

} // namespace Federation
