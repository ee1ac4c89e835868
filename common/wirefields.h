#pragma once

#include "common/dto.h"
#include "common/jsonfields.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <optional>
#include <tuple>

// A wire struct's JSON mapping from one table of its fields (wire.cpp): each field's key, member,
// whether a request must carry it and what an empty value writes are said once, and
// writeFields() / readRequest() / readAnswer() walk the table. A request is read strictly
// (JsonFields: the broker's 400 for the first bad field, in table order; caps checked after all
// fields are read, as the hand-written readers did); an answer leniently (a missing or
// mistyped field reads as the struct's default). What a table cannot say goes in a Rule entry.
namespace Broker::WireTable {

enum class WhenEmpty {
    Written, // always written
    Omitted, // an empty string or list, false, is left out
    Null, // an empty string is written as null
};

template<typename S, typename M> struct Field
{
    const char *key;
    M S::*member;
    bool required = true; // requests: absent or null is a 400
    WhenEmpty whenEmpty = WhenEmpty::Written;
    qint64 min = -(qint64(1) << 53); // requests: the smallest integer accepted
    qsizetype maxBytes = 0; // requests: the cap of a string in UTF-8 (0: none)
    bool digitsInAnswers = false; // answers: an integer may come as digits ("7"); else the default
    bool numbersAsBool = false; // answers: a number reads as a boolean (0 false, else true)
    bool trimmedInRequests = false; // lenient requests: a string is trimmed, a non-string is ""

    constexpr Field omitEmpty() const { return with(&Field::whenEmpty, WhenEmpty::Omitted); }
    constexpr Field nullWhenEmpty() const { return with(&Field::whenEmpty, WhenEmpty::Null); }
    constexpr Field atLeast(qint64 value) const { return with(&Field::min, value); }
    constexpr Field atMostBytes(qsizetype value) const { return with(&Field::maxBytes, value); }
    constexpr Field digitsToo() const { return with(&Field::digitsInAnswers, true); }
    constexpr Field numberAsBool() const { return with(&Field::numbersAsBool, true); }
    constexpr Field trimmed() const { return with(&Field::trimmedInRequests, true); }

private:
    template<typename V> constexpr Field with(V Field::*setting, V value) const
    {
        Field f = *this;
        f.*setting = value;
        return f;
    }
};

template<typename S, typename M> constexpr Field<S, M> required(const char *key, M S::*member)
{
    return {key, member, true};
}

template<typename S, typename M> constexpr Field<S, M> optional(const char *key, M S::*member)
{
    return {key, member, false};
}

// An object (a struct M with its own table), a list of them, or an optional list of them.
template<typename S, typename M, typename Table> struct Nested
{
    const char *key;
    M S::*member;
    Table table;
};

template<typename S, typename M, typename Table>
constexpr Nested<S, M, Table> nested(const char *key, M S::*member, const Table &table)
{
    return {key, member, table};
}

// What a field cannot say: a rule between fields, a value with its own shape. Each step is
// optional; readStep runs in table order with the fields' reads, checkStep after them (with
// the caps), answerStep when an answer is read.
template<typename S> struct Rule
{
    void (*readStep)(JsonFields &, S &) = nullptr;
    void (*checkStep)(JsonFields &, S &) = nullptr;
    void (*writeStep)(QJsonObject &, const S &) = nullptr;
    void (*answerStep)(const QJsonObject &, S &) = nullptr;
};

// ---- writing ----

inline QJsonArray integersToJson(const QList<qint64> &values)
{
    QJsonArray array;
    for (qint64 value : values)
        array.append(value);
    return array;
}

inline QJsonValue toJsonValue(const QString &v, WhenEmpty when)
{
    if (v.isEmpty() && when == WhenEmpty::Null)
        return QJsonValue(QJsonValue::Null);
    return v;
}
inline QJsonValue toJsonValue(qint64 v, WhenEmpty)
{
    return v;
}
inline QJsonValue toJsonValue(double v, WhenEmpty)
{
    return v;
}
inline QJsonValue toJsonValue(bool v, WhenEmpty)
{
    return v;
}
inline QJsonValue toJsonValue(Attention v, WhenEmpty)
{
    return attentionName(v);
}
inline QJsonValue toJsonValue(const QList<qint64> &v, WhenEmpty)
{
    return integersToJson(v);
}
inline QJsonValue toJsonValue(const QStringList &v, WhenEmpty)
{
    return QJsonArray::fromStringList(v);
}
inline QJsonValue toJsonValue(const QJsonObject &v, WhenEmpty)
{
    return v;
}
inline QJsonValue toJsonValue(const QJsonValue &v, WhenEmpty)
{
    return v; // null or undefined: left out (isAbsent)
}
template<typename T> QJsonValue toJsonValue(const std::optional<T> &v, WhenEmpty when)
{
    return toJsonValue(*v, when); // absent: left out (isAbsent)
}

template<typename M> bool isAbsent(const M &v, WhenEmpty when)
{
    if constexpr (std::is_same_v<M, QJsonValue>)
        return v.isNull() || v.isUndefined();
    else if constexpr (requires { v.has_value(); })
        return !v.has_value();
    else if constexpr (std::is_same_v<M, bool>)
        return when == WhenEmpty::Omitted && !v;
    else if constexpr (requires { v.isEmpty(); })
        return when == WhenEmpty::Omitted && v.isEmpty();
    else
        return false;
}

template<typename S, typename M> void writeField(QJsonObject &o, const S &s, const Field<S, M> &f)
{
    const M &value = s.*f.member;
    if (!isAbsent(value, f.whenEmpty))
        o.insert(QLatin1String(f.key), toJsonValue(value, f.whenEmpty));
}

template<typename T> struct IsList : std::false_type
{
};
template<typename T> struct IsList<QList<T>> : std::true_type
{
};

template<typename S, typename... Entries>
QJsonObject writeFields(const S &s, const std::tuple<Entries...> &table);

template<typename Row, typename Table> QJsonArray writeRows(const QList<Row> &rows, const Table &table)
{
    QJsonArray array;
    for (const Row &row : rows)
        array.append(writeFields(row, table));
    return array;
}

template<typename S, typename M, typename Table>
void writeField(QJsonObject &o, const S &s, const Nested<S, M, Table> &n)
{
    const M &value = s.*n.member;
    if constexpr (IsList<M>::value)
        o.insert(QLatin1String(n.key), writeRows(value, n.table));
    else if constexpr (requires { value.has_value(); }) {
        if (value)
            o.insert(QLatin1String(n.key), writeRows(*value, n.table));
    } else
        o.insert(QLatin1String(n.key), writeFields(value, n.table));
}

template<typename S> void writeField(QJsonObject &o, const S &s, const Rule<S> &rule)
{
    if (rule.writeStep)
        rule.writeStep(o, s);
}

template<typename S, typename... Entries>
QJsonObject writeFields(const S &s, const std::tuple<Entries...> &table)
{
    QJsonObject o;
    std::apply([&](const auto &...entry) { (writeField(o, s, entry), ...); }, table);
    return o;
}

// ---- reading a request (strict) ----

// A value as the request's field: `fallback` is the member's default (what an absent optional
// field reads as).
inline QString requestValue(JsonFields &fields, const char *key, bool required, qint64,
                            const QString &fallback)
{
    return required ? fields.string(key) : fields.optionalString(key, fallback);
}
inline qint64 requestValue(JsonFields &fields, const char *key, bool, qint64 min, qint64)
{
    return fields.integer(key, min);
}
inline std::optional<qint64> requestValue(JsonFields &fields, const char *key, bool, qint64 min,
                                          const std::optional<qint64> &)
{
    return fields.optionalInteger(key, min);
}
inline QList<qint64> requestValue(JsonFields &fields, const char *key, bool required, qint64,
                                  const QList<qint64> &)
{
    return required ? fields.integerList(key) : fields.optionalIntegerList(key);
}
// A string or null, as given: absent and null read as "not given" (the broker's default).
inline std::optional<QString> requestValue(JsonFields &fields, const char *key, bool, qint64,
                                           const std::optional<QString> &)
{
    fields.optionalString(key); // a string or null, checked with the other fields
    const QJsonValue value = fields.value(key);
    return value.isString() ? std::optional<QString>(value.toString()) : std::nullopt;
}
// Any JSON value: checked by the broker's rules after the fields, not here.
inline QJsonValue requestValue(JsonFields &fields, const char *key, bool, qint64, const QJsonValue &)
{
    return fields.value(key);
}
// One of attentionNames(); checked only when the fields before it were good.
inline Attention requestValue(JsonFields &fields, const char *key, bool, qint64, Attention)
{
    const QString name = fields.string(key);
    if (!fields.error())
        fields.checkOneOf(key, name, attentionNames());
    return attentionFromName(name).value_or(Attention::Unknown);
}

template<typename S, typename M> void readField(JsonFields &fields, S &s, const Field<S, M> &f)
{
    s.*f.member = requestValue(fields, f.key, f.required, f.min, s.*f.member);
}

template<typename S> void readField(JsonFields &fields, S &s, const Rule<S> &rule)
{
    if (rule.readStep)
        rule.readStep(fields, s);
}

template<typename S, typename M> void checkField(JsonFields &fields, S &s, const Field<S, M> &f)
{
    if constexpr (std::is_same_v<M, QString>) {
        if (f.maxBytes > 0)
            fields.checkLength(f.key, s.*f.member, f.maxBytes);
    }
}

template<typename S> void checkField(JsonFields &fields, S &s, const Rule<S> &rule)
{
    if (rule.checkStep)
        rule.checkStep(fields, s);
}

template<typename S, typename... Entries>
Result<S> readRequest(const QJsonObject &o, const std::tuple<Entries...> &table)
{
    JsonFields fields(o);
    S s;
    std::apply([&](const auto &...entry) { (readField(fields, s, entry), ...); }, table);
    std::apply([&](const auto &...entry) { (checkField(fields, s, entry), ...); }, table);
    if (fields.error())
        return std::unexpected(*fields.error());
    return s;
}

// ---- reading a request leniently (the control service's: nothing is refused) ----

template<typename S, typename M> void readLenientField(const QJsonObject &o, S &s, const Field<S, M> &f)
{
    const QJsonValue v = o.value(QLatin1String(f.key));
    M &member = s.*f.member;
    if constexpr (std::is_same_v<M, QString>)
        member = f.trimmedInRequests ? (v.isString() ? v.toString().trimmed() : QString()) : v.toString();
    else if constexpr (std::is_same_v<M, QJsonObject>)
        member = v.toObject(); // an array or a scalar reads as {}
    else
        static_assert(sizeof(M) == 0, "no lenient reading for this member type");
}

template<typename S, typename... Entries>
S readLenient(const QJsonObject &o, const std::tuple<Entries...> &table)
{
    S s;
    std::apply([&](const auto &...entry) { (readLenientField(o, s, entry), ...); }, table);
    return s;
}

// ---- reading an answer (lenient) ----

// Every item of a list, as a string ("" for a non-string).
inline QStringList stringsOf(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &v : value.toArray())
        list.append(v.toString());
    return list;
}

