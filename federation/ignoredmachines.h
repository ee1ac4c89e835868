#pragma once

#include "federation/federationtable.h"

#include <QJsonArray>
#include <QList>
#include <QString>

namespace Broker {
struct ModuleMigration;
} // namespace Broker

namespace Federation {

// Machines whose pairing request the user ignored (the tray's Ignore, `federation reject`), by
// certificate pin, in SQLite (module migration 5) so a restart does not forget them. A machine
// found again by DNS-SD is then listed as discovered, not proposed as a new request — without
// this, every announcement brought the ignored card back. A request made with a one-time code
// still reaches the user (they handed the code out); accepting it, joining it or `federation
// unignore` takes the machine off the list.
class IgnoredMachines : private FederationTable
{
public:
    static constexpr int kMaxEntries = 256; // the oldest goes first

    static QList<Broker::ModuleMigration> migrations(); // version 5 of module "federation"

    IgnoredMachines(Database database, const Broker::Clock &clock);

    // An empty pin is not recorded (a 0.7 broker has none: nothing could recognise it again).
    void add(const QString &pin, const QString &hostname, const QString &address);
    // False when that pin was not ignored.
    bool remove(const QString &pin);
    bool isIgnored(const QString &pin) const;
    // Newest first: [{"fingerprint","hostname","address","ignored_at"}].
    QJsonArray toJson() const;
};

} // namespace Federation
