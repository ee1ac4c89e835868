#include "federation/federationsettings.h"

#include "federation/federationlogging.h"

#include <QFileInfo>
#include <QSysInfo>

namespace Federation {

namespace {

// 0.7: "true"/"1" on, "false"/"0" off, anything else leaves the config's word.
std::optional<bool> envSwitch(const QProcessEnvironment &env, const QString &name)
{
    const QString value = env.value(name);
    if (value == QLatin1String("true") || value == QLatin1String("1"))
        return true;
    if (value == QLatin1String("false") || value == QLatin1String("0"))
        return false;
    return std::nullopt;
}

} // namespace

QString FederationSettings::normalizeHostname(const QString &name)
{
    return name.toLower().left(63);
}

FederationSettings FederationSettings::load(const Broker::Location &location, const QProcessEnvironment &env)
{
    FederationSettings s;
    s.configPath = location.configPath;
    s.tokenPath = location.tokenPath;
    s.home = QFileInfo(location.configPath).absolutePath();
    const Broker::ConfigFile config = Broker::ConfigFile::load(location.configPath);

    s.enabled = envSwitch(env, QStringLiteral("CLAUDE_PEERS_FEDERATION_ENABLED"))
                    .value_or(config.federationEnabled().value_or(false));

    bool ok = false;
    const int envPort = env.value(QStringLiteral("CLAUDE_PEERS_FEDERATION_PORT")).toInt(&ok);
    if (ok && envPort > 0 && envPort <= 65535)
        s.port = quint16(envPort);
    else if (const auto port = config.federationPort(); port && *port > 0 && *port <= 65535)
        s.port = quint16(*port);

    const QString envSubnet = env.value(QStringLiteral("CLAUDE_PEERS_FEDERATION_SUBNET"));
    s.subnets = envSubnet.isEmpty() ? config.federationSubnets()
                                    : envSubnet.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString &subnet : s.subnets)
        subnet = subnet.trimmed();

    s.acceptLegacy = config.acceptLegacy().value_or(true);
    if (const auto word = envSwitch(env, QStringLiteral("CLAUDE_PEERS_FEDERATION_ACCEPT_LEGACY")))
        s.acceptLegacy = *word;

    const QString hostname = env.value(QStringLiteral("CLAUDE_PEERS_FEDERATION_HOSTNAME"));
    s.hostname = normalizeHostname(hostname.isEmpty() ? QSysInfo::machineHostName() : hostname);
    if (s.hostname.contains(QLatin1Char(':')) || s.hostname.isEmpty())
        s.hostnameError =
            QStringLiteral("The hostname \"%1\" cannot name this machine in the federation (empty or "
                           "containing ':'); set CLAUDE_PEERS_FEDERATION_HOSTNAME.")
                .arg(s.hostname);

    s.remotes = config.remotes();
    // 0.7: only the exact value "false" turns it off.
    if (env.value(QStringLiteral("CLAUDE_PEERS_MDNS_ENABLED")) == QLatin1String("false")) {
        s.mdnsEnabled = false;
        s.mdnsOffReason = QStringLiteral("CLAUDE_PEERS_MDNS_ENABLED=false");
    } else if (env.contains(QStringLiteral("WSL_DISTRO_NAME"))) {
        // 0.7 too: WSL2's NAT keeps multicast inside the VM.
        s.mdnsEnabled = false;
        s.mdnsOffReason = QStringLiteral("WSL2 (its NAT keeps mDNS inside the VM)");
    } else if (config.mdnsEnabled() == false) {
        s.mdnsEnabled = false;
        s.mdnsOffReason = QStringLiteral("federation.mdns.enabled is false in %1").arg(location.configPath);
    }
    if (!config.warning().isEmpty())
        qCWarning(lcFederation).noquote() << config.warning();
    return s;
}

} // namespace Federation
