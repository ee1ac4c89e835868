#include "mcp_stdio/peerarguments.h"

#include <cmath>

namespace Mcp::PeerArguments {

std::optional<qint64> messageId(const QJsonValue &value)
{
    if (value.isDouble()) {
        const double d = value.toDouble();
        if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < 9007199254740992.0)
            return qint64(d);
        return std::nullopt;
    }
    if (value.isString()) {
        bool ok = false;
        const qint64 n = value.toString().trimmed().toLongLong(&ok);
        if (ok)
            return n;
    }
    return std::nullopt;
}

bool isScope(const QString &scope)
{
    return scope == QLatin1String("machine") || scope == QLatin1String("directory") ||
        scope == QLatin1String("repo") || scope == QLatin1String("lan");
}

QString scopeError(const QString &scope)
{
    return QStringLiteral("Invalid scope \"%1\": use machine, directory, repo or lan").arg(scope);
}

} // namespace Mcp::PeerArguments
