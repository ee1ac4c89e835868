#include "common/controlwire.h"

#include "common/wirefields.h"

namespace Broker {

using namespace WireTable;

namespace {

QString trimmedString(const QJsonValue &value)
{
    return value.isString() ? value.toString().trimmed() : QString();
}

const char *const kPartialKeys[] = {"partial", "partialAction", "sessionId", "directory"};

// Both requests are read leniently, as the reference: a non-string reads as "", a non-object as {}.
constexpr auto controlRequestFields = std::tuple {
    required("action", &ControlRequest::action).trimmed(),
    required("input", &ControlRequest::input),
    optional("contextDirectory", &ControlRequest::contextDirectory).trimmed().omitEmpty(),
};

constexpr auto agentToolRequestFields = std::tuple {
    required("input", &AgentToolRequest::input),
    optional("contextDirectory", &AgentToolRequest::contextDirectory).trimmed().omitEmpty(),
    required("tool", &AgentToolRequest::tool).trimmed(), // absent: "", which the route reads as openchamber
};

} // namespace

// ---- ControlRequest ----

QJsonObject ControlRequest::toJson() const
{
    return writeFields(*this, controlRequestFields);
}

ControlRequest ControlRequest::fromJson(const QJsonObject &object)
{
    return readLenient<ControlRequest>(object, controlRequestFields);
}

// ---- ControlFailure ----

QJsonObject ControlFailure::partialFields(const QJsonObject &details)
{
    QJsonObject fields;
    if (details.value(QLatin1String("partial")).toBool() != true)
        return fields;
    for (const char *key : kPartialKeys) {
        const QJsonValue value = details.value(QLatin1String(key));
        if (!value.isUndefined())
            fields.insert(QLatin1String(key), value);
    }
    return fields;
}

QJsonObject ControlFailure::toJson() const
{
    QJsonObject o = partial;
    o.insert(QStringLiteral("error"), message);
    return o;
}

ControlFailure ControlFailure::fromJson(int status, const QJsonObject &body, const QString &action)
{
    ControlFailure f;
    f.status = status;
    f.message = trimmedString(body.value(QLatin1String("error")));
    if (f.message.isEmpty())
        f.message =
            QStringLiteral("Failed to execute %1").arg(action.isEmpty() ? QStringLiteral("action") : action);
    f.partial = partialFields(body);
    return f;
}

ControlFailure ControlFailure::fromError(const Error &error, const QString &action)
{
    if (error.kind == ErrorKind::Http && error.httpStatus != 0 && !error.answer.isEmpty())
        return fromJson(error.httpStatus, error.answer, action);
    ControlFailure f;
    f.status = error.kind == ErrorKind::Http ? error.httpStatus : 0;
    f.message = error.message;
    return f;
}

// ---- AgentToolEnvelope ----

QString AgentToolEnvelope::kindForStatus(int status)
{
    return status >= 400 && status < 499 ? QStringLiteral("usage") : QStringLiteral("runtime");
}

AgentToolEnvelope AgentToolEnvelope::success(const QString &action, const QJsonObject &result)
{
    AgentToolEnvelope e;
    e.ok = true;
    e.action = action;
    e.data = result;
    return e;
}

AgentToolEnvelope AgentToolEnvelope::failure(const QString &action, int status, const QString &message,
                                             const QJsonObject &partial)
{
    AgentToolEnvelope e;
    e.ok = false;
    e.action = action;
    e.data = partial;
    e.errorMessage = message;
    e.errorKind = kindForStatus(status);
    return e;
}

QJsonObject AgentToolEnvelope::toJson() const
{
    QJsonObject o {{QStringLiteral("schemaVersion"), schemaVersion},
                   {QStringLiteral("ok"), ok},
                   {QStringLiteral("action"), action}};
    if (ok || !data.isEmpty())
        o.insert(QStringLiteral("data"), data);
    if (!ok)
        o.insert(
            QStringLiteral("error"),
            QJsonObject {{QStringLiteral("message"), errorMessage}, {QStringLiteral("kind"), errorKind}});
    return o;
}

Result<AgentToolEnvelope> AgentToolEnvelope::fromJson(const QJsonObject &object)
{
    const QJsonValue version = object.value(QLatin1String("schemaVersion"));
    if (!version.isDouble() || version.toInt() != currentSchemaVersion)
        return fail(ErrorKind::BadJson,
                    QStringLiteral("not an envelope of schema version %1").arg(currentSchemaVersion));
    if (!object.value(QLatin1String("ok")).isBool())
        return fail(ErrorKind::BadJson, QStringLiteral("the envelope has no ok"));
    AgentToolEnvelope e;
    e.ok = object.value(QLatin1String("ok")).toBool();
    e.action = object.value(QLatin1String("action")).toString();
    e.data = object.value(QLatin1String("data")).toObject();
    if (!e.ok) {
        const QJsonObject error = object.value(QLatin1String("error")).toObject();
        e.errorMessage = error.value(QLatin1String("message")).toString();
        e.errorKind = error.value(QLatin1String("kind")).toString();
        if (e.errorMessage.isEmpty())
            return fail(ErrorKind::BadJson, QStringLiteral("a failed envelope without error.message"));
    }
    return e;
}

// ---- AgentToolRequest ----

QString AgentToolRequest::action() const
{
    return trimmedString(input.value(QLatin1String("action")));
}

QJsonObject AgentToolRequest::toJson() const
{
    return writeFields(*this, agentToolRequestFields);
}

AgentToolRequest AgentToolRequest::fromJson(const QJsonObject &object)
{
    return readLenient<AgentToolRequest>(object, agentToolRequestFields);
}

} // namespace Broker
