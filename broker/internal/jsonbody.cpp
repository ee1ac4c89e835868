#include "jsonbody.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace Broker {

namespace {

constexpr qint64 maxSafeInteger = (qint64(1) << 53);

Error badRequest(const QString &message)
{
    return Error {QStringLiteral("bad_request"), message, 400};
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

bool isInteger(const QJsonValue &value)
{
    if (!value.isDouble())
        return false;
    const double d = value.toDouble();
    return std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= double(maxSafeInteger);
}

void JsonFields::failField(const char *name, const char *expectation)
{
    if (!m_error)
        m_error = badRequest(
            QStringLiteral("Field \"%1\" must be %2").arg(QLatin1String(name), QLatin1String(expectation)));
}

bool JsonFields::present(const char *name) const
{
    const QJsonValue v = m_object.value(QLatin1String(name));
    return !v.isUndefined() && !v.isNull();
}

QString JsonFields::string(const char *name)
{
    const QJsonValue v = m_object.value(QLatin1String(name));
    if (!v.isString()) {
        failField(name, "a string");
        return {};
    }
    return v.toString();
}

QString JsonFields::optionalString(const char *name, const QString &fallback)
{
    const QJsonValue v = m_object.value(QLatin1String(name));
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!v.isString()) {
        failField(name, "a string or null");
        return fallback;
    }
    return v.toString();
}

qint64 JsonFields::integer(const char *name, qint64 min)
{
    const QJsonValue v = m_object.value(QLatin1String(name));
    if (!isInteger(v) || qint64(v.toDouble()) < min) {
        failField(name,
                  min > 0 ? "a positive integer" : (min == 0 ? "a non-negative integer" : "an integer"));
        return 0;
    }
    return qint64(v.toDouble());
}

std::optional<qint64> JsonFields::optionalInteger(const char *name, qint64 min)
{
    if (!present(name))
        return std::nullopt;
    const qint64 v = integer(name, min);
    if (m_error)
        return std::nullopt;
    return v;
}

QList<qint64> JsonFields::integerList(const char *name)
{
    const QJsonValue v = m_object.value(QLatin1String(name));
    QList<qint64> result;
    if (!v.isArray()) {
        failField(name, "an array of integers");
        return result;
    }
    const QJsonArray array = v.toArray();
    result.reserve(array.size());
    for (const QJsonValue &item : array) {
        if (!isInteger(item)) {
            failField(name, "an array of integers");
            return {};
        }
        result.append(qint64(item.toDouble()));
    }
    return result;
}

QList<qint64> JsonFields::optionalIntegerList(const char *name)
{
    if (!present(name))
        return {};
    return integerList(name);
}

} // namespace Broker
