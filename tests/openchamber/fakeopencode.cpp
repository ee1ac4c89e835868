#include "tests/openchamber/fakeopencode.h"

#include <QDateTime>
#include <QDir>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QTimer>

namespace OpenChamberTest {

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    default:
        return "Status";
    }
}

QJsonObject textPart(const QString &text)
{
    return {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

} // namespace

QString FakeRequest::directory() const
{
    return query.queryItemValue(QStringLiteral("directory"), QUrl::FullyDecoded);
}

QJsonObject FakeRequest::json() const
{
    return QJsonDocument::fromJson(body).object();
}

FakeResponse FakeResponse::json(const QJsonValue &value, int status)
{
    const QByteArray bytes = value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                             : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    return {status, bytes, false};
}

FakeOpenCode::FakeOpenCode()
{
    now = [] { return QDateTime::currentMSecsSinceEpoch(); };
    connect(&m_server, &QTcpServer::newConnection, this, &FakeOpenCode::onNewConnection);
    const bool listening = m_server.listen(QHostAddress::LocalHost, 0);
    Q_ASSERT(listening);
    Q_UNUSED(listening);
}

FakeOpenCode::~FakeOpenCode()
{
    for (QTcpSocket *socket : m_connections.keys())
        socket->disconnect(this);
}

QUrl FakeOpenCode::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port()));
}

qint64 FakeOpenCode::stamp() const
{
    return now();
}

QJsonObject FakeOpenCode::addSession(const QString &directory, const QString &id, const QString &title,
                                     bool archived)
{
    const QString sessionId = id.isEmpty() ? QStringLiteral("ses_%1").arg(m_nextId++) : id;
    QJsonObject time {{QStringLiteral("created"), stamp()}, {QStringLiteral("updated"), stamp()}};
    if (archived)
        time.insert(QStringLiteral("archived"), stamp());
    const QJsonObject session {
        {QStringLiteral("id"), sessionId},
        {QStringLiteral("directory"), directory},
        {QStringLiteral("title"), title.isEmpty() ? QStringLiteral("New session") : title},
        {QStringLiteral("time"), time}};
    m_sessions.prepend(session);
    m_messages.insert(sessionId, {});
    return session;
}

void FakeOpenCode::addMessage(const QString &sessionId, const QString &role, const QString &text,
                              qint64 created, std::optional<qint64> completed, const QJsonObject &extraInfo,
                              const QJsonArray &extraParts)
{
    QJsonArray &list = m_messages[sessionId];
    QJsonObject time {{QStringLiteral("created"), created}};
    if (completed)
        time.insert(QStringLiteral("completed"), *completed);
    QJsonObject info {{QStringLiteral("id"), QStringLiteral("msg_%1").arg(m_nextId++)},
                      {QStringLiteral("sessionID"), sessionId},
                      {QStringLiteral("role"), role},
                      {QStringLiteral("time"), time}};
    for (auto it = extraInfo.begin(); it != extraInfo.end(); ++it)
        info.insert(it.key(), it.value());
    QJsonArray parts = extraParts;
    if (!text.isNull())
        parts.prepend(textPart(text));
    list.append(QJsonObject {{QStringLiteral("info"), info}, {QStringLiteral("parts"), parts}});
}

void FakeOpenCode::setStatus(const QString &sessionId, const QString &type)
{
    if (type == QLatin1String("idle"))
        m_status.remove(sessionId);
    else
        m_status.insert(sessionId, type);
    const QString directory = sessionDirectory(sessionId);
    emitEvent(directory,
              {{QStringLiteral("type"), QStringLiteral("session.status")},
               {QStringLiteral("properties"),
                QJsonObject {{QStringLiteral("sessionID"), sessionId},
                             {QStringLiteral("status"), QJsonObject {{QStringLiteral("type"), type}}}}}});
    if (type == QLatin1String("idle"))
        emitEvent(directory,
                  {{QStringLiteral("type"), QStringLiteral("session.idle")},
                   {QStringLiteral("properties"), QJsonObject {{QStringLiteral("sessionID"), sessionId}}}});
}

QJsonArray FakeOpenCode::sessions() const
{
    QJsonArray out;
    for (const QJsonObject &s : m_sessions)
        out.append(s);
    return out;
}

QString FakeOpenCode::sessionDirectory(const QString &sessionId) const
{
    for (const QJsonObject &s : m_sessions) {
        if (s.value(QStringLiteral("id")).toString() == sessionId)
            return s.value(QStringLiteral("directory")).toString();
    }
    return {};
}

