#pragma once

#include "common/result.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Broker {

// Reads typed fields from a request object. The first failure is kept (as the 400 answer
// 'Field "<name>" must be …') and later reads return defaults, so a handler reads all its
// fields and checks error() once. An integer may also come as a string of decimal digits
// ("123"), which the reference accepted through SQLite's type coercion (docs/divergences.md).
class JsonFields
{
public:
    explicit JsonFields(const QJsonObject &object) : m_object(object) { }

    QString string(const char *name); // required
    QString optionalString(const char *name, const QString &fallback = {}); // absent/null → fallback
    qint64 integer(const char *name, qint64 min = -(qint64(1) << 53)); // required
    std::optional<qint64> optionalInteger(const char *name, qint64 min = -(qint64(1) << 53));
    QList<qint64> integerList(const char *name); // required
    QList<qint64> optionalIntegerList(const char *name);
    // Fails when the value, read as `name`, is longer than maxUtf8Bytes in UTF-8.
    void checkLength(const char *name, const QString &value, qsizetype maxUtf8Bytes);
    // Fails with 'Field "<name>" must be one of a, b, c' unless value is one of allowed.
    void checkOneOf(const char *name, const QString &value, const QStringList &allowed);
    // Fails with 'Field "<name>" must be <expectation>' unless ok (a rule between fields).
    void check(bool ok, const char *name, const QString &expectation);
    // Keeps `error` as the failure unless an earlier field failed (a rule with its own kind).
    void reject(Error error);
    bool present(const char *name) const; // present and not null
    QJsonValue value(const char *name) const { return m_object.value(QLatin1String(name)); }

    const std::optional<Error> &error() const { return m_error; }

private:
    void failField(const char *name, const char *expectation);
    void failField(const char *name, const QString &expectation);

    const QJsonObject &m_object;
    std::optional<Error> m_error;
};

// The whole number a JSON number holds (exactly representable as a double), or that a string
// of decimal digits spells (optional sign, surrounding blanks): 7, 7.0, "7", " -7 ".
std::optional<qint64> integerValue(const QJsonValue &value);

} // namespace Broker
