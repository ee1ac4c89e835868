#include "mcp_stdio/toolschema.h"

#include <QJsonArray>

namespace Mcp::ToolSchema {

QJsonObject object(const QJsonObject &properties, const QStringList &required)
{
    QJsonObject schema {{QStringLiteral("type"), QStringLiteral("object")},
                        {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        schema.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    if (properties.isEmpty())
        schema.insert(QStringLiteral("additionalProperties"), false);
    return schema;
}

QJsonObject string(const QString &description, const QStringList &allowedValues)
{
    QJsonObject p {{QStringLiteral("type"), QStringLiteral("string")},
                   {QStringLiteral("description"), description}};
    if (!allowedValues.isEmpty())
        p.insert(QStringLiteral("enum"), QJsonArray::fromStringList(allowedValues));
    return p;
}

QJsonObject number(const QString &description)
{
    return QJsonObject {{QStringLiteral("type"), QStringLiteral("number")},
                        {QStringLiteral("description"), description}};
}

QJsonObject anyObject(const QString &description)
{
    return QJsonObject {{QStringLiteral("type"), QStringLiteral("object")},
                        {QStringLiteral("description"), description}};
}

} // namespace Mcp::ToolSchema
