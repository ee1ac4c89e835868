#include "mcp_stdio/claudeinboxwire.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace Mcp::ClaudeInboxWire {

namespace {

constexpr qsizetype MaxIds = 256; // Claude Code batches at most 256 ids in one drop receipt
constexpr qsizetype MaxFieldChars = 1024;

QByteArray line(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

QString text(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isString() ? v.toString().left(MaxFieldChars) : QString();
}

} // namespace

QByteArray authLine(const QString &token)
{
    return line({{QStringLiteral("type"), QStringLiteral("auth")}, {QStringLiteral("token"), token}});
}

QByteArray userLine(const QString &content, const QString &from, const QString &msgId)
{
    return line({{QStringLiteral("type"), QStringLiteral("user")},
                 {QStringLiteral("message"),
                  QJsonObject {{QStringLiteral("role"), QStringLiteral("user")},
                               {QStringLiteral("content"), content}}},
                 {QStringLiteral("from"), from},
                 {QStringLiteral("msg_id"), msgId}});
}

QString statusName(Receipt::Status status)
{
    switch (status) {
    case Receipt::Status::Held:
        return QStringLiteral("held");
    case Receipt::Status::Denied:
        return QStringLiteral("denied");
    case Receipt::Status::Expired:
        return QStringLiteral("expired");
    case Receipt::Status::Refused:
        return QStringLiteral("refused");
    case Receipt::Status::Delivered:
        return QStringLiteral("delivered");
    case Receipt::Status::Dropped:
        return QStringLiteral("dropped");
    }
    return {};
}

Broker::Result<Receipt> parseReceipt(const QByteArray &bytes)
{
    if (bytes.size() > MaxReceiptBytes)
        return Broker::fail(Broker::ErrorKind::TooLarge,
                            QStringLiteral("an inbox receipt of %1 bytes (at most %2)")
                                .arg(bytes.size())
                                .arg(MaxReceiptBytes));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (!doc.isObject())
        return Broker::fail(
            Broker::ErrorKind::BadJson,
            QStringLiteral("an inbox line that is not a JSON object (%1)").arg(error.errorString()));
    const QJsonObject o = doc.object();
    if (text(o, "type") != QLatin1String("control"))
        return Broker::fail(Broker::ErrorKind::BadField,
                            QStringLiteral("an inbox line that is not a control line"));
    const QString action = text(o, "action");
    if (action != QLatin1String("peer_message_status"))
        return Broker::fail(
            Broker::ErrorKind::Rejected,
            QStringLiteral("an inbox control line of action \"%1\", not a receipt").arg(action.left(64)));
    Receipt r;
    const QString status = text(o, "status");
    if (status == QLatin1String("held"))
        r.status = Receipt::Status::Held;
    else if (status == QLatin1String("denied"))
        r.status = Receipt::Status::Denied;
    else if (status == QLatin1String("expired"))
        r.status = text(o, "status_detail") == QLatin1String("refused") ? Receipt::Status::Refused
                                                                        : Receipt::Status::Expired;
    else if (status == QLatin1String("delivered"))
        r.status = Receipt::Status::Delivered;
    else if (status == QLatin1String("dropped"))
        r.status = Receipt::Status::Dropped;
    else
        return Broker::fail(Broker::ErrorKind::BadField,
                            QStringLiteral("an inbox receipt of unknown status \"%1\"").arg(status.left(64)));
    r.origMsgId = text(o, "orig_msg_id");
    r.reason = text(o, "reason");
    r.dropReason = text(o, "drop_reason");
    const QJsonArray ids = o.value(QLatin1String("dropped_msg_ids")).toArray();
    for (qsizetype i = 0; i < ids.size() && i < MaxIds; ++i) {
        if (ids.at(i).isString())
            r.droppedMsgIds << ids.at(i).toString().left(MaxFieldChars);
    }
    if (r.origMsgId.isEmpty() && r.droppedMsgIds.isEmpty())
        return Broker::fail(Broker::ErrorKind::BadField,
                            QStringLiteral("an inbox receipt that names no message"));
    return r;
}

} // namespace Mcp::ClaudeInboxWire
