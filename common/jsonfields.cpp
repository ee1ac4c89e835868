#include "common/jsonfields.h"

#include <QJsonArray>

#include <cmath>

namespace Broker {

namespace {

constexpr qint64 maxSafeInteger = (qint64(1) << 53);

Error badRequest(const QString &message)
{
    return Error {ErrorKind::BadRequest, message, 400};
}

} // namespace

std::optional<qint64> integerValue(const QJsonValue &value)
{
    if (value.isString()) {
        bool ok = false;
        const qint64 n = value.toString().trimmed().toLongLong(&ok, 10);
        if (ok && n >= -maxSafeInteger && n <= maxSafeInteger)
            return n;
        return std::nullopt;
    }
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= double(maxSafeInteger))
        return qint64(d);
    return std::nullopt;
}

void JsonFields::failField(const char *name, const char *expectation)
{
    failField(name, QLatin1String(expectation));
}

void JsonFields::failField(const char *name, const QString &expectation)
{
    if (!m_error)
        m_error = badRequest(QStringLiteral("Field \"%1\" must be %2").arg(QLatin1String(name), expectation));
}

void JsonFields::checkLength(const char *name, const QString &value, qsizetype maxUtf8Bytes)
{
    // A UTF-16 unit is at most 3 UTF-8 bytes: short strings need no conversion.
    if (value.size() * 3 <= maxUtf8Bytes || value.toUtf8().size() <= maxUtf8Bytes)
        return;
    failField(name, QStringLiteral("a string of at most %1 bytes (UTF-8)").arg(maxUtf8Bytes));
}

void JsonFields::checkOneOf(const char *name, const QString &value, const QStringList &allowed)
{
    if (!allowed.contains(value))
        failField(name, QStringLiteral("one of ") + allowed.join(QStringLiteral(", ")));
}

void JsonFields::check(bool ok, const char *name, const QString &expectation)
{
    if (!ok)
        failField(name, expectation);
}

void JsonFields::reject(Error error)
{
    if (!m_error)
        m_error = std::move(error);
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
    const std::optional<qint64> v = integerValue(m_object.value(QLatin1String(name)));
    if (!v || *v < min) {
        failField(name,
                  min > 0 ? "a positive integer" : (min == 0 ? "a non-negative integer" : "an integer"));
        return 0;
    }
    return *v;
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
        const std::optional<qint64> n = integerValue(item);
        if (!n) {
            failField(name, "an array of integers");
            return {};
        }
        result.append(*n);
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
