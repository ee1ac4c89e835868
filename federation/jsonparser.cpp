#include "federation/jsonparser.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace Federation {

namespace {

using Kind = JsonParseError::Kind;

class Parser
{
public:
    Parser(QByteArrayView bytes, const JsonParseLimits &limits) : m_bytes(bytes), m_limits(limits) { }

    std::expected<JsonValue, JsonParseError> parseDocument()
    {
        if (m_bytes.size() > m_limits.maxBytes)
            return fail(Kind::TooLarge,
                        QStringLiteral("the JSON text is %1 bytes, more than the limit of %2")
                            .arg(m_bytes.size())
                            .arg(m_limits.maxBytes));
        skipWhitespace();
        auto value = parseValue(1);
        if (!value)
            return value;
        skipWhitespace();
        if (m_pos != m_bytes.size())
            return fail(Kind::UnexpectedCharacter, QStringLiteral("unexpected data after the JSON value"));
        return value;
    }

private:
    std::unexpected<JsonParseError> fail(Kind kind, const QString &what) const
    {
        return std::unexpected(JsonParseError {
            kind, m_pos, QStringLiteral("Malformed JSON at byte %1: %2").arg(m_pos).arg(what)});
    }

    bool atEnd() const { return m_pos >= m_bytes.size(); }
    char peek() const { return m_bytes[m_pos]; }

    void skipWhitespace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++m_pos;
    }

    std::unexpected<JsonParseError> unexpected() const
    {
        if (atEnd())
            return fail(Kind::UnexpectedEnd, QStringLiteral("the text ends before the JSON value does"));
        const uchar c = uchar(peek());
        if (c >= 0x20 && c < 0x7f)
            return fail(Kind::UnexpectedCharacter,
                        QStringLiteral("unexpected character '%1'").arg(QLatin1Char(char(c))));
        return fail(Kind::UnexpectedCharacter,
                    QStringLiteral("unexpected byte 0x%1").arg(c, 2, 16, QChar(u'0')));
    }

    bool consumeLiteral(std::string_view literal)
    {
        if (m_bytes.size() - m_pos < qsizetype(literal.size()))
            return false;
        if (m_bytes.sliced(m_pos, qsizetype(literal.size())) !=
            QByteArrayView(literal.data(), literal.size()))
            return false;
        m_pos += qsizetype(literal.size());
        return true;
    }

    std::expected<JsonValue, JsonParseError> parseValue(int depth)
    {
        if (atEnd())
            return unexpected();
        switch (peek()) {
        case '{':
            return parseObject(depth);
        case '[':
            return parseArray(depth);
        case '"': {
            auto s = parseString();
            if (!s)
                return std::unexpected(s.error());
            return JsonValue::string(std::move(*s));
        }
        case 't':
            if (consumeLiteral("true"))
                return JsonValue::boolean(true);
            return unexpected();
        case 'f':
            if (consumeLiteral("false"))
                return JsonValue::boolean(false);
            return unexpected();
        case 'n':
            if (consumeLiteral("null"))
                return JsonValue::null();
            return unexpected();
        default:
            if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
                return parseNumber();
            return unexpected();
        }
    }

    // The frame objects and arrays share: the depth limit, the opening byte, then elements
    // separated by ',' up to `close`.
    template<typename ParseElement>
    std::expected<void, JsonParseError> parseElements(int depth, char close, ParseElement parseElement)
    {
        if (depth > m_limits.maxDepth)
            return fail(Kind::TooDeep,
                        QStringLiteral("nesting deeper than %1 levels").arg(m_limits.maxDepth));
        ++m_pos; // '{' or '['
        skipWhitespace();
        if (!atEnd() && peek() == close) {
            ++m_pos;
            return {};
        }
        while (true) {
            skipWhitespace();
            if (auto element = parseElement(); !element)
                return element;
            skipWhitespace();
            if (atEnd())
                return unexpected();
            if (peek() == close) {
                ++m_pos;
                return {};
            }
            if (peek() != ',')
                return unexpected();
            ++m_pos;
        }
    }

