#pragma once

#include <QString>

#include <expected>

namespace Broker {

// A failure as a value: a stable machine-readable code and an untranslated message in plain
// words that says what went wrong and, where possible, what to do next.
struct Error
{
    QString code;
    QString message;
    int httpStatus = 0; // set when the failure is an HTTP answer
};

template<typename T> using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(QString code, QString message)
{
    return std::unexpected<Error>(Error {std::move(code), std::move(message)});
}

} // namespace Broker
