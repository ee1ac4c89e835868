#include "federation/pendingrequests.h"

#include "broker/clock.h"

#include <QJsonObject>
#include <QRandomGenerator>

namespace Federation {

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr int kMaxSources = 1024; // the attempt table itself is bounded

QString newId()
{
    return QString::number(QRandomGenerator::system()->generate64() & 0xffffffffffULL, 36)
        .rightJustified(8, u'0');
}

} // namespace

std::expected<QString, QString> PendingRequests::add(Candidate candidate, qint64 nowMs)
{
    expire(nowMs);
    for (const PendingRequest &r : m_requests) {
        if (r.state == PendingState::Pending && r.fingerprint == candidate.fingerprint)
            return std::unexpected(
                QStringLiteral("A pairing request from that machine is already waiting (id %1)").arg(r.id));
    }
    if (pendingCount(nowMs) >= kMaxPending)
        return std::unexpected(QStringLiteral("Too many pairing requests are waiting (%1); accept or reject "
                                              "some first (claude-peers federation pending)")
                                   .arg(kMaxPending));
    while (m_requests.size() >= kMaxKept) {
        const auto decided = std::find_if(m_requests.begin(), m_requests.end(), [](const PendingRequest &r) {
            return r.state != PendingState::Pending;
        });
        m_requests.erase(decided == m_requests.end() ? m_requests.begin() : decided);
    }
    PendingRequest request;
    request.id = newId();
    request.host = candidate.host;
    request.port = candidate.port;
    request.hostname = candidate.hostname;
    request.fingerprint = candidate.fingerprint;
    request.sas = candidate.sas;
    request.origin = candidate.origin;
    request.receivedAtMs = nowMs;
    request.codeKey = candidate.codeKey;
    request.clientNonce = candidate.clientNonce;
    request.serverNonce = candidate.serverNonce;
    m_requests.append(request);
    return request.id;
}

bool PendingRequests::allowAttempt(const QString &source, qint64 nowMs)
{
    if (!m_attempts.contains(source) && m_attempts.size() >= kMaxSources) {
        m_attempts.removeIf([nowMs](const auto &entry) {
            return entry.value().isEmpty() || entry.value().last() <= nowMs - kMinuteMs;
        });
        if (m_attempts.size() >= kMaxSources)
            return false;
    }
    QList<qint64> &times = m_attempts[source];
    times.removeIf([nowMs](qint64 t) { return t <= nowMs - kMinuteMs; });
    if (times.size() >= kAttemptsPerMinute)
        return false;
    times.append(nowMs);
    return true;
}

PendingRequest *PendingRequests::find(const QString &id, qint64 nowMs)
{
    expire(nowMs);
    for (PendingRequest &r : m_requests) {
        if (r.id == id)
            return &r;
    }
    return nullptr;
}

bool PendingRequests::decide(const QString &id, PendingState state, qint64 nowMs)
{
    PendingRequest *request = find(id, nowMs);
    if (!request || request->state != PendingState::Pending)
        return false;
    request->state = state;
    request->decidedAtMs = nowMs;
    return true;
}

void PendingRequests::remove(const QString &id)
{
    m_requests.removeIf([&](const PendingRequest &r) { return r.id == id; });
}

int PendingRequests::pendingCount(qint64 nowMs)
{
    expire(nowMs);
    return int(std::count_if(m_requests.begin(), m_requests.end(),
                             [](const PendingRequest &r) { return r.state == PendingState::Pending; }));
}

QJsonArray PendingRequests::toJson(qint64 nowMs)
{
    expire(nowMs);
    QJsonArray list;
    for (const PendingRequest &r : m_requests) {
        QJsonObject o {{QStringLiteral("id"), r.id},
                       {QStringLiteral("host"), r.host},
                       {QStringLiteral("port"), r.port},
                       {QStringLiteral("hostname"), r.hostname},
                       {QStringLiteral("fingerprint"), r.fingerprint},
                       {QStringLiteral("sas"), r.sas},
                       {QStringLiteral("origin"), originName(r.origin)},
                       {QStringLiteral("state"), stateName(r.state)},
                       {QStringLiteral("received_at"),
                        Broker::Clock::toIso(QDateTime::fromMSecsSinceEpoch(r.receivedAtMs, Qt::UTC))},
                       {QStringLiteral("age_s"), (nowMs - r.receivedAtMs) / 1000}};
        list.append(o);
    }
    return list;
}

QString PendingRequests::stateName(PendingState state)
{
    switch (state) {
    case PendingState::Pending:
        return QStringLiteral("pending");
    case PendingState::Accepted:
        return QStringLiteral("accepted");
    case PendingState::Rejected:
        return QStringLiteral("rejected");
    }
    return {};
}

QString PendingRequests::originName(PendingOrigin origin)
{
    return origin == PendingOrigin::Code ? QStringLiteral("code") : QStringLiteral("discovery");
}

void PendingRequests::expire(qint64 nowMs)
{
    m_requests.removeIf([nowMs](const PendingRequest &r) {
        const qint64 since = r.state == PendingState::Pending ? r.receivedAtMs : r.decidedAtMs;
        return since + kLifetimeMs <= nowMs;
    });
}

} // namespace Federation
