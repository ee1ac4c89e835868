#pragma once

#include "federation/orderedjson.h"

#include <QByteArrayView>
#include <QString>

#include <expected>

namespace Federation {

// Bounds on what parseJson reads: every network input has a size limit.
struct JsonParseLimits
{
    qsizetype maxBytes = 1024 * 1024;
    int maxDepth = 64; // nested arrays/objects; the top-level value is depth 1
};

struct JsonParseError
{
    enum class Kind {
        TooLarge, // more bytes than JsonParseLimits::maxBytes
        TooDeep, // more nesting than JsonParseLimits::maxDepth
        InvalidUtf8,
        UnexpectedEnd,
        UnexpectedCharacter, // includes trailing data after the value
        BadString, // a control character or a bad escape inside a string
        BadNumber, // not the JSON number grammar (leading zeros, "1.", "-", ".5")
    };
    Kind kind = Kind::UnexpectedCharacter;
    qsizetype offset = 0; // byte offset of the problem
    QString message; // plain words, with the offset
};

// A strict RFC 8259 parser into the ordered model: one value, surrounded only by JSON
// whitespace; UTF-8 only (no BOM); numbers become doubles as JSON.parse makes them (out of
// range → ±Infinity or ±0); "\u" escapes may leave lone surrogates, which JSON.stringify writes
// back as "\udXXX"; object members take JavaScript's property order (JsonObject).
std::expected<JsonValue, JsonParseError> parseJson(QByteArrayView bytes, const JsonParseLimits &limits = {});

} // namespace Federation
