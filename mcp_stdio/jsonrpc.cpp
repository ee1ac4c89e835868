#include "mcp_stdio/jsonrpc.h"

#include <cmath>

namespace Mcp::JsonRpc {

namespace {
const QString kJsonRpc = QStringLiteral("jsonrpc");
const QString kVersion = QStringLiteral("2.0");
constexpr double MaxSafeInteger = 9007199254740991.0; // 2^53 - 1: exact in a double
} // namespace

bool isValidId(const QJsonValue &id)
{
    if (id.isString())
        return true;
    if (!id.isDouble())
        return false;
    const double d = id.toDouble();
    return std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= MaxSafeInteger;
}

QJsonObject result(const QJsonValue &id, const QJsonObject &result)
{
    return QJsonObject {{kJsonRpc, kVersion}, {QStringLiteral("id"), id}, {QStringLiteral("result"), result}};
}

QJsonObject error(const QJsonValue &id, int code, const QString &message, const QJsonValue &data)
{
    QJsonObject err {{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined())
        err.insert(QStringLiteral("data"), data);
    return QJsonObject {{kJsonRpc, kVersion},
                        {QStringLiteral("id"), id.isUndefined() ? QJsonValue(QJsonValue::Null) : id},
                        {QStringLiteral("error"), err}};
}

QJsonObject notification(const QString &method, const QJsonObject &params)
{
    return QJsonObject {
        {kJsonRpc, kVersion}, {QStringLiteral("method"), method}, {QStringLiteral("params"), params}};
}

QString idKey(const QJsonValue &id)
{
    if (id.isString())
        return QStringLiteral("s:") + id.toString();
    return QStringLiteral("n:") + QString::number(id.toInteger());
}

} // namespace Mcp::JsonRpc
