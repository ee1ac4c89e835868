#include "tests/mcp_stdio/referencebroker.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTcpSocket>

ReferenceBroker::ReferenceBroker(QByteArray token, Mode mode, QObject *parent)
    : QObject(parent), m_token(std::move(token)), m_mode(mode)
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
            connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
                m_buffers.remove(socket);
                socket->deleteLater();
            });
        }
    });
}

ReferenceBroker::~ReferenceBroker()
{
    // The sockets are the server's children: silence them before the members they use go.
    for (QTcpSocket *socket : m_server.findChildren<QTcpSocket *>())
        socket->disconnect(this);
}

bool ReferenceBroker::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QJsonObject ReferenceBroker::Message::toJson() const
{
    return QJsonObject {{QStringLiteral("id"), id},
                        {QStringLiteral("from_id"), fromId},
                        {QStringLiteral("to_id"), toId},
                        {QStringLiteral("text"), text},
                        {QStringLiteral("type"), type},
                        {QStringLiteral("metadata"), metadata},
                        {QStringLiteral("reply_to"), replyTo},
                        {QStringLiteral("sent_at"), sentAt},
                        {QStringLiteral("delivered"), delivered ? 1 : 0}};
}

qint64 ReferenceBroker::addMessage(const QString &toId, const QString &text, const QString &fromId)
{
    Message m {m_nextId++,
               fromId,
               toId,
               text,
               QStringLiteral("text"),
               QJsonValue::Null,
               QJsonValue::Null,
               QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs),
               false};
    m_messages.append(m);
    return m.id;
}

bool ReferenceBroker::isDelivered(qint64 messageId) const
{
    for (const Message &m : m_messages) {
        if (m.id == messageId)
            return m.delivered;
    }
    return false;
}

QString ReferenceBroker::channelPush(const QString &peerId) const
{
    return m_peers.value(peerId).value(QLatin1String("channel_push")).toString();
}

QStringList ReferenceBroker::peerIds() const
{
    return m_peers.keys();
}

ReferenceBroker::Answer ReferenceBroker::json(const QJsonValue &value, int status)
{
    Answer a;
    a.status = status;
    a.body = value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                             : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    return a;
}

void ReferenceBroker::onReadyRead(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer += socket->readAll();
    for (;;) {
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        qsizetype length = 0;
        QByteArray authorization;
        for (const QByteArray &line : lines.mid(1)) {
            const qsizetype colon = line.indexOf(':');
            const QByteArray name = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            if (name == "content-length")
                length = value.toLongLong();
            else if (name == "authorization")
                authorization = value;
        }
        if (buffer.size() < end + 4 + length)
            return;
        const QByteArray body = buffer.mid(end + 4, length);
        buffer.remove(0, end + 4 + length);
        const QString path = QString::fromLatin1(requestLine.value(1));
        ++m_requests[path];
        const Answer a = handle(requestLine.value(0), path, authorization, body);
        if (a.hold)
            continue;
        const QByteArray reason = a.status == 200 ? "OK" : a.status == 401 ? "Unauthorized" : "Not Found";
        socket->write("HTTP/1.1 " + QByteArray::number(a.status) + ' ' + reason +
                      "\r\nContent-Type: " + a.contentType +
                      "\r\nContent-Length: " + QByteArray::number(a.body.size()) + "\r\n\r\n" + a.body);
    }
}

void ReferenceBroker::answerWith(const QString &path, QByteArray body, QByteArray contentType)
{
    Answer a;
    a.body = std::move(body);
    a.contentType = std::move(contentType);
    m_overrides.insert(path, a);
}

