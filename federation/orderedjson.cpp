#include "federation/orderedjson.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace Federation {

bool JsonObject::isArrayIndex(QStringView key, quint32 *index)
{
    // ECMAScript: the canonical decimal string of an integer in [0, 2^32 - 2].
    if (key.isEmpty() || key.size() > 10 || (key.size() > 1 && key.front() == u'0'))
        return false;
    quint64 value = 0;
    for (const QChar c : key) {
        if (c < u'0' || c > u'9')
            return false;
        value = value * 10 + quint64(c.unicode() - u'0');
    }
    if (value > 0xFFFFFFFEull)
        return false;
    if (index)
        *index = quint32(value);
    return true;
}

JsonObject JsonObject::fromMembers(std::vector<JsonMember> members)
{
    // A repeated key keeps its first position and takes its last value.
    QHash<QStringView, std::size_t> firstAt;
    firstAt.reserve(qsizetype(members.size()));
    std::vector<JsonMember> unique;
    unique.reserve(members.size());
    for (JsonMember &member : members) {
        const auto it = firstAt.constFind(QStringView(member.key));
        if (it != firstAt.constEnd()) {
            unique[*it].value = std::move(member.value);
            continue;
        }
        unique.push_back(std::move(member));
        // Keys are views into `unique`'s strings: QString's data does not move with the vector.
        firstAt.insert(QStringView(unique.back().key), unique.size() - 1);
    }
    std::stable_partition(unique.begin(), unique.end(),
                          [](const JsonMember &m) { return isArrayIndex(m.key); });
    const auto indexEnd =
        std::find_if(unique.begin(), unique.end(), [](const JsonMember &m) { return !isArrayIndex(m.key); });
    std::sort(unique.begin(), indexEnd, [](const JsonMember &a, const JsonMember &b) {
        quint32 ia = 0;
        quint32 ib = 0;
        isArrayIndex(a.key, &ia);
        isArrayIndex(b.key, &ib);
        return ia < ib;
    });
    JsonObject object;
    object.m_members = std::move(unique);
    return object;
}

void JsonObject::insert(const QString &key, JsonValue value)
{
    for (JsonMember &member : m_members) {
        if (member.key == key) {
            member.value = std::move(value);
            return;
        }
    }
    quint32 index = 0;
    if (!isArrayIndex(key, &index)) {
        m_members.push_back({key, std::move(value)});
        return;
    }
    // Array-index keys stay at the front, ascending.
    const auto firstAfter = std::find_if(m_members.begin(), m_members.end(), [index](const JsonMember &m) {
        quint32 other = 0;
        return !isArrayIndex(m.key, &other) || other > index;
    });
    m_members.insert(firstAfter, {key, std::move(value)});
}

const JsonValue *JsonObject::find(QStringView key) const
{
    for (const JsonMember &member : m_members) {
        if (member.key == key)
            return &member.value;
    }
    return nullptr;
}

bool JsonObject::remove(QStringView key)
{
    const auto it =
        std::find_if(m_members.begin(), m_members.end(), [key](const JsonMember &m) { return m.key == key; });
    if (it == m_members.end())
        return false;
    m_members.erase(it);
    return true;
}

bool JsonValue::toBool() const
{
    Q_ASSERT(isBool());
    return std::get<bool>(m_data);
}

double JsonValue::toNumber() const
{
    Q_ASSERT(isNumber());
    return std::get<double>(m_data);
}

const QString &JsonValue::toString() const
{
    Q_ASSERT(isString());
    return std::get<QString>(m_data);
}

const JsonArray &JsonValue::toArray() const
{
    Q_ASSERT(isArray());
    return std::get<JsonArray>(m_data);
}

const JsonObject &JsonValue::toObject() const
{
    Q_ASSERT(isObject());
    return std::get<JsonObject>(m_data);
}

JsonValue JsonValue::fromQJson(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return boolean(value.toBool());
    case QJsonValue::Double:
        return number(value.toDouble());
    case QJsonValue::String:
        return string(value.toString());
    case QJsonValue::Array: {
        JsonArray array;
        const QJsonArray source = value.toArray();
        array.reserve(std::size_t(source.size()));
        for (const QJsonValue &element : source)
            array.push_back(fromQJson(element));
        return JsonValue::array(std::move(array));
    }
    case QJsonValue::Object: {
        JsonObject object;
        const QJsonObject source = value.toObject();
        for (auto it = source.begin(); it != source.end(); ++it)
            object.insert(it.key(), fromQJson(it.value()));
        return JsonValue::object(std::move(object));
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return null();
}

QJsonValue JsonValue::toQJson() const
{
    switch (type()) {
    case Type::Null:
        return QJsonValue(QJsonValue::Null);
    case Type::Bool:
        return toBool();
    case Type::Number:
        return toNumber();
    case Type::String:
        return toString();
    case Type::Array: {
        QJsonArray array;
        for (const JsonValue &element : toArray())
            array.append(element.toQJson());
        return array;
    }
    case Type::Object: {
        QJsonObject object;
        for (const JsonMember &member : toObject().members())
            object.insert(member.key, member.value.toQJson());
        return object;
    }
    }
    return QJsonValue(QJsonValue::Null);
}

} // namespace Federation