int FakeOpenCode::count(const QByteArray &method, const QString &path) const
{
    return int(find(method, path).size());
}

int FakeOpenCode::countPrefix(const QByteArray &method, const QString &pathPrefix) const
{
    int n = 0;
    for (const FakeRequest &r : requests)
        n += r.method == method && r.path.startsWith(pathPrefix);
    return n;
}

QList<FakeRequest> FakeOpenCode::find(const QByteArray &method, const QString &path) const
{
    QList<FakeRequest> out;
    for (const FakeRequest &r : requests) {
        if (r.method == method && r.path == path)
            out.append(r);
    }
    return out;
}

void FakeOpenCode::emitEvent(const QString &directory, const QJsonObject &event)
{
    const QByteArray frame = "data: " + QJsonDocument(event).toJson(QJsonDocument::Compact) + "\n\n";
    for (auto it = m_connections.begin(); it != m_connections.end(); ++it) {
        if (it->eventStream && !it->global && it->directory == directory)
            it.key()->write(frame);
    }
    emitGlobalEvent(directory, event);
}

void FakeOpenCode::emitGlobalEvent(const QString &directory, const QJsonObject &payload)
{
    const QJsonObject event {{QStringLiteral("directory"), directory},
                             {QStringLiteral("project"), QStringLiteral("fakeproject")},
                             {QStringLiteral("payload"), payload}};
    const QByteArray frame = "data: " + QJsonDocument(event).toJson(QJsonDocument::Compact) + "\n\n";
    for (auto it = m_connections.begin(); it != m_connections.end(); ++it) {
        if (it->eventStream && it->global)
            it.key()->write(frame);
    }
}

void FakeOpenCode::emitWorktreeNews(const QString &directory, bool ready, const QString &message)
{
    const QString name = directory.section(QLatin1Char('/'), -1);
    const QJsonObject properties = ready
        ? QJsonObject {{QStringLiteral("name"), name},
                       {QStringLiteral("branch"), QString(QStringLiteral("opencode/") + name)}}
        : QJsonObject {{QStringLiteral("message"), message}};
    emitGlobalEvent(directory,
                    {{QStringLiteral("type"),
                      ready ? QStringLiteral("worktree.ready") : QStringLiteral("worktree.failed")},
                     {QStringLiteral("properties"), properties}});
}

int FakeOpenCode::globalEventStreams() const
{
    int n = 0;
    for (const Connection &c : m_connections)
        n += c.eventStream && c.global;
    return n;
}

void FakeOpenCode::dropEventStreams()
{
    QList<QTcpSocket *> streams;
    for (auto it = m_connections.cbegin(); it != m_connections.cend(); ++it) {
        if (it->eventStream)
            streams.append(it.key());
    }
    for (QTcpSocket *socket : streams) {
        m_connections[socket].eventStream = false;
        socket->disconnectFromHost();
    }
}

int FakeOpenCode::eventStreams() const
{
    int n = 0;
    for (const Connection &c : m_connections)
        n += c.eventStream;
    return n;
}

void FakeOpenCode::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        m_connections.insert(socket, {});
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_connections.remove(socket);
            socket->deleteLater();
        });
    }
}

void FakeOpenCode::onReadyRead(QTcpSocket *socket)
{
    Connection &connection = m_connections[socket];
    connection.buffer += socket->readAll();
    for (;;) {
        const qsizetype headerEnd = connection.buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        const QList<QByteArray> lines = connection.buffer.left(headerEnd).split('\n');
        FakeRequest request;
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        request.method = first.value(0);
        const QUrl target(QString::fromLatin1(first.value(1)));
        request.path = target.path(QUrl::FullyDecoded);
        request.query = QUrlQuery(target.query(QUrl::FullyEncoded));
        qsizetype length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon < 0)
                continue;
            const QByteArray name = lines[i].left(colon).trimmed().toLower();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            request.headers.insert(name, value);
            if (name == "content-length")
                length = value.toLongLong();
        }
        if (connection.buffer.size() < headerEnd + 4 + length)
            return;
        request.body = connection.buffer.mid(headerEnd + 4, length);
        connection.buffer.remove(0, headerEnd + 4 + length);
        requests.append(request);
        Q_EMIT requestReceived(request.path);
        serve(socket, request);
        if (!m_connections.contains(socket) || m_connections[socket].eventStream)
            return;
    }
}

