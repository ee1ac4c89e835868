#pragma once

#include "common/config.h"
#include "common/location.h"

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace Federation {

// What the federation module is told at start (docs/spec/peers-api.md §6.1, §6.2, §10): config file
// federation.* with the environment's overrides.
struct FederationSettings
{
    bool enabled = false;
    quint16 port = 7900;
    QStringList subnets; // allowed sources (CIDR); empty: everyone (auto-detect is the subnet filter's)
    QString subnet() const { return subnets.join(QLatin1Char(',')); } // as 0.7's status shows it
    bool acceptLegacy = true; // 0.7's PSK header and relays without ts/nonce are accepted
    QString hostname; // lower-cased, ≤ 63 characters, no ':'
    QString hostnameError; // why the machine hostname cannot be used (contains ':')
    QList<Broker::ConfigFile::Remote> remotes;
    // DNS-SD discovery (docs/spec/peers-api.md §6.8): on unless CLAUDE_PEERS_MDNS_ENABLED is
    // exactly "false" or federation.mdns.enabled is false; mdnsOffReason says which.
    bool mdnsEnabled = true;
    QString mdnsOffReason;
    QString configPath;
    QString home; // where the PSK file lives when no keychain answers
    QString tokenPath; // the local token, copied into the PSK once (migration)

    static FederationSettings load(const Broker::Location &location,
                                   const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    // os.hostname() as 0.7 normalizes it: lower case, cut to 63 characters.
    static QString normalizeHostname(const QString &name);
};

} // namespace Federation
