#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QString>

#include <expected>
#include <optional>

// Pairing requests waiting for the user (issue #9): a machine that proved the one-time code, or
// (feddisco) an unknown host found by DNS-SD. Bounded, rate-limited per source address, expiring;
// decided ones stay a while so the tray can show what happened. Pure bookkeeping: the caller
// passes the time, FederationModule does the pinning and connecting.
namespace Federation {

enum class PendingOrigin { Code, Discovery };
enum class PendingState { Pending, Accepted, Rejected };

struct PendingRequest
{
    QString id;
    QString host; // the source address as we saw it
    int port = 0; // its federation port, as it said
    QString hostname;
    QString fingerprint; // its pin
    QString sas; // six digits both sides show
    PendingOrigin origin = PendingOrigin::Code;
    PendingState state = PendingState::Pending;
    qint64 receivedAtMs = 0;
    qint64 decidedAtMs = 0;
    // Code pairing: the code's key and both nonces (to check collect proofs and seal the PSK).
    QByteArray codeKey;
    QString clientNonce;
    QString serverNonce;
    int badProofs = 0;
};

class PendingRequests
{
public:
    static constexpr int kMaxPending = 16;
    static constexpr int kMaxKept = 64; // pending + decided, for the tray
    static constexpr qint64 kLifetimeMs = 10 * 60 * 1000; // pending, and decided ones kept
    static constexpr int kAttemptsPerMinute = 5; // pairing attempts per source address

    struct Candidate
    {
        QString host;
        int port = 0;
        QString hostname;
        QString fingerprint;
        PendingOrigin origin = PendingOrigin::Discovery;
        QString sas;
        QByteArray codeKey;
        QString clientNonce;
        QString serverNonce;
    };

    // A new pending request; its id, or why not (full, or that fingerprint is already waiting).
    std::expected<QString, QString> add(Candidate candidate, qint64 nowMs);
    // One attempt from `source` (any outcome); false once it made kAttemptsPerMinute this minute.
    bool allowAttempt(const QString &source, qint64 nowMs);

    PendingRequest *find(const QString &id, qint64 nowMs);
    // Pending → accepted/rejected; false when it is not pending (or unknown).
    bool decide(const QString &id, PendingState state, qint64 nowMs);
    void remove(const QString &id);
    int pendingCount(qint64 nowMs);
    // Every kept request, oldest first, as /federation/pending lists it.
    QJsonArray toJson(qint64 nowMs);

    static QString stateName(PendingState state);
    static QString originName(PendingOrigin origin);

private:
    void expire(qint64 nowMs);
    QList<PendingRequest> m_requests;
    QHash<QString, QList<qint64>> m_attempts; // source → attempt times within the last minute
};

} // namespace Federation
