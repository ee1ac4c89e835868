#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringView>

#include <variant>
#include <vector>

namespace Federation {

class JsonValue;
struct JsonMember;
using JsonArray = std::vector<JsonValue>;

// A JSON object whose members keep the order JavaScript gives an object's own properties:
// array-index keys ("0" … "4294967294", no leading zeros) first in ascending numeric order, then
// the other keys in the order they were first inserted. Inserting an existing key replaces its
// value in place, as JSON.parse and property assignment do. That order is what JSON.stringify
// writes, so it is what 0.7's relay signature covers (docs/spec/peers-api.md §6.5).
class JsonObject
{
public:
    // Builds the object JavaScript makes from these members set in this order (JSON.parse):
    // O(n log n), where n inserts cost O(n²).
    static JsonObject fromMembers(std::vector<JsonMember> members);

    void insert(const QString &key, JsonValue value);
    const JsonValue *find(QStringView key) const;
    bool contains(QStringView key) const { return find(key) != nullptr; }
    bool remove(QStringView key);

    const std::vector<JsonMember> &members() const { return m_members; }
    qsizetype size() const;
    bool isEmpty() const;

    // True for the keys JavaScript orders first (ECMAScript "array index").
    static bool isArrayIndex(QStringView key, quint32 *index = nullptr);

    friend bool operator==(const JsonObject &, const JsonObject &);

private:
    // JsonMember is complete only below JsonValue: what needs its size is defined after it.
    std::vector<JsonMember> m_members;
};

// A JSON value as JavaScript holds it: numbers are doubles (what JSON.parse makes of them).
class JsonValue
{
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    JsonValue(); // null
    static JsonValue null();
    static JsonValue boolean(bool value);
    static JsonValue number(double value);
    static JsonValue string(QString value);
    static JsonValue array(JsonArray value);
    static JsonValue object(JsonObject value);

    Type type() const;
    bool isNull() const { return type() == Type::Null; }
    bool isBool() const { return type() == Type::Bool; }
    bool isNumber() const { return type() == Type::Number; }
    bool isString() const { return type() == Type::String; }
    bool isArray() const { return type() == Type::Array; }
    bool isObject() const { return type() == Type::Object; }

    // The value of that type; Q_ASSERTs the type.
    bool toBool() const;
    double toNumber() const;
    const QString &toString() const;
    const JsonArray &toArray() const;
    const JsonObject &toObject() const;

    // Conversions at the boundary with the broker's QJson world. QJsonObject sorts its keys, so
    // fromQJson yields the sorted order; a value signed and sent is signed in the order sent.
    static JsonValue fromQJson(const QJsonValue &value);
    QJsonValue toQJson() const;

    friend bool operator==(const JsonValue &, const JsonValue &);

private:
    using Data = std::variant<std::monostate, bool, double, QString, JsonArray, JsonObject>;
    explicit JsonValue(Data data);

    Data m_data;
};

struct JsonMember
{
    QString key;
    JsonValue value;

    friend bool operator==(const JsonMember &, const JsonMember &) = default;
};

// Defined here, where JsonMember is complete (clang instantiates the variant's members eagerly).
inline JsonValue::JsonValue() = default;
inline JsonValue::JsonValue(Data data) : m_data(std::move(data)) { }
inline JsonValue JsonValue::null()
{
    return {};
}
inline JsonValue JsonValue::boolean(bool value)
{
    return JsonValue(Data(value));
}
inline JsonValue JsonValue::number(double value)
{
    return JsonValue(Data(value));
}
inline JsonValue JsonValue::string(QString value)
{
    return JsonValue(Data(std::move(value)));
}
inline JsonValue JsonValue::array(JsonArray value)
{
    return JsonValue(Data(std::move(value)));
}
inline JsonValue JsonValue::object(JsonObject value)
{
    return JsonValue(Data(std::move(value)));
}
inline JsonValue::Type JsonValue::type() const
{
    return Type(m_data.index());
}
inline bool operator==(const JsonValue &a, const JsonValue &b)
{
    return a.m_data == b.m_data;
}
inline qsizetype JsonObject::size() const
{
    return qsizetype(m_members.size());
}
inline bool JsonObject::isEmpty() const
{
    return m_members.empty();
}
inline bool operator==(const JsonObject &a, const JsonObject &b)
{
    return a.m_members == b.m_members;
}

} // namespace Federation