void FakeOpenCode::serve(QTcpSocket *socket, const FakeRequest &request)
{
    if (!password.isEmpty() &&
        request.headers.value("authorization") != "Basic " + QByteArray("opencode:" + password).toBase64()) {
        const QByteArray body = R"({"name":"Unauthorized"})";
        socket->write("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: " +
                      QByteArray::number(body.size()) + "\r\n\r\n" + body);
        return;
    }
    const bool instanceStream = request.method == "GET" && request.path == QLatin1String("/event");
    const bool global = request.method == "GET" && request.path == QLatin1String("/global/event");
    std::optional<FakeResponse> scripted = handler && !instanceStream ? handler(request) : std::nullopt;
    if (!scripted && (instanceStream || global)) {
        Connection &connection = m_connections[socket];
        connection.eventStream = true;
        connection.global = global;
        connection.directory = request.directory();
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                      "Connection: close\r\n\r\n");
        socket->write(global ? R"(data: {"payload":{"type":"server.connected","properties":{}}})"
                               "\n\n"
                             : R"(data: {"type":"server.connected","properties":{}})"
                               "\n\n");
        return;
    }
    const FakeResponse response = scripted ? *scripted : route(request);
    if (response.hang)
        return;
    QByteArray head =
        "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status) + "\r\n";
    if (response.status != 204)
        head +=
            "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(response.body.size()) +
            "\r\n";
    head += "\r\n";
    socket->write(head + (response.status == 204 ? QByteArray() : response.body));
}

FakeResponse FakeOpenCode::sessionStatuses(const QString &directory)
{
    // Runs move on with each status poll (deterministic, no real time), unless time-driven.
    const QStringList ids = m_runs.keys();
    for (const QString &id : ids) {
        Run &run = m_runs[id];
        if (run.directory != directory || runDelayMs >= 0)
            continue;
        if (run.idleLeft > 0) {
            --run.idleLeft;
            continue;
        }
        if (run.busyLeft > 0) {
            --run.busyLeft;
            if (m_status.value(id) != QLatin1String("busy"))
                setStatus(id, QStringLiteral("busy"));
            continue;
        }
        finishRun(id);
    }
    QJsonObject map;
    for (auto it = m_status.begin(); it != m_status.end(); ++it) {
        if (sessionDirectory(it.key()) == directory)
            map.insert(it.key(), QJsonObject {{QStringLiteral("type"), it.value()}});
    }
    return FakeResponse::json(map);
}

void FakeOpenCode::finishRun(const QString &sessionId)
{
    if (!m_runs.contains(sessionId))
        return;
    m_runs.remove(sessionId);
    const qint64 t = stamp();
    addMessage(sessionId, QStringLiteral("assistant"), replyText, t, t,
               {{QStringLiteral("providerID"), QStringLiteral("mock")},
                {QStringLiteral("modelID"), QStringLiteral("mock-model")}});
    emitEvent(
        sessionDirectory(sessionId),
        {{QStringLiteral("type"), QStringLiteral("message.updated")},
         {QStringLiteral("properties"),
          QJsonObject {{QStringLiteral("sessionID"), sessionId},
                       {QStringLiteral("info"),
                        m_messages.value(sessionId).last().toObject().value(QStringLiteral("info"))}}}});
    setStatus(sessionId, QStringLiteral("idle"));
}

