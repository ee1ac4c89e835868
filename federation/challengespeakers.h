#pragma once

#include "federation/federationtable.h"

#include <QList>
#include <QString>

namespace Broker {
struct ModuleMigration;
} // namespace Broker

namespace Federation {

// The remotes that once completed the challenge exchange, kept in SQLite (module migration 2):
// such a remote answering like 0.7 later is a possible downgrade attack, never a reason to send
// it the PSK header. A remote is known by its certificate pin (by address on plain HTTP, which
// only tests use), so re-pairing an address with another key starts afresh.
class ChallengeSpeakers : private FederationTable
{
public:
    static QList<Broker::ModuleMigration> migrations(); // version 2 of module "federation"

    ChallengeSpeakers(Database database, const Broker::Clock &clock);

    // "sha256-…" when the remote showed a certificate, else "address:<host>:<port>".
    static QString identity(const QString &pin, const QString &addressKey);

    bool speaks(const QString &identity) const;
    void record(const QString &identity, const QString &addressKey, const QString &hostname);
};

} // namespace Federation
