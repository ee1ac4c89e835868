#pragma once

#include "broker/internal/privateheader.h"

#include "common/dto.h"

#include <QByteArray>
#include <QList>

namespace Broker {

// The {"messages":[…]} answers of /poll-messages, /wait-messages and /messages, written
// directly instead of through QJsonObject and QJsonDocument (a tenth of a delivery's cost).
// The bytes are exactly what QJsonDocument writes for Message::toJson(): keys in its
// (alphabetical) order, its string escapes; tst_MessageJson compares the two.
enum class DeliveredAs { Integer, Boolean }; // 0/1 as the reference's poll, or true/false

QByteArray messagesAnswer(const QList<Message> &messages, DeliveredAs delivered = DeliveredAs::Integer);

// A JSON string literal as QJsonDocument writes it (UTF-8, quotes, its escapes).
void appendJsonString(QByteArray &out, const QString &text);

} // namespace Broker