FakeResponse FakeOpenCode::route(const FakeRequest &request)
{
    const QString &path = request.path;
    const QString directory = request.directory();
    const bool get = request.method == "GET";
    const bool post = request.method == "POST";
    auto notFound = [] {
        return FakeResponse::json(QJsonObject {{QStringLiteral("name"), QStringLiteral("NotFoundError")}},
                                  404);
    };
    if (get && path == QLatin1String("/global/health"))
        return FakeResponse::json(QJsonObject {{QStringLiteral("healthy"), true},
                                               {QStringLiteral("version"), QStringLiteral("fake")}});
    if (get && path == QLatin1String("/agent"))
        return FakeResponse::json(agents);
    if (get && path == QLatin1String("/config"))
        return FakeResponse::json(config);
    if (get && path == QLatin1String("/config/providers"))
        return FakeResponse::json(QJsonObject {{QStringLiteral("providers"), providers},
                                               {QStringLiteral("default"), QJsonObject {}}});
    if (get && path == QLatin1String("/command"))
        return FakeResponse::json(commands);
    if (post && path == QLatin1String("/experimental/worktree")) {
        const QString name = request.json().value(QStringLiteral("name")).toString();
        const QString worktree = worktreeRoot + QLatin1Char('/') + name;
        QDir().mkpath(worktree);
        worktrees.append(worktree);
        if (worktreeBootstrap) {
            const bool ready = *worktreeBootstrap;
            // After the answer is on its way, as OpenCode's background bootstrap.
            QTimer::singleShot(
                0, this, [this, worktree, ready] { emitWorktreeNews(worktree, ready, worktreeFailure); });
        }
        return FakeResponse::json(
            QJsonObject {{QStringLiteral("name"), name},
                         {QStringLiteral("branch"), QString(QStringLiteral("opencode/") + name)},
                         {QStringLiteral("directory"), worktree}});
    }
    if (get && path == QLatin1String("/experimental/session"))
        return FakeResponse::json(sessions());
    if (get && path == QLatin1String("/session")) {
        QJsonArray list;
        for (const QJsonObject &s : m_sessions) {
            if (directory.isEmpty() || s.value(QStringLiteral("directory")).toString() == directory)
                list.append(s);
        }
        return FakeResponse::json(list);
    }
    if (post && path == QLatin1String("/session"))
        return FakeResponse::json(
            addSession(directory, {}, request.json().value(QStringLiteral("title")).toString()));
    if (get && path == QLatin1String("/session/status"))
        return sessionStatuses(directory);
    if (!path.startsWith(QLatin1String("/session/")))
        return notFound();
    const QStringList segments = path.mid(int(qstrlen("/session/"))).split(QLatin1Char('/'));
    const QString id = segments.value(0);
    const QString what = segments.value(1);
    if (!m_messages.contains(id))
        return notFound();
    if (get && what == QLatin1String("message")) {
        QJsonArray list = m_messages.value(id);
        const int limit = request.query.queryItemValue(QStringLiteral("limit")).toInt();
        while (limit > 0 && list.size() > limit)
            list.removeFirst();
        return FakeResponse::json(list);
    }
    if (post && what == QLatin1String("prompt_async")) {
        const QJsonObject body = request.json();
        const QJsonArray parts = body.value(QStringLiteral("parts")).toArray();
        if (parts.isEmpty())
            return FakeResponse::json(QJsonObject {{QStringLiteral("success"), false}}, 400);
        if (landPrompts) {
            QJsonObject model = body.value(QStringLiteral("model")).toObject();
            if (body.contains(QStringLiteral("variant")))
                model.insert(QStringLiteral("variant"), body.value(QStringLiteral("variant")));
            addMessage(id, QStringLiteral("user"),
                       parts.first().toObject().value(QStringLiteral("text")).toString(), stamp(),
                       std::nullopt,
                       {{QStringLiteral("agent"), body.value(QStringLiteral("agent")).toString()},
                        {QStringLiteral("model"), model}});
            emitEvent(
                sessionDirectory(id),
                {{QStringLiteral("type"), QStringLiteral("message.updated")},
                 {QStringLiteral("properties"),
                  QJsonObject {{QStringLiteral("sessionID"), id},
                               {QStringLiteral("info"),
                                m_messages.value(id).last().toObject().value(QStringLiteral("info"))}}}});
            m_runs.insert(id, Run {sessionDirectory(id), idlePollsFirst, busyPolls});
            if (runDelayMs >= 0) {
                setStatus(id, QStringLiteral("busy"));
                QTimer::singleShot(runDelayMs, this, [this, id] { finishRun(id); });
            }
        }
        return FakeResponse::empty(204);
    }
    if (post && what == QLatin1String("command")) {
        const QJsonObject body = request.json();
        addMessage(id, QStringLiteral("user"),
                   QLatin1Char('/') + body.value(QStringLiteral("command")).toString() + QLatin1Char(' ') +
                       body.value(QStringLiteral("arguments")).toString(),
                   stamp());
        return FakeResponse::json(
            QJsonObject {{QStringLiteral("info"), QJsonObject {}}, {QStringLiteral("parts"), QJsonArray {}}});
    }
    if (post && what == QLatin1String("fork")) {
        const QString boundary = request.json().value(QStringLiteral("messageID")).toString();
        const QJsonObject fork = addSession(sessionDirectory(id), {}, QStringLiteral("Fork of ") + id);
        QJsonArray copied;
        for (const QJsonValue &m : m_messages.value(id)) {
            if (m.toObject()
                    .value(QStringLiteral("info"))
                    .toObject()
                    .value(QStringLiteral("id"))
                    .toString() == boundary)
                break;
            copied.append(m);
        }
        m_messages.insert(fork.value(QStringLiteral("id")).toString(), copied);
        return FakeResponse::json(fork);
    }
    return notFound();
}

} // namespace OpenChamberTest
