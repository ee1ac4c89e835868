#include "openchamber/opencodeevents.h"

#include "openchamber/openchamberlogging.h"
#include "openchamber/opencodeclient.h"

#include <QJsonDocument>
#include <QNetworkReply>

namespace OpenChamber {

QList<QByteArray> SseParser::feed(const QByteArray &bytes)
{
    QList<QByteArray> events;
    qsizetype start = 0;
    while (start < bytes.size()) {
        const qsizetype newline = bytes.indexOf('\n', start);
        const qsizetype end = newline < 0 ? bytes.size() : newline;
        const qsizetype length = end - start;
        if (m_skipping) {
            m_skippedLineBytes += length;
            if (length > 0)
                m_skippedLineLast = bytes.at(end - 1);
        } else if (m_line.size() + length + m_data.size() > m_max) {
            // Too big: forget this event and skip to its end (a blank line).
            m_skipping = true;
            m_skippedLineBytes = m_line.size() + length;
            m_skippedLineLast = length > 0 ? bytes.at(end - 1) : '\0';
            m_line.clear();
            m_data.clear();
            m_hasData = false;
            ++m_dropped;
        } else {
            m_line.append(bytes.constData() + start, length);
        }
        if (newline < 0)
            break;
        if (m_skipping) {
            const bool blank =
                m_skippedLineBytes == 0 || (m_skippedLineBytes == 1 && m_skippedLineLast == '\r');
            m_skippedLineBytes = 0;
            if (blank)
                m_skipping = false;
        } else {
            QByteArray line = std::move(m_line);
            m_line.clear();
            if (line.endsWith('\r'))
                line.chop(1);
            takeLine(line, events);
        }
        start = newline + 1;
    }
    return events;
}

void SseParser::takeLine(const QByteArray &line, QList<QByteArray> &events)
{
    if (line.isEmpty()) {
        if (m_hasData)
            events.append(m_data);
        m_data.clear();
        m_hasData = false;
        return;
    }
    if (line.startsWith(':'))
        return;
    const qsizetype colon = line.indexOf(':');
    const QByteArray field = colon < 0 ? line : line.left(colon);
    if (field != "data")
        return;
    QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
    if (value.startsWith(' '))
        value.remove(0, 1);
    if (m_hasData)
        m_data.append('\n');
    m_data.append(value);
    m_hasData = true;
}

OpenCodeEventStream::OpenCodeEventStream(OpenCodeClient &client, QNetworkAccessManager &network,
                                         const QString &directory, QObject *parent, const QString &path)
    : QObject(parent)
{
    QNetworkRequest request = client.requestFor(path, directory);
    request.setRawHeader("accept", "text/event-stream");
    m_reply = network.get(request);
    QNetworkReply *reply = m_reply;
    connect(reply, &QNetworkReply::readyRead, this, &OpenCodeEventStream::readAvailable);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QString reason = status != 200 && status != 0
            ? QStringLiteral("the event stream answered %1").arg(status)
            : reply->errorString();
        qCDebug(lcOpenCode).noquote() << "event stream ended:" << reason;
        reply->deleteLater();
        m_connected = false;
        Q_EMIT ended(reason);
    });
}

OpenCodeEventStream::~OpenCodeEventStream()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void OpenCodeEventStream::readAvailable()
{
    if (!m_reply)
        return;
    if (m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200) {
        m_reply->readAll();
        return;
    }
    const QList<QByteArray> events = m_parser.feed(m_reply->readAll());
    if (!events.isEmpty() && !m_connected) {
        m_connected = true;
        Q_EMIT connected();
    }
    for (const QByteArray &data : events) {
        const QJsonDocument doc = QJsonDocument::fromJson(data);
        if (doc.isObject())
            Q_EMIT received(doc.object());
    }
}

QString eventSessionId(const QJsonObject &event)
{
    const QJsonObject properties = event.value(QStringLiteral("properties")).toObject();
    for (const QJsonValue &candidate :
         {properties.value(QStringLiteral("sessionID")),
          properties.value(QStringLiteral("info")).toObject().value(QStringLiteral("sessionID")),
          properties.value(QStringLiteral("part")).toObject().value(QStringLiteral("sessionID"))}) {
        if (candidate.isString())
            return candidate.toString();
    }
    return {};
}

std::optional<WorktreeNews> worktreeNews(const QJsonObject &globalEvent)
{
    const QJsonObject payload = globalEvent.value(QStringLiteral("payload")).toObject();
    const QString type = payload.value(QStringLiteral("type")).toString();
    const bool ready = type == QLatin1String("worktree.ready");
    if (!ready && type != QLatin1String("worktree.failed"))
        return std::nullopt;
    const QString directory = globalEvent.value(QStringLiteral("directory")).toString();
    if (directory.isEmpty())
        return std::nullopt;
    const QJsonObject properties = payload.value(QStringLiteral("properties")).toObject();
    return WorktreeNews {directory, ready, properties.value(QStringLiteral("message")).toString().trimmed()};
}

} // namespace OpenChamber