    std::expected<JsonValue, JsonParseError> parseObject(int depth)
    {
        std::vector<JsonMember> members;
        auto parsed = parseElements(depth, '}', [&]() -> std::expected<void, JsonParseError> {
            if (atEnd() || peek() != '"')
                return unexpected();
            auto key = parseString();
            if (!key)
                return std::unexpected(key.error());
            skipWhitespace();
            if (atEnd() || peek() != ':')
                return unexpected();
            ++m_pos;
            skipWhitespace();
            auto value = parseValue(depth + 1);
            if (!value)
                return std::unexpected(value.error());
            members.push_back({std::move(*key), std::move(*value)});
            return {};
        });
        if (!parsed)
            return std::unexpected(parsed.error());
        return JsonValue::object(JsonObject::fromMembers(std::move(members)));
    }

    std::expected<JsonValue, JsonParseError> parseArray(int depth)
    {
        JsonArray elements;
        auto parsed = parseElements(depth, ']', [&]() -> std::expected<void, JsonParseError> {
            auto value = parseValue(depth + 1);
            if (!value)
                return std::unexpected(value.error());
            elements.push_back(std::move(*value));
            return {};
        });
        if (!parsed)
            return std::unexpected(parsed.error());
        return JsonValue::array(std::move(elements));
    }