// The strings of a list; other items are left out.
inline QStringList onlyStrings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &v : value.toArray()) {
        if (v.isString())
            list.append(v.toString());
    }
    return list;
}

template<typename S, typename M> void readAnswerField(const QJsonObject &o, S &s, const Field<S, M> &f)
{
    const QJsonValue v = o.value(QLatin1String(f.key));
    M &member = s.*f.member;
    if constexpr (std::is_same_v<M, QString>)
        member = v.toString();
    else if constexpr (std::is_same_v<M, qint64>)
        member = f.digitsInAnswers ? integerValue(v).value_or(member) : v.toInteger();
    else if constexpr (std::is_same_v<M, bool>)
        member = f.numbersAsBool && !v.isBool() ? v.toInt() != 0 : v.toBool();
    else if constexpr (std::is_same_v<M, double>)
        member = v.toDouble(member);
    else if constexpr (std::is_same_v<M, std::optional<qint64>>)
        member = v.isDouble() ? std::optional<qint64>(v.toInteger()) : std::nullopt;
    else if constexpr (std::is_same_v<M, std::optional<bool>>)
        member = v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
    else if constexpr (std::is_same_v<M, QStringList>)
        member = onlyStrings(v);
    else if constexpr (std::is_same_v<M, std::optional<QStringList>>)
        member = v.isArray() ? std::optional<QStringList>(stringsOf(v)) : std::nullopt;
    else if constexpr (std::is_same_v<M, QList<qint64>>) {
        member.clear();
        for (const QJsonValue &item : v.toArray())
            member.append(item.toInteger());
    } else
        static_assert(sizeof(M) == 0, "no answer reading for this member type");
}

