#include "federation/canonicaljson.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace Federation::CanonicalJson {

namespace {

void appendUtf8(QByteArray &out, char32_t cp)
{
    if (cp < 0x80) {
        out.append(char(cp));
    } else if (cp < 0x800) {
        out.append(char(0xC0 | (cp >> 6)));
        out.append(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.append(char(0xE0 | (cp >> 12)));
        out.append(char(0x80 | ((cp >> 6) & 0x3F)));
        out.append(char(0x80 | (cp & 0x3F)));
    } else {
        out.append(char(0xF0 | (cp >> 18)));
        out.append(char(0x80 | ((cp >> 12) & 0x3F)));
        out.append(char(0x80 | ((cp >> 6) & 0x3F)));
        out.append(char(0x80 | (cp & 0x3F)));
    }
}

void appendUnicodeEscape(QByteArray &out, char16_t unit)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.append("\\u");
    out.append(hex[(unit >> 12) & 0xF]);
    out.append(hex[(unit >> 8) & 0xF]);
    out.append(hex[(unit >> 4) & 0xF]);
    out.append(hex[unit & 0xF]);
}

// JSON.stringify's two-character escapes (QuoteJSONString), or nullptr.
const char *shortEscape(char16_t unit)
{
    switch (unit) {
    case u'"':
        return "\\\"";
    case u'\\':
        return "\\\\";
    case u'\b':
        return "\\b";
    case u'\f':
        return "\\f";
    case u'\n':
        return "\\n";
    case u'\r':
        return "\\r";
    case u'\t':
        return "\\t";
    default:
        return nullptr;
    }
}

void appendString(QByteArray &out, const QString &string)
{
    out.append('"');
    const qsizetype n = string.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t unit = string.at(i).unicode();
        if (const char *escape = shortEscape(unit)) {
            out.append(escape);
            continue;
        }
        if (unit < 0x20) {
            appendUnicodeEscape(out, unit);
        } else if (QChar::isHighSurrogate(unit) && i + 1 < n &&
                   QChar::isLowSurrogate(string.at(i + 1).unicode())) {
            appendUtf8(out, QChar::surrogateToUcs4(unit, string.at(i + 1).unicode()));
            ++i;
        } else if (QChar::isSurrogate(unit)) {
            appendUnicodeEscape(out, unit); // a lone surrogate (well-formed JSON.stringify, ES2019)
        } else {
            appendUtf8(out, unit);
        }
    }
    out.append('"');
}

void appendValue(QByteArray &out, const JsonValue &value);

void appendObject(QByteArray &out, const JsonObject &object)
{
    out.append('{');
    bool first = true;
    for (const JsonMember &member : object.members()) {
        if (!first)
            out.append(',');
        first = false;
        appendString(out, member.key);
        out.append(':');
        appendValue(out, member.value);
    }
    out.append('}');
}

void appendValue(QByteArray &out, const JsonValue &value)
{
    switch (value.type()) {
    case JsonValue::Type::Null:
        out.append("null");
        return;
    case JsonValue::Type::Bool:
        out.append(value.toBool() ? "true" : "false");
        return;
    case JsonValue::Type::Number:
        out.append(numberToString(value.toNumber()));
        return;
    case JsonValue::Type::String:
        appendString(out, value.toString());
        return;
    case JsonValue::Type::Array: {
        out.append('[');
        bool first = true;
        for (const JsonValue &element : value.toArray()) {
            if (!first)
                out.append(',');
            first = false;
            appendValue(out, element);
        }
        out.append(']');
        return;
    }
    case JsonValue::Type::Object:
        appendObject(out, value.toObject());
        return;
    }
}

} // namespace

QByteArray numberToString(double value)
{
    if (std::isnan(value) || std::isinf(value))
        return QByteArrayLiteral("null"); // what JSON.stringify writes for them
    if (value == 0)
        return QByteArrayLiteral("0"); // -0 too
    // Shortest round-trip digits (as ECMAScript asks: the fewest digits, the closest on a tie).
    char buffer[64];
    const auto [end, ec] =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    Q_ASSERT(ec == std::errc());
    const std::string_view scientific(buffer, std::size_t(end - buffer)); // "-d.ddde+XX"
    const bool negative = scientific.front() == '-';
    const std::size_t ePos = scientific.find('e');
    std::string digits;
    for (const char c : scientific.substr(negative ? 1 : 0, ePos - (negative ? 1 : 0))) {
        if (c != '.')
            digits.push_back(c);
    }
    int exponent = 0;
    std::from_chars(scientific.data() + ePos + (scientific[ePos + 1] == '+' ? 2 : 1),
                    scientific.data() + scientific.size(), exponent);
    const int k = int(digits.size());
    const int n = exponent + 1; // the decimal point sits after n digits

    std::string out;
    if (negative)
        out.push_back('-');
    if (k <= n && n <= 21) {
        out += digits;
        out.append(std::size_t(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += digits.substr(0, std::size_t(n));
        out.push_back('.');
        out += digits.substr(std::size_t(n));
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(std::size_t(-n), '0');
        out += digits;
    } else {
        out.push_back(digits.front());
        if (k > 1) {
            out.push_back('.');
            out += digits.substr(1);
        }
        out.push_back('e');
        out.push_back(n - 1 >= 0 ? '+' : '-');
        out += std::to_string(std::abs(n - 1));
    }
    return QByteArray(out.data(), qsizetype(out.size()));
}

QByteArray stringify(const JsonValue &value)
{
    QByteArray out;
    appendValue(out, value);
    return out;
}

QByteArray stringify(const JsonObject &object)
{
    QByteArray out;
    appendObject(out, object);
    return out;
}

QByteArray signedForm(const JsonObject &body)
{
    std::vector<const JsonMember *> members;
    members.reserve(body.members().size());
    for (const JsonMember &member : body.members()) {
        if (member.key != u"signature" && member.key != u"__proto__")
            members.push_back(&member);
    }
    // Array.prototype.sort's default order is by UTF-16 code units (QString's operator<); the new
    // object then lists its array-index keys first, ascending (JsonObject's order).
    std::sort(members.begin(), members.end(), [](const JsonMember *a, const JsonMember *b) {
        quint32 ia = 0;
        quint32 ib = 0;
        const bool aIndex = JsonObject::isArrayIndex(a->key, &ia);
        const bool bIndex = JsonObject::isArrayIndex(b->key, &ib);
        if (aIndex != bIndex)
            return aIndex;
        return aIndex ? ia < ib : a->key < b->key;
    });
    QByteArray out;
    out.append('{');
    for (const JsonMember *member : members) {
        if (out.size() > 1)
            out.append(',');
        appendString(out, member->key);
        out.append(':');
        appendValue(out, member->value);
    }
    out.append('}');
    return out;
}

} // namespace Federation::CanonicalJson
