#include "broker/internal/messagejson.h"

#include <QJsonDocument>

namespace Broker {

namespace {

void appendMessage(QByteArray &out, const Message &m, DeliveredAs delivered)
{
    out += "{\"delivered\":";
    if (delivered == DeliveredAs::Boolean)
        out += m.delivered ? "true" : "false";
    else
        out += m.delivered ? '1' : '0';
    out += ",\"from_id\":";
    appendJsonString(out, m.fromId);
    out += ",\"id\":";
    out += QByteArray::number(m.id);
    out += ",\"metadata\":";
    if (m.metadata)
        out += QJsonDocument(*m.metadata).toJson(QJsonDocument::Compact);
    else
        out += "null";
    out += ",\"reply_to\":";
    if (m.replyTo)
        out += QByteArray::number(*m.replyTo);
    else
        out += "null";
    out += ",\"sent_at\":";
    appendJsonString(out, m.sentAt);
    out += ",\"text\":";
    appendJsonString(out, m.text);
    out += ",\"to_id\":";
    appendJsonString(out, m.toId);
    out += ",\"type\":";
    appendJsonString(out, m.type);
    out += '}';
}

} // namespace

void appendJsonString(QByteArray &out, const QString &text)
{
    static constexpr char hex[] = "0123456789abcdef";
    const auto escapeUnit = [&out](char16_t u) {
        out += "\\u";
        out += hex[(u >> 12) & 0xf];
        out += hex[(u >> 8) & 0xf];
        out += hex[(u >> 4) & 0xf];
        out += hex[u & 0xf];
    };
    out.reserve(out.size() + text.size() + 2);
    out += '"';
    const char16_t *units = reinterpret_cast<const char16_t *>(text.utf16());
    const qsizetype size = text.size();
    for (qsizetype i = 0; i < size; ++i) {
        const char16_t u = units[i];
        if (u < 0x80) {
            switch (u) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (u < 0x20)
                    escapeUnit(u);
                else
                    out += char(u);
            }
        } else if (u < 0x800) {
            out += char(0xc0 | (u >> 6));
            out += char(0x80 | (u & 0x3f));
        } else if (QChar::isHighSurrogate(u) && i + 1 < size && QChar::isLowSurrogate(units[i + 1])) {
            const char32_t c = QChar::surrogateToUcs4(u, units[++i]);
            out += char(0xf0 | (c >> 18));
            out += char(0x80 | ((c >> 12) & 0x3f));
            out += char(0x80 | ((c >> 6) & 0x3f));
            out += char(0x80 | (c & 0x3f));
        } else if (QChar::isSurrogate(u)) {
            escapeUnit(u); // unpaired: not encodable in UTF-8
        } else {
            out += char(0xe0 | (u >> 12));
            out += char(0x80 | ((u >> 6) & 0x3f));
            out += char(0x80 | (u & 0x3f));
        }
    }
    out += '"';
}

QByteArray messagesAnswer(const QList<Message> &messages, DeliveredAs delivered)
{
    QByteArray out;
    qsizetype estimate = 16;
    for (const Message &m : messages)
        estimate += 200 + m.text.size();
    out.reserve(estimate);
    out += "{\"messages\":[";
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (i > 0)
            out += ',';
        appendMessage(out, messages.at(i), delivered);
    }
    out += "]}";
    return out;
}

} // namespace Broker