    int hexDigit(char c) const
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    // One UTF-8 sequence starting at m_pos, well-formed (no overlongs, no encoded surrogates).
    std::expected<char32_t, JsonParseError> decodeUtf8()
    {
        const uchar lead = uchar(peek());
        int length = 0;
        char32_t cp = 0;
        char32_t min = 0;
        if (lead < 0x80) {
            ++m_pos;
            return lead;
        } else if ((lead & 0xE0) == 0xC0) {
            length = 2, cp = lead & 0x1F, min = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3, cp = lead & 0x0F, min = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4, cp = lead & 0x07, min = 0x10000;
        } else {
            return fail(Kind::InvalidUtf8, QStringLiteral("invalid UTF-8"));
        }
        if (m_bytes.size() - m_pos < length)
            return fail(Kind::InvalidUtf8, QStringLiteral("invalid UTF-8 (truncated sequence)"));
        for (int i = 1; i < length; ++i) {
            const uchar next = uchar(m_bytes[m_pos + i]);
            if ((next & 0xC0) != 0x80)
                return fail(Kind::InvalidUtf8, QStringLiteral("invalid UTF-8"));
            cp = (cp << 6) | (next & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return fail(Kind::InvalidUtf8,
                        QStringLiteral("invalid UTF-8 (overlong, surrogate or out of range)"));
        m_pos += length;
        return cp;
    }

    std::expected<QString, JsonParseError> parseString()
    {
        ++m_pos; // '"'
        QString out;
        while (true) {
            if (atEnd())
                return fail(Kind::UnexpectedEnd, QStringLiteral("the text ends inside a string"));
            const uchar c = uchar(peek());
            if (c == '"') {
                ++m_pos;
                return out;
            }
            if (c < 0x20)
                return fail(Kind::BadString,
                            QStringLiteral("a control character inside a string must be escaped"));
            if (c == '\\') {
                if (auto escaped = parseEscape(out); !escaped)
                    return std::unexpected(escaped.error());
                continue;
            }
            if (c < 0x80) {
                // A run of plain ASCII at once.
                const qsizetype start = m_pos;
                while (!atEnd() && uchar(peek()) >= 0x20 && uchar(peek()) < 0x80 && peek() != '"' &&
                       peek() != '\\')
                    ++m_pos;
                out.append(QLatin1StringView(m_bytes.sliced(start, m_pos - start)));
                continue;
            }
            auto cp = decodeUtf8();
            if (!cp)
                return std::unexpected(cp.error());
            const char32_t ucs4[1] = {*cp};
            out.append(QString::fromUcs4(ucs4, 1));
        }
    }

    std::expected<void, JsonParseError> parseEscape(QString &out)
    {
        ++m_pos; // '\\'
        if (atEnd())
            return fail(Kind::UnexpectedEnd, QStringLiteral("the text ends inside an escape"));
        const char c = peek();
        ++m_pos;
        // The two-character escapes of RFC 8259 §7, and what they stand for.
        static constexpr std::pair<char, char16_t> shortEscapes[] = {
            {'"', u'"'},  {'\\', u'\\'}, {'/', u'/'},  {'b', u'\b'},
            {'f', u'\f'}, {'n', u'\n'},  {'r', u'\r'}, {'t', u'\t'}};
        for (const auto &[escape, unit] : shortEscapes) {
            if (c == escape) {
                out.append(QChar(unit));
                return {};
            }
        }
        switch (c) {
        case 'u': {
            if (m_bytes.size() - m_pos < 4)
                return fail(Kind::BadString, QStringLiteral("\\u needs four hex digits"));
            char16_t unit = 0;
            for (int i = 0; i < 4; ++i) {
                const int digit = hexDigit(m_bytes[m_pos + i]);
                if (digit < 0)
                    return fail(Kind::BadString, QStringLiteral("\\u needs four hex digits"));
                unit = char16_t((unit << 4) | digit);
            }
            m_pos += 4;
            // Any UTF-16 code unit, paired or not, as JavaScript keeps it.
            out.append(QChar(unit));
            return {};
        }
        default:
            --m_pos;
            return fail(Kind::BadString, QStringLiteral("unknown escape"));
        }
    }

    std::expected<JsonValue, JsonParseError> parseNumber()
    {
        const qsizetype start = m_pos;
        auto digits = [this] {
            qsizetype n = 0;
            while (!atEnd() && peek() >= '0' && peek() <= '9')
                ++m_pos, ++n;
            return n;
        };
        const bool negative = peek() == '-';
        if (negative)
            ++m_pos;
        if (atEnd() || peek() < '0' || peek() > '9')
            return fail(Kind::BadNumber, QStringLiteral("a number needs digits"));
        const qsizetype intStart = m_pos;
        const qsizetype intDigits = digits();
        if (intDigits > 1 && m_bytes[intStart] == '0') {
            m_pos = intStart + 1;
            return fail(Kind::BadNumber, QStringLiteral("a number must not have leading zeros"));
        }
        if (!atEnd() && peek() == '.') {
            ++m_pos;
            if (digits() == 0)
                return fail(Kind::BadNumber, QStringLiteral("a number needs digits after '.'"));
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            ++m_pos;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++m_pos;
            if (digits() == 0)
                return fail(Kind::BadNumber, QStringLiteral("a number needs digits in its exponent"));
        }
        const char *first = m_bytes.data() + start;
        const char *last = m_bytes.data() + m_pos;
        double value = 0;
        const auto [end, ec] = std::from_chars(first, last, value);
        if (ec == std::errc::result_out_of_range) {
            // JSON.parse rounds what is too large to ±Infinity and what is too small to ±0.
            value =
                magnitudeIsLarge(QByteArrayView(first, last)) ? std::numeric_limits<double>::infinity() : 0.0;
            if (negative)
                value = -value;
        } else if (ec != std::errc() || end != last) {
            return fail(Kind::BadNumber, QStringLiteral("not a number"));
        }
        return JsonValue::number(value);
    }

    // For a number from_chars found out of range: does it overflow (rather than underflow)?
    static bool magnitudeIsLarge(QByteArrayView number)
    {
        qsizetype exponentAt = number.indexOf('e');
        if (exponentAt < 0)
            exponentAt = number.indexOf('E');
        const QByteArrayView mantissa = exponentAt < 0 ? number : number.first(exponentAt);
        // Decimal exponent of the first significant digit, without the written exponent.
        qsizetype pointAt = mantissa.indexOf('.');
        if (pointAt < 0)
            pointAt = mantissa.size();
        qsizetype firstSignificant = -1;
        for (qsizetype i = 0; i < mantissa.size(); ++i) {
            if (mantissa[i] >= '1' && mantissa[i] <= '9') {
                firstSignificant = i;
                break;
            }
        }
        if (firstSignificant < 0)
            return false; // zero never overflows
        qint64 magnitude =
            firstSignificant < pointAt ? pointAt - firstSignificant - 1 : pointAt - firstSignificant;
        if (exponentAt >= 0) {
            const QByteArrayView written = number.sliced(exponentAt + 1);
            const bool negativeExponent = written.startsWith('-');
            qint64 e = 0;
            for (const char c : written) {
                if (c >= '0' && c <= '9')
                    e = std::min<qint64>(e * 10 + (c - '0'), qint64(1) << 40);
            }
            magnitude += negativeExponent ? -e : e;
        }
        return magnitude > 0;
    }

    QByteArrayView m_bytes;
    JsonParseLimits m_limits;
    qsizetype m_pos = 0;
};

} // namespace

std::expected<JsonValue, JsonParseError> parseJson(QByteArrayView bytes, const JsonParseLimits &limits)
{
    return Parser(bytes, limits).parseDocument();
}

} // namespace Federation
