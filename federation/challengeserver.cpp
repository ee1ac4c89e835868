#include "federation/challengeserver.h"

#include "broker/clock.h"
#include "federation/federationlogging.h"
#include "federation/subnetfilter.h"

#include <QCryptographicHash>

#include <algorithm>

namespace Federation {

using namespace Challenge;

namespace {

ChallengeServer::Answer error(int status, const QString &message)
{
    return {status, {{QStringLiteral("error"), message}}};
}

ChallengeServer::Answer parseFailure(const ParseError &failure, const char *what)
{
    if (failure.kind == ParseErrorKind::TooLarge)
        return error(413, failure.message);
    return error(400, QStringLiteral("Invalid %1: %2").arg(QLatin1String(what), failure.message));
}

// The oldest entry among those `among` accepts.
template<typename Map, typename Among> void dropOldest(Map &map, Among among)
{
    auto oldest = map.end();
    for (auto it = map.begin(); it != map.end(); ++it)
        if (among(*it) && (oldest == map.end() || it->order < oldest->order))
            oldest = it;
    if (oldest != map.end())
        map.erase(oldest);
}

template<typename Map> void dropOldest(Map &map)
{
    dropOldest(map, [](const auto &) { return true; });
}

} // namespace

QByteArray ChallengeServer::sessionKey(QByteArrayView token)
{
    return QCryptographicHash::hash(token, QCryptographicHash::Sha256);
}

bool ChallengeServer::limited(const QString &source, qint64 now) const
{
    auto it = m_failures.constFind(source);
    return it != m_failures.constEnd() && now - it->windowStartMs < kFailureWindowMs &&
        it->count >= kMaxFailures;
}

ChallengeServer::Answer ChallengeServer::failed(const QString &source, qint64 now, const QString &message)
{
    ++m_failed;
    if (m_failures.size() >= kMaxTrackedSources) {
        m_failures.removeIf(
            [now](const auto &entry) { return now - entry.value().windowStartMs >= kFailureWindowMs; });
        while (m_failures.size() >= kMaxTrackedSources)
            m_failures.erase(m_failures.begin());
    }
    Failures &failures = m_failures[source];
    if (now - failures.windowStartMs >= kFailureWindowMs)
        failures = {0, now};
    ++failures.count;
    qCInfo(lcFederation).noquote() << "challenge verification from" << source << "failed:" << message;
    return error(403, message);
}

void ChallengeServer::dropExpired(qint64 now)
{
    m_challenges.removeIf([now](const auto &entry) { return entry.value().expiresMs <= now; });
    m_sessions.removeIf([now](const auto &entry) { return entry.value().expiresMs <= now; });
}

ChallengeServer::Answer ChallengeServer::challenge(const QHostAddress &from, QByteArrayView body)
{
    const qint64 now = m_context.clock->monotonicMs();
    const QHostAddress source = SubnetFilter::unmapped(from);
    if (limited(source.toString(), now))
        return error(429,
                     QStringLiteral("Too many failed verifications from %1; wait a minute and check "
                                    "that both machines hold the same federation PSK")
                         .arg(source.toString()));
    auto request = parseChallengeRequest(body);
    if (!request)
        return parseFailure(request.error(), "challenge");
    dropExpired(now);
    const auto fromSource = [&source](const Pending &pending) { return pending.source == source; };
    if (std::count_if(m_challenges.cbegin(), m_challenges.cend(), fromSource) >= kMaxChallengesPerSource)
        dropOldest(m_challenges, fromSource);
    else if (m_challenges.size() >= kMaxChallenges)
        dropOldest(m_challenges);
    Pending pending;
    pending.transcript.clientNonce = request->clientNonce;
    pending.transcript.serverNonce = randomToken(16);
    pending.transcript.serverPin = m_context.ownPin ? m_context.ownPin() : QString();
    pending.transcript.clientPin = request->clientPin;
    pending.transcript.clientHostname = request->hostname;
    pending.transcript.serverHostname = m_context.hostname;
    pending.port = request->port;
    pending.source = source;
    pending.expiresMs = now + kChallengeLifetimeMs;
    pending.order = ++m_order;
    const QString id = randomToken(16);
    ChallengeAnswer answer {id, pending.transcript.serverNonce, m_context.hostname,
                            proof(m_context.psk(), Role::Server, pending.transcript)};
    m_challenges.insert(id, std::move(pending));
    return {200, answer.toJson()};
}

ChallengeServer::Answer ChallengeServer::verify(const QHostAddress &from, QByteArrayView body)
{
    const qint64 now = m_context.clock->monotonicMs();
    const QHostAddress source = SubnetFilter::unmapped(from);
    const QString sourceText = source.toString();
    if (limited(sourceText, now))
        return error(429,
                     QStringLiteral("Too many failed verifications from %1; wait a minute and check "
                                    "that both machines hold the same federation PSK")
                         .arg(sourceText));
    auto request = parseVerifyRequest(body);
    if (!request)
        return parseFailure(request.error(), "verification");
    dropExpired(now);
    // Single use: whatever the outcome, the challenge is gone.
    const std::optional<Pending> pending = m_challenges.contains(request->challengeId)
        ? std::optional<Pending>(m_challenges.take(request->challengeId))
        : std::nullopt;
    if (!pending || pending->source != source)
        return failed(sourceText, now,
                      QStringLiteral("Unknown or expired challenge; start again with /federation/challenge"));
    if (!proofMatches(m_context.psk(), Role::Client, pending->transcript, request->clientProof))
        return failed(sourceText, now,
                      QStringLiteral("Challenge verification failed: the client did not prove the federation "
                                     "PSK (the two machines hold different PSKs)"));
    if (m_sessions.size() >= kMaxSessions)
        dropOldest(m_sessions);
    const QString token = randomToken(32);
    Session session {pending->transcript.clientHostname,
                     pending->transcript.clientPin,
                     pending->port,
                     source,
                     now + kSessionLifetimeMs,
                     ++m_order};
    m_sessions.insert(sessionKey(token.toLatin1()), session);
    ++m_issued;
    m_failures.remove(sourceText);
    qCInfo(lcFederation).noquote() << session.hostname << "at" << sourceText
                                   << "proved the federation PSK; session issued";
    return {200, VerifyAnswer {token, kSessionLifetimeMs / 1000}.toJson()};
}

const ChallengeServer::Session *ChallengeServer::session(QByteArrayView token, const QHostAddress &from)
{
    if (token.isEmpty() || token.size() > kMaxSessionHeaderBytes)
        return nullptr;
    auto it = m_sessions.find(sessionKey(token));
    if (it == m_sessions.end())
        return nullptr;
    if (it->expiresMs <= m_context.clock->monotonicMs()) {
        m_sessions.erase(it);
        return nullptr;
    }
    if (it->source != SubnetFilter::unmapped(from))
        return nullptr;
    return &*it;
}

void ChallengeServer::clear()
{
    m_challenges.clear();
    m_sessions.clear();
}

} // namespace Federation
