#include "mcp_stdio/toolresult.h"

#include <QJsonArray>

namespace Mcp::ToolResult {

QJsonObject text(const QString &text)
{
    return QJsonObject {{QStringLiteral("content"),
                         QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("text")},
                                                  {QStringLiteral("text"), text}}}}};
}

QJsonObject error(const QString &message)
{
    QJsonObject result = text(message);
    result.insert(QStringLiteral("isError"), true);
    return result;
}

} // namespace Mcp::ToolResult
