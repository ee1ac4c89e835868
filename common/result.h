#pragma once

#include <QJsonObject>
#include <QString>

#include <expected>

namespace Broker {

// What kind of failure an Error is: modules decide on the kind, never on a text. Mapped once
// where the failure is found (BrokerClient for HTTP status and transport, the store for SQLite,
// the broker's request parsing for bad fields).
enum class ErrorKind {
    // Talking to the broker (BrokerClient)
    Unreachable, // refused, reset, timed out: no broker answers
    Http, // a non-2xx answer; httpStatus says which
    BadJson, // an answer that is not the JSON the route promises
    Token, // the main token is missing or unreadable
    TooLarge, // an answer larger than the client's cap
    // Requests the broker refuses
    BadRequest, // 400: a field of the wrong type or size (the reference's 'Field "x" must be …')
    Rejected, // a rule of the reference: 200 {"ok":false,"error"}
    NotFound, // 404
    Gone, // 410: the peer is not running
    FederationDisabled,
    BadField, // a DTO read from JSON lacks a field
    // Files and processes
    Missing,
    Unreadable,
    Unwritable,
    TokenMissing,
    TokenEmpty,
    TokenUnreadable,
    TokenUnwritable,
    ConfigUnwritable,
    Keychain,
    NoPid,
    BadPid,
    SignalFailed,
    StartFailed,
    // The broker host
    Database,
    Invalid, // a value the store cannot take (a malformed timestamp)
    Lock,
    Locked, // another broker holds the lock
    PortInUse,
    PortBusy, // something else answers on the broker's port
    Listen,
    Stopped,
    Route, // a module's route clashes with another
    Module, // a module refused to start
    ModuleSchema, // a module's migrations failed
    ModuleJob, // a module's background job could not be added
    HandoverRefused,
    HandoverTimeout,
    // The broker's lifecycle (BrokerLifecycle)
    NotABroker, // something answers on the port, not as a claude-peers broker: never asked to stop
    BrokerNotFound, // no claude-peers-broker program to start
    BrokerExited, // it started, then exited without serving
    StartTimeout, // started, but no answer before the deadline
    ShutdownRefused, // /shutdown refused, no signal sent
    StopTimeout, // still serving or alive after the deadline
    // The CLI's command line
    Usage,
};

// The stable snake_case name of a kind ("unreachable", "bad_request"): for logs and JSON output.
QString errorKindName(ErrorKind kind);

// A failure as a value: its kind and an untranslated message in plain words that says what went
// wrong and, where possible, what to do next.
struct Error
{
    ErrorKind kind = ErrorKind::Invalid;
    QString message;
    int httpStatus = 0; // set when the failure is an HTTP answer
    // The JSON object of a non-2xx answer, when it was one (ErrorKind::Http): the fields a
    // route's failure carries besides its message (/control's partial results).
    QJsonObject answer {};

    QString code() const { return errorKindName(kind); }
};

template<typename T> using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(ErrorKind kind, QString message)
{
    return std::unexpected<Error>(Error {kind, std::move(message)});
}

} // namespace Broker
