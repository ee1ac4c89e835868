#include "mcp_stdio/claudesessionfile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace Mcp::ClaudeSessionFile {

namespace {

constexpr qsizetype MaxFieldChars = 4096;

QString stringField(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isString() ? v.toString().left(MaxFieldChars) : QString();
}

} // namespace

Broker::Result<Record> parse(const QByteArray &bytes)
{
    if (bytes.size() > MaxBytes)
        return Broker::fail(Broker::ErrorKind::TooLarge,
                            QStringLiteral("the session file is %1 bytes, more than the %2 it may have")
                                .arg(bytes.size())
                                .arg(MaxBytes));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (!doc.isObject())
        return Broker::fail(
            Broker::ErrorKind::BadJson,
            QStringLiteral("the session file is not a JSON object (%1)").arg(error.errorString()));
    const QJsonObject o = doc.object();
    Record r;
    r.sessionId = stringField(o, "sessionId");
    r.name = stringField(o, "name");
    r.cwd = stringField(o, "cwd");
    r.status = stringField(o, "status");
    r.waitingFor = stringField(o, "waitingFor");
    r.messagingSocketPath = stringField(o, "messagingSocketPath");
    if (r.status != QLatin1String("idle") && r.status != QLatin1String("busy") &&
        r.status != QLatin1String("waiting") && r.status != QLatin1String("shell"))
        return Broker::fail(
            Broker::ErrorKind::BadField,
            QStringLiteral("the session file's status \"%1\" is none of idle, busy, waiting, shell")
                .arg(r.status.left(64)));
    return r;
}

State stateOf(const Record &record)
{
    if (record.status == QLatin1String("waiting"))
        return {Broker::Attention::NeedsYou,
                record.waitingFor.isEmpty() ? QStringLiteral("Claude Code is waiting for you")
                                            : record.waitingFor};
    if (record.status == QLatin1String("busy"))
        return {Broker::Attention::Busy, {}};
    if (record.status == QLatin1String("idle") || record.status == QLatin1String("shell"))
        return {Broker::Attention::Idle, {}};
    return {};
}

QString sessionsDir(const QString &claudeConfigDir, const QString &home)
{
    const QString base = claudeConfigDir.isEmpty() ? home + QStringLiteral("/.claude") : claudeConfigDir;
    return base + QStringLiteral("/sessions");
}

} // namespace Mcp::ClaudeSessionFile
