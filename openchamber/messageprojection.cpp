#include "openchamber/messageprojection.h"

#include <algorithm>

namespace OpenChamber {

namespace {

QJsonValue numberOrNull(const QJsonValue &value)
{
    return value.isDouble() ? value : QJsonValue(QJsonValue::Null);
}

QString newestId(const QJsonArray &raw, const QString &role, bool completedOnly)
{
    QString id;
    double newest = -1;
    for (const QJsonValue &v : raw) {
        const QJsonObject info = v.toObject().value(QStringLiteral("info")).toObject();
        if (info.value(QStringLiteral("role")).toString() != role)
            continue;
        const QJsonObject time = info.value(QStringLiteral("time")).toObject();
        if (completedOnly && !time.value(QStringLiteral("completed")).isDouble())
            continue;
        const double created = time.value(QStringLiteral("created")).toDouble(0);
        if (created >= newest) {
            newest = created;
            id = info.value(QStringLiteral("id")).toString();
        }
    }
    return id;
}

} // namespace

QJsonArray projectTextMessages(const QJsonArray &raw, MessageRole role)
{
    QList<QJsonObject> messages;
    for (const QJsonValue &v : raw) {
        const QJsonObject record = v.toObject();
        const QJsonObject info = record.value(QStringLiteral("info")).toObject();
        const QString kind = info.value(QStringLiteral("role")).toString();
        if (kind != QLatin1String("user") && kind != QLatin1String("assistant"))
            continue;
        if ((role == MessageRole::User && kind != QLatin1String("user")) ||
            (role == MessageRole::Assistant && kind != QLatin1String("assistant")))
            continue;
        QString text;
        for (const QJsonValue &p : record.value(QStringLiteral("parts")).toArray()) {
            const QJsonObject part = p.toObject();
            if (part.value(QStringLiteral("type")).toString() == QLatin1String("text") &&
                part.value(QStringLiteral("text")).isString())
                text += part.value(QStringLiteral("text")).toString();
        }
        text = text.trimmed();
        if (text.isEmpty())
            continue;
        const QJsonObject time = info.value(QStringLiteral("time")).toObject();
        const QJsonValue provider = info.value(QStringLiteral("providerID"));
        const QJsonValue model = info.value(QStringLiteral("modelID"));
        const QJsonValue modelText = provider.isString() && model.isString() &&
                !provider.toString().isEmpty() && !model.toString().isEmpty()
            ? QJsonValue(provider.toString() + QLatin1Char('/') + model.toString())
            : QJsonValue(QJsonValue::Null);
        messages.append(
            {{QStringLiteral("id"), info.value(QStringLiteral("id")).toString()},
             {QStringLiteral("role"), kind},
             {QStringLiteral("createdAt"), numberOrNull(time.value(QStringLiteral("created")))},
             {QStringLiteral("completedAt"), numberOrNull(time.value(QStringLiteral("completed")))},
             {QStringLiteral("model"), modelText},
             {QStringLiteral("text"), text}});
    }
    std::stable_sort(messages.begin(), messages.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(QStringLiteral("createdAt")).toDouble(0) <
            b.value(QStringLiteral("createdAt")).toDouble(0);
    });
    QJsonArray out;
    for (const QJsonObject &m : messages)
        out.append(m);
    return out;
}

QString newestUserMessageId(const QJsonArray &raw)
{
    return newestId(raw, QStringLiteral("user"), false);
}

QString latestCompletedAssistantId(const QJsonArray &raw)
{
    return newestId(raw, QStringLiteral("assistant"), true);
}

} // namespace OpenChamber
