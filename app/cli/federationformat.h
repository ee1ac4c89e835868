#pragma once

#include "common/wire.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <optional>

// Pure texts of the `federation …` commands (docs/spec/peers-api.md §8 where 0.7 has the command), so they
// unit-test without a broker.
namespace Cli::FederationFormat {

// `federation status`: 0.7's lines, then ours (hostname, fingerprint, warnings, pending).
QStringList status(const Broker::FederationStatusAnswer &status, const QDateTime &now);
// `federation pending`: "No pending pairing requests." or the list with what to run next.
QStringList pending(const Broker::FederationPendingAnswer &pending);
// `federation attempts`: the audit trail (/federation/attempts' answer), newest first, then the
// revoked machines.
QStringList attempts(const QJsonObject &answer);

// "<host>:<port>" split at the last ':' (IPv6 in brackets: "[fe80::1]:7900"). nullopt when the
// port is not 1-65535 or the host is empty.
struct HostPort
{
    QString host;
    int port = 0;
};
std::optional<HostPort> hostPort(const QString &text);

// The host and port of a cpt:// URL, read like 0.7's parser (docs/spec/peers-api.md §6.11): the
// host:port part ends at the first '/' after the first ':', split at its last ':' with a trailing
// ";fp=…" ignored. nullopt when it is not that shape (the token itself is checked by the broker).
std::optional<HostPort> joinTarget(const QString &url);

// A CIDR as the subnet filter takes it: IPv4 a.b.c.d/0-32 or IPv6 …/0-128.
bool isCidr(const QString &text);

// One line of `federation doctor`: "  OK   …", "  WARN …", "  FAIL …" + "       Fix: …".
struct Check
{
    enum class Level { Ok, Warn, Fail };
    Level level = Level::Ok;
    QString text;
    QString fix;
};
QStringList checkLines(const Check &check);
QString doctorSummary(const QList<Check> &checks);

} // namespace Cli::FederationFormat