ReferenceBroker::Answer ReferenceBroker::handle(const QByteArray &method, const QString &path,
                                                const QByteArray &authorization, const QByteArray &body)
{
    if (const auto overridden = m_overrides.constFind(path); overridden != m_overrides.cend())
        return *overridden;
    if (path == QLatin1String("/health")) {
        QJsonObject health {{QStringLiteral("status"), QStringLiteral("ok")},
                            {QStringLiteral("peers"), m_peers.size()},
                            {QStringLiteral("uptime_ms"), 1000},
                            {QStringLiteral("requests_last_minute"), 0},
                            {QStringLiteral("pending_messages"), 0}};
        if (m_mode == Mode::BrokenStream) {
            health.insert(QStringLiteral("capabilities"),
                          QJsonArray {QStringLiteral("wait-messages"), QStringLiteral("wait-after-id")});
            health.insert(QStringLiteral("database_id"), QStringLiteral("broken-stream"));
        }
        return json(health);
    }
    if (method == "POST" && authorization != "Bearer " + m_token)
        return json(QJsonObject {{QStringLiteral("error"), QStringLiteral("Unauthorized")}}, 401);
    if (method != "POST") {
        Answer a;
        a.contentType = "text/plain";
        a.body = "claude-peers broker";
        return a;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        return json(QJsonObject {{QStringLiteral("error"), error.errorString()}}, 500);
    return route(path, doc.object());
}

ReferenceBroker::Answer ReferenceBroker::route(const QString &path, const QJsonObject &body)
{
    const QString id = body.value(QLatin1String("id")).toString();
    const QJsonObject ok {{QStringLiteral("ok"), true}};
    if (path == QLatin1String("/register")) {
        const QString tty = body.value(QLatin1String("tty")).toString();
        QString peerId;
        if (!tty.isEmpty()) {
            peerId = QString::fromLatin1(
                QCryptographicHash::hash(tty.toUtf8(), QCryptographicHash::Sha256).toHex().left(8));
        } else {
            const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
            for (int i = 0; i < 8; ++i)
                peerId += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(36)]);
        }
        const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        const QString name = body.value(QLatin1String("session_name")).toString();
        m_peers.insert(peerId,
                       QJsonObject {{QStringLiteral("id"), peerId},
                                    {QStringLiteral("pid"), body.value(QLatin1String("pid"))},
                                    {QStringLiteral("cwd"), body.value(QLatin1String("cwd"))},
                                    {QStringLiteral("git_root"), body.value(QLatin1String("git_root"))},
                                    {QStringLiteral("tty"), body.value(QLatin1String("tty"))},
                                    {QStringLiteral("summary"), body.value(QLatin1String("summary"))},
                                    {QStringLiteral("registered_at"), now},
                                    {QStringLiteral("last_seen"), now},
                                    {QStringLiteral("session_name"), name},
                                    {QStringLiteral("channel_push"), QStringLiteral("unknown")},
                                    {QStringLiteral("version"), body.value(QLatin1String("version"))}});
        QJsonObject answer {{QStringLiteral("id"), peerId}};
        if (!name.isEmpty())
            answer.insert(QStringLiteral("session_name"), name);
        return json(answer);
    }
    if (path == QLatin1String("/heartbeat") || path == QLatin1String("/set-summary") ||
        path == QLatin1String("/set-name"))
        return json(ok);
    if (path == QLatin1String("/set-channel-push")) {
        const QString status = body.value(QLatin1String("status")).toString();
        if (m_peers.contains(id) &&
            (status == QLatin1String("unknown") || status == QLatin1String("unverified") ||
             status == QLatin1String("working")))
            m_peers[id].insert(QStringLiteral("channel_push"), status);
        return json(ok);
    }
    if (path == QLatin1String("/unregister")) {
        m_peers.remove(id);
        return json(ok);
    }
    if (path == QLatin1String("/list-peers")) {
        QJsonArray rows;
        for (const QJsonObject &row : std::as_const(m_peers)) {
            if (row.value(QLatin1String("id")) != body.value(QLatin1String("exclude_id")))
                rows.append(row);
        }
        return json(rows);
    }
    if (path == QLatin1String("/send-message")) {
        const QString to = body.value(QLatin1String("to_id")).toString();
        if (!m_peers.contains(to))
            return json(QJsonObject {
                {QStringLiteral("ok"), false},
                {QStringLiteral("error"),
                 QStringLiteral("Peer %1 not found. Run list_peers to see available peers, or the peer may "
                                "have disconnected.")
                     .arg(to)}});
        Message m {m_nextId++,
                   body.value(QLatin1String("from_id")).toString(),
                   to,
                   body.value(QLatin1String("text")).toString(),
                   body.value(QLatin1String("type")).toString(QStringLiteral("text")),
                   body.value(QLatin1String("metadata")).isObject() ? body.value(QLatin1String("metadata"))
                                                                    : QJsonValue(QJsonValue::Null),
                   body.value(QLatin1String("reply_to")).isDouble() ? body.value(QLatin1String("reply_to"))
                                                                    : QJsonValue(QJsonValue::Null),
                   QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs),
                   false};
        m_messages.append(m);
        return json(QJsonObject {{QStringLiteral("ok"), true}, {QStringLiteral("message_id"), m.id}});
    }
    if (path == QLatin1String("/poll-messages")) {
        QJsonArray list;
        for (const Message &m : std::as_const(m_messages)) {
            if (m.toId == id && !m.delivered)
                list.append(m.toJson());
        }
        return json(QJsonObject {{QStringLiteral("messages"), list}});
    }
    if (path == QLatin1String("/ack-messages")) {
        const QJsonArray ids = body.value(QLatin1String("message_ids")).toArray();
        for (Message &m : m_messages) {
            if (m.toId == id && ids.contains(QJsonValue(m.id)))
                m.delivered = true;
        }
        return json(ok);
    }
    if (path == QLatin1String("/message-status")) {
        const qint64 wanted = body.value(QLatin1String("message_id")).toInteger();
        for (const Message &m : std::as_const(m_messages)) {
            if (m.id == wanted)
                return json(QJsonObject {{QStringLiteral("id"), m.id},
                                         {QStringLiteral("from_id"), m.fromId},
                                         {QStringLiteral("to_id"), m.toId},
                                         {QStringLiteral("delivered"), m.delivered},
                                         {QStringLiteral("sent_at"), m.sentAt}});
        }
        return json(QJsonObject {{QStringLiteral("error"), QStringLiteral("not found")}}, 404);
    }
    if (path == QLatin1String("/wait-messages") && m_mode == Mode::BrokenStream) {
        Answer a;
        a.hold = true;
        return a;
    }
    return json(QJsonObject {{QStringLiteral("error"), QStringLiteral("not found")}}, 404);
}
