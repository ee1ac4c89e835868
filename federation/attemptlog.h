#pragma once

#include "broker/http/httptypes.h"
#include "federation/federationtable.h"

#include <QJsonArray>
#include <QList>
#include <QString>

namespace Broker {
struct ModuleMigration;
} // namespace Broker

// The federation audit trail ("none of them has" item 6 of the GUI anchors): what the
// federation port refused — sources outside the subnets, a wrong PSK, a wrong pairing code, a
// failed challenge, a forged or replayed relay, the rate limits — and the user's pairing
// decisions (accepted, rejected = ignored, un-ignored, joined, revoked, key rotated). Kept in the
// broker's SQLite file (module migration 4), so it survives restarts; bounded by count and age,
// and a burst of the same refusal from one source folds into one row with a count, so a flood
// cannot push the rest out.
namespace Federation {

struct Attempt
{
    // "refused" | "accepted" | "rejected" | "unignored" | "joined" | "revoked" | "key-rotated"
    QString kind;
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

class AttemptLog : private FederationTable
{
public:
    static constexpr int kMaxEntries = 1000;
    static constexpr qint64 kKeepMs = 30LL * 24 * 3600 * 1000;
    static constexpr qint64 kFoldWindowMs = 10LL * 60 * 1000;

    static QList<Broker::ModuleMigration> migrations(); // version 4 of module "federation"

    AttemptLog(Database database, const Broker::Clock &clock);

    // At the clock's time; a row that cannot be written is logged and lost (the port still answers).
    void record(Attempt attempt);
    // Newest first (by the last time seen), at most kMaxEntries, none older than kKeepMs.
    QList<Attempt> entries() const;
    QJsonArray toJson() const;
    // Refusals recorded (folded ones counted each) since this broker started.
    qint64 refusals() const { return m_refusals; }

private:
    bool fold(const Attempt &attempt, qint64 nowMs);
    void prune(qint64 nowMs);
    qint64 m_refusals = 0;
};

// In front of the federation port's handler: every refusal it answers (403, 413, 429) goes into
// the log with the hostname and fingerprint the caller claimed in its body.
class AttemptRecordingHandler final : public Broker::Http::RequestHandler
{
public:
    static constexpr qsizetype kMaxInspectedBodyBytes = 64 * 1024;

    AttemptRecordingHandler(Broker::Http::RequestHandler *inner, AttemptLog *log) : m_inner(inner), m_log(log)
    {
    }

    void handle(const Broker::Http::Request &request, const Broker::Http::ResponderPtr &responder) override;

    static bool isRecordedStatus(int status) { return status == 403 || status == 413 || status == 429; }

private:
    Broker::Http::RequestHandler *m_inner;
    AttemptLog *m_log;
};

} // namespace Federation