template<typename S, typename... Entries>
S readAnswer(const QJsonObject &o, const std::tuple<Entries...> &table);

template<typename Row, typename Table> QList<Row> readRows(const QJsonValue &value, const Table &table)
{
    QList<Row> rows;
    for (const QJsonValue &v : value.toArray())
        rows.append(readAnswer<Row>(v.toObject(), table));
    return rows;
}

template<typename S, typename M, typename Table>
void readAnswerField(const QJsonObject &o, S &s, const Nested<S, M, Table> &n)
{
    const QJsonValue v = o.value(QLatin1String(n.key));
    M &member = s.*n.member;
    if constexpr (IsList<M>::value)
        member = readRows<typename M::value_type>(v, n.table);
    else if constexpr (requires { member.has_value(); }) {
        if (v.isArray())
            member = readRows<typename M::value_type::value_type>(v, n.table);
    } else
        member = readAnswer<M>(v.toObject(), n.table);
}

template<typename S> void readAnswerField(const QJsonObject &o, S &s, const Rule<S> &rule)
{
    if (rule.answerStep)
        rule.answerStep(o, s);
}

template<typename S, typename... Entries>
S readAnswer(const QJsonObject &o, const std::tuple<Entries...> &table)
{
    S s;
    std::apply([&](const auto &...entry) { (readAnswerField(o, s, entry), ...); }, table);
    return s;
}

} // namespace Broker::WireTable
