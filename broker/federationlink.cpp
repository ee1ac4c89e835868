#include "broker/federationlink.h"

#include <QJsonArray>

namespace Broker {

QString DisabledFederationLink::disabledMessage()
{
    return QStringLiteral(
        "Federation is not enabled. Enable with: CLAUDE_PEERS_FEDERATION_ENABLED=true or run "
        "`claude-peers federation init`");
}

QJsonObject DisabledFederationLink::status() const
{
    return QJsonObject {{QStringLiteral("enabled"), false},
                        {QStringLiteral("port"), m_port},
                        {QStringLiteral("subnet"), QString()},
                        {QStringLiteral("remotes"), QJsonArray()},
                        {QStringLiteral("total_remote_peers"), 0}};
}

void DisabledFederationLink::connectRemote(const QString &, int, Callback done)
{
    done(fail(ErrorKind::FederationDisabled, disabledMessage()));
}

void DisabledFederationLink::disconnectRemote(const QString &, int, Callback done)
{
    done(fail(ErrorKind::FederationDisabled, disabledMessage()));
}

void DisabledFederationLink::sendToRemote(const RemoteMessage &, Callback done)
{
    done(fail(ErrorKind::FederationDisabled, disabledMessage()));
}

} // namespace Broker
