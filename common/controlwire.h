#pragma once

#include "common/result.h"

#include <QJsonObject>
#include <QString>

// The control service's two routes (docs/spec/control-service.md §2.1, §10.1), one struct
// per request and answer as wire.h, shared by the broker's openchamber module and its front
// ends (the CLI, the helper's openchamber tool). The bodies are the action's own objects, so
// the structs carry them as JSON; only the envelope around them is typed.
namespace Broker {

namespace Wire {
// The contract's body limit of both routes (docs/spec/control-service.md §2.1).
inline constexpr qsizetype maxControlBodyBytes = 1024 * 1024;
} // namespace Wire

// 200: the action's result object, verbatim (no envelope).
struct ControlAnswer
{
    QJsonObject result;

    QJsonObject toJson() const { return result; }
    static Result<ControlAnswer> fromJson(const QJsonObject &object) { return ControlAnswer {object}; }
};

// POST /control (main token): one action of the service for the CLI. Read leniently as the
// reference: a non-string action reads as "", a non-object input as {}; contextDirectory is
// optional (the CLI never sends it).
struct ControlRequest
{
    static constexpr const char *path = "/control";
    using Answer = ControlAnswer;

    QString action;
    QJsonObject input;
    QString contextDirectory; // empty: none

    QJsonObject toJson() const;
    static ControlRequest fromJson(const QJsonObject &object);
};

// A failed /control action as its answer carries it: the service's status (400 usage, 404 not
// found, 409 busy, 499 cancelled, 500 runtime) and {"error", partial fields}.
struct ControlFailure
{
    int status = 500;
    QString message;
    // {"partial":true,"partialAction","sessionId","directory"} when the action left something
    // behind (a fork created before a later step failed); empty otherwise.
    QJsonObject partial;

    bool isValidation() const { return status == 400 || status == 404; } // the CLI's exit 2
    QJsonObject toJson() const; // the answer's body
    // From the answer's body; a body without "error" reads as "Failed to execute <action>".
    static ControlFailure fromJson(int status, const QJsonObject &body, const QString &action);
    // From a BrokerClient error: an HTTP answer (its body, Error::answer) or a transport failure
    // (status 0, the client's message).
    static ControlFailure fromError(const Error &error, const QString &action);
    // The partial fields of the service's details (copied only when details.partial is true).
    static QJsonObject partialFields(const QJsonObject &details);
};

// The versioned envelope of /agent-tool (docs/spec/control-service.md §10.1), always HTTP 200.
//   {"schemaVersion":1,"ok":true,"action","data":{result}}
//   {"schemaVersion":1,"ok":false,"action","data"?:{partial fields},"error":{"message","kind"}}
struct AgentToolEnvelope
{
    static constexpr int currentSchemaVersion = 1;

    int schemaVersion = currentSchemaVersion;
    bool ok = false;
    QString action;
    QJsonObject data; // the result (ok) or the partial fields (failure; empty: absent)
    QString errorMessage;
    QString errorKind; // "usage" (400..498) or "runtime"

    // kind "usage" iff 400 <= status < 499: a cancellation (499) and 5xx are "runtime".
    static QString kindForStatus(int status);
    static AgentToolEnvelope success(const QString &action, const QJsonObject &result);
    static AgentToolEnvelope failure(const QString &action, int status, const QString &message,
                                     const QJsonObject &partial = {});

    QJsonObject toJson() const;
    // Refuses what is not an envelope of this schema version (the tool says so).
    static Result<AgentToolEnvelope> fromJson(const QJsonObject &object);
};

// POST /agent-tool (a session's credential): one action for an AI session's openchamber tool.
// The action is input.action (the plugin's shape: {...parameters, action}); contextDirectory is
// the calling session's working directory; tool names the tool whose actions are meant.
struct AgentToolRequest
{
    static constexpr const char *path = "/agent-tool";
    using Answer = AgentToolEnvelope;

    QJsonObject input; // the parameters and "action"
    QString contextDirectory;
    QString tool = QStringLiteral("openchamber");

    QString action() const; // input.action trimmed; "" when missing or not a string
    QJsonObject toJson() const;
    static AgentToolRequest fromJson(const QJsonObject &object);
};

} // namespace Broker
