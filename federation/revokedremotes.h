#pragma once

#include "federation/federationtable.h"

#include <QJsonArray>
#include <QList>
#include <QString>

namespace Broker {
struct ModuleMigration;
} // namespace Broker

namespace Federation {

// Paired brokers the user revoked (module migration 3): their pin and hostname are refused on the
// federation port (challenge, handshake, relay) and never reached back, until the user pairs or
// connects them again. The mesh shares one PSK, so a revoked machine that misbehaves (lies about
// its name and key) is locked out only by rotating the key; the tray and the CLI say so.
class RevokedRemotes : private FederationTable
{
public:
    static QList<Broker::ModuleMigration> migrations(); // version 3 of module "federation"

    RevokedRemotes(Database database, const Broker::Clock &clock);

    void add(const QString &host, int port, const QString &hostname, const QString &pin);
    // Pairing or connecting again lifts it: by pin, by address (host:port) or by hostname.
    void lift(const QString &pin, const QString &addressKey, const QString &hostname = {});
    // A refusal message when hostname or pin (either may be empty) was revoked, else empty.
    QString refusal(const QString &hostname, const QString &pin) const;
    QJsonArray toJson() const;
};

} // namespace Federation
