#include "mcp_stdio/piggyback.h"

#include <QJsonArray>

namespace Mcp {

QJsonObject withPiggyback(QJsonObject result, const QString &banner, const QString &trouble)
{
    if (banner.isEmpty() && trouble.isEmpty())
        return result;
    QJsonArray content = result.value(QLatin1String("content")).toArray();
    if (content.isEmpty() || content.at(0).toObject().value(QLatin1String("type")) != QLatin1String("text"))
        return result;
    QJsonObject first = content.at(0).toObject();
    QString text = banner + first.value(QLatin1String("text")).toString();
    if (!trouble.isEmpty() && !text.contains(trouble))
        text += QStringLiteral("\n\n[claude-peers trouble: %1]").arg(trouble);
    first.insert(QStringLiteral("text"), text);
    content.replace(0, first);
    result.insert(QStringLiteral("content"), content);
    return result;
}

} // namespace Mcp
