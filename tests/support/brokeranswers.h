#pragma once

// Reading a broker's answers in tests: the "messages" list of /poll-messages, /wait-messages and
// /messages, and its first message ({} when the list is empty).

#include <QJsonArray>
#include <QJsonObject>

namespace TestSupport {

inline QJsonArray messagesIn(const QJsonObject &answer)
{
    return answer.value(QLatin1String("messages")).toArray();
}

inline QJsonObject firstMessageIn(const QJsonObject &answer)
{
    return messagesIn(answer).at(0).toObject();
}

} // namespace TestSupport
