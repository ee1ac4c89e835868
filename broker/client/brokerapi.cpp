#include "brokerapi.h"

namespace Broker {

void BrokerApi::health(std::function<void(Result<HealthAnswer>)> done, int timeoutMs) const
{
    const QString path = QLatin1String(HealthAnswer::path);
    m_client.get(
        path,
        [path, done = std::move(done)](Result<QJsonValue> answer) {
            done(decode<HealthAnswer>(path, std::move(answer)));
        },
        timeoutMs);
}

Error BrokerApi::badAnswer(const QString &path, const QString &why)
{
    return Error {ErrorKind::BadJson, QStringLiteral("Bad answer from the broker to %1: %2").arg(path, why)};
}

} // namespace Broker
