#pragma once

#include "common/result.h"
#include "federation/federationtable.h"

#include <QJsonArray>
#include <QList>
#include <QString>

namespace Broker {
struct ModuleMigration;
} // namespace Broker

namespace Federation {

// Why a signed relay is refused although its HMAC is right.
enum class ReplayRefusal {
    Stale, // ts further than kWindowMs from our clock
    Replayed, // this sender used this nonce before
    Required, // no ts/nonce from a sender that sent them before, or accept_legacy is off
    WrongMachine, // to_machine names another host (a relay for B replayed to C)
    Database,
};

// The federation's own tables and what inbound relays need from them: the nonces seen (in
// SQLite, so a restart does not reopen the window), the senders known to send replay fields
// (never downgraded), and the log of legacy (0.7) uses shown in status.
class ReplayGuard : private FederationTable
{
public:
    static constexpr qint64 kWindowMs = 300'000; // ±300 s
    static constexpr qint64 kKeepMs = 2 * kWindowMs; // a nonce is kept this long after its ts

    // The module's schema (module "federation").
    static QList<Broker::ModuleMigration> migrations();

    ReplayGuard(Database database, const Broker::Clock &clock);

    // A relay with ts and nonce from `sender` (its from_machine): fresh → recorded.
    std::expected<void, ReplayRefusal> admit(const QString &sender, const QString &nonce, qint64 ts);
    // A sender that once sent replay fields must keep sending them.
    bool sendsReplayFields(const QString &sender);
    // Forgets nonces whose ts is older than kKeepMs.
    void purgeExpired();

    // A legacy use (kind "psk-header" or "relay-without-replay-fields") by `peer`: counted;
    // true the first time for this peer and kind (the caller logs then, once).
    bool recordLegacyUse(const QString &peer, const QString &kind);
    QJsonArray legacyUses() const; // [{"peer","kind","uses","first_at","last_at"}]

    static QString refusalMessage(ReplayRefusal refusal);
};

} // namespace Federation
