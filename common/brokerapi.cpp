#include "common/brokerapi.h"

namespace Broker {

void BrokerApi::health(std::function<void(Result<HealthAnswer>)> done, int timeoutMs) const
{
    get<HealthAnswer>(QLatin1String(HealthAnswer::path), {}, std::move(done), timeoutMs);
}

void BrokerApi::federationStatus(std::function<void(Result<FederationStatusAnswer>)> done,
                                 int timeoutMs) const
{
    get<FederationStatusAnswer>(QStringLiteral("/federation/status"), QString(), std::move(done), timeoutMs);
}

void BrokerApi::metrics(bool detailed, std::function<void(Result<MetricsAnswer>)> done, int timeoutMs) const
{
    get<MetricsAnswer>(QLatin1String(MetricsAnswer::path),
                       detailed ? QStringLiteral("?detailed=true") : QString(), std::move(done), timeoutMs);
}

Error BrokerApi::badAnswer(const QString &path, const QString &why)
{
    return Error {ErrorKind::BadJson, QStringLiteral("Bad answer from the broker to %1: %2").arg(path, why)};
}

} // namespace Broker
