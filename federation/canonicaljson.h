#pragma once

#include "federation/orderedjson.h"

#include <QByteArray>

namespace Federation::CanonicalJson {

// JavaScript's JSON.stringify(value), compact, as UTF-8: members in the object's order, strings
// escaped as JSON.stringify does (\" \\ \b \f \n \r \t, other controls and lone surrogates as
// lower-case \u00XX / \udXXX, everything else raw), numbers by numberToString; NaN and
// ±Infinity become null.
QByteArray stringify(const JsonValue &value);
QByteArray stringify(const JsonObject &object);

// ECMAScript Number::toString(x) (radix 10): the shortest digits that read back as x, in plain
// notation for 1e-7 < |x| < 1e21 and as "1.5e+21"/"1e-7" otherwise; -0 → "0".
QByteArray numberToString(double value);

// What claude-peers 0.7 signs (docs/spec/peers-api.md §6.5): JSON.stringify of a new object whose
// top-level keys were set in ascending UTF-16 order, every member but "signature". Nested values
// are written as they are. Like 0.7, a top-level "__proto__" key drops out: setting it on the new
// object sets its prototype instead of adding a member.
QByteArray signedForm(const JsonObject &body);

} // namespace Federation::CanonicalJson
