#include "broker/internal/jsonbody.h"

#include <QJsonDocument>

namespace Broker {

namespace {

Error badRequest(const QString &message)
{
    return Error {ErrorKind::BadRequest, message, 400};
}

} // namespace

Result<QJsonObject> parseJsonBody(const QByteArray &body)
{
    if (body.trimmed().isEmpty())
        return QJsonObject {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        return std::unexpected(badRequest(
            QStringLiteral("Invalid JSON body: %1 at offset %2").arg(error.errorString()).arg(error.offset)));
    if (!doc.isObject())
        return std::unexpected(badRequest(QStringLiteral("Invalid JSON body: expected a JSON object")));
    return doc.object();
}

} // namespace Broker
