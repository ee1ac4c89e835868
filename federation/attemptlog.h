#pragma once

#include "http/httptypes.h"

#include <QJsonArray>
#include <QList>
#include <QString>

#include <functional>

// The federation audit trail ("none of them has" item 6 of the GUI anchors): what the
// federation port refused — sources outside the subnets, a wrong PSK, a wrong pairing code, a
// failed challenge, a forged or replayed relay, the rate limits — and the user's pairing
// decisions (accepted, rejected, revoked, key rotated). Kept in memory (a restart starts a new
// list), bounded, and a burst of the same refusal from one source folds into one row with a
// count, so a flood cannot push the rest out.
namespace Federation {

struct Attempt
{
    QString kind; // "refused" | "accepted" | "rejected" | "revoked" | "key-rotated"
    QString address; // the source address (refusals) or the remote's host:port (decisions)
    QString hostname; // what the caller said it is (not proved) or the paired hostname
    QString fingerprint; // what the caller said its pin is, or the pinned one
    QString path; // the federation route it asked for
    int status = 0; // the HTTP status it got (refusals)
    QString reason; // the refusal's message, as the caller received it
    qint64 firstAtMs = 0;
    qint64 lastAtMs = 0;
    int count = 1;
};

class AttemptLog
{
public:
    static constexpr int kMaxEntries = 256;
    static constexpr qint64 kKeepMs = 7LL * 24 * 3600 * 1000;
    static constexpr qint64 kFoldWindowMs = 10LL * 60 * 1000;

    void record(Attempt attempt, qint64 nowMs);
    // Newest first (by the last time seen).
    QList<Attempt> entries(qint64 nowMs);
    QJsonArray toJson(qint64 nowMs);
    // Refusals recorded (folded ones counted each), since start.
    qint64 refusals() const { return m_refusals; }

private:
    void prune(qint64 nowMs);
    QList<Attempt> m_entries; // oldest first
    qint64 m_refusals = 0;
};

// In front of the federation port's handler: every refusal it answers (403, 413, 429) goes into
// the log with the hostname and fingerprint the caller claimed in its body.
class AttemptRecordingHandler final : public Broker::Http::RequestHandler
{
public:
    static constexpr qsizetype kMaxInspectedBodyBytes = 64 * 1024;

    AttemptRecordingHandler(Broker::Http::RequestHandler *inner, AttemptLog *log,
                            std::function<qint64()> nowMs)
        : m_inner(inner), m_log(log), m_nowMs(std::move(nowMs))
    {
    }

    void handle(const Broker::Http::Request &request, const Broker::Http::ResponderPtr &responder) override;

    static bool isRecordedStatus(int status) { return status == 403 || status == 413 || status == 429; }

private:
    Broker::Http::RequestHandler *m_inner;
    AttemptLog *m_log;
    std::function<qint64()> m_nowMs;
};

} // namespace Federation
