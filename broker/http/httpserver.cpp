#include "httpserver.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#if QT_CONFIG(ssl)
#include <QSslSocket>
#endif

#include <charconv>
#include <cstring>
#include <exception>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#endif

namespace Broker::Http {

namespace {

Q_LOGGING_CATEGORY(lcHttp, "peers.broker.http")

// After a final answer we stop sending (half-close) and discard what the client still sends
// for this long, so that an error answer is read before the connection is reset.
constexpr int kLingerMs = 2000;
// Qt's own read buffer per socket: bounded, so a client that sends faster than we handle
// meets TCP back-pressure instead of growing our memory.
constexpr qint64 kSocketReadBufferBytes = 64 * 1024;
// A client that pipelines requests but does not read the answers: stop parsing its requests
// while this much is waiting to be sent, so our write buffer stays bounded too.
constexpr qint64 kMaxUnsentBytes = 1024 * 1024;

const QByteArray kGet = QByteArrayLiteral("GET");
const QByteArray kPost = QByteArrayLiteral("POST");
const QByteArray kHead = QByteArrayLiteral("HEAD");

// Header names every client sends: shared constants instead of one allocation per request.
const QByteArray kCommonHeaderNames[] = {
    QByteArrayLiteral("host"),           QByteArrayLiteral("content-type"),
    QByteArrayLiteral("content-length"), QByteArrayLiteral("authorization"),
    QByteArrayLiteral("connection"),     QByteArrayLiteral("user-agent"),
    QByteArrayLiteral("accept"),         QByteArrayLiteral("accept-encoding"),
    QByteArrayLiteral("expect"),         QByteArrayLiteral("transfer-encoding"),
};

QByteArray lowerCaseName(QByteArrayView name)
{
    char lower[32];
    if (name.size() > qsizetype(sizeof lower))
        return name.toByteArray().toLower();
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char c = name[i];
        lower[i] = (c >= 'A' && c <= 'Z') ? char(c + ('a' - 'A')) : c;
    }
    const QByteArrayView view(lower, name.size());
    for (const QByteArray &common : kCommonHeaderNames) {
        if (common == view)
            return common;
    }
    return view.toByteArray();
}

bool isTokenChar(uchar c)
{
    // RFC 9110 tchar
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!isTokenChar(uchar(c)))
            return false;
    }
    return true;
}

QByteArrayView trimmed(QByteArrayView s)
{
    while (!s.isEmpty() && (s.front() == ' ' || s.front() == '\t'))
        s = s.sliced(1);
    while (!s.isEmpty() && (s.back() == ' ' || s.back() == '\t'))
        s.chop(1);
    return s;
}

QByteArrayView reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

void appendNumber(QByteArray &out, qint64 n)
{
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, n);
    out.append(digits, result.ptr - digits);
}

// What a parsed request head says about the message that follows.
struct Head
{
    Request request;
    qint64 contentLength = 0;
    bool http10 = false;
    bool keepAlive = true;
    bool isHead = false;
    bool expectContinue = false;
};

enum class HeadError { None, Malformed, LengthRequired };

// Parses "METHOD target HTTP/1.x" and the header lines (the blank line excluded).
HeadError parseHead(QByteArrayView text, Head &head)
{
    qsizetype lineEnd = text.indexOf('\n');
    QByteArrayView line = text.first(lineEnd < 0 ? text.size() : lineEnd);
    if (line.endsWith('\r'))
        line.chop(1);

    const qsizetype sp1 = line.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
    if (sp1 <= 0 || sp2 < 0)
        return HeadError::Malformed;
    const QByteArrayView method = line.first(sp1);
    QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = line.sliced(sp2 + 1);
    if (!isToken(method) || target.isEmpty())
        return HeadError::Malformed;
    for (char c : target) {
        if (uchar(c) <= 0x20 || uchar(c) == 0x7f)
            return HeadError::Malformed;
    }
    if (version == "HTTP/1.1")
        head.http10 = false;
    else if (version == "HTTP/1.0")
        head.http10 = true;
    else
        return HeadError::Malformed;

    // absolute-form (proxies): keep only path and query
    if (target.startsWith("http://") || target.startsWith("https://")) {
        const qsizetype authority = target.indexOf("//") + 2;
        const qsizetype slash = target.indexOf('/', authority);
        const qsizetype question = target.indexOf('?', authority);
        if (slash >= 0 && (question < 0 || slash < question))
            target = target.sliced(slash);
        else if (question >= 0)
            target = target.sliced(question); // "?q" without a path: path "/"
        else
            target = "/";
    }
    if (target.front() != '/' && target != "*" && target.front() != '?')
        return HeadError::Malformed;

    Request &request = head.request;
    if (method == kGet)
        request.method = kGet; // shared, no allocation for the common methods
    else if (method == kPost)
        request.method = kPost;
    else if (method == kHead)
        request.method = kHead;
    else
        request.method = method.toByteArray();
    head.isHead = request.method == kHead;

    const qsizetype question = target.indexOf('?');
    if (question < 0) {
        request.path = target.toByteArray();
    } else {
        request.path = question == 0 ? QByteArray("/") : target.first(question).toByteArray();
        request.query = target.sliced(question + 1).toByteArray();
    }

    bool haveLength = false;
    bool connectionClose = false;
    bool connectionKeepAlive = false;
    request.headers.reserve(12);
    while (lineEnd >= 0 && lineEnd + 1 < text.size()) {
        const qsizetype start = lineEnd + 1;
        lineEnd = text.indexOf('\n', start);
        line = text.sliced(start, (lineEnd < 0 ? text.size() : lineEnd) - start);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            break;
        if (line.front() == ' ' || line.front() == '\t')
            return HeadError::Malformed; // obsolete line folding
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return HeadError::Malformed;
        const QByteArrayView name = line.first(colon);
        if (!isToken(name))
            return HeadError::Malformed; // also "Name : value"
        const QByteArrayView value = trimmed(line.sliced(colon + 1));
        for (char c : value) {
            const uchar u = uchar(c);
            if ((u < 0x20 && u != '\t') || u == 0x7f)
                return HeadError::Malformed;
        }
        QByteArray lowerName = lowerCaseName(name);

        if (lowerName == "content-length") {
            if (value.isEmpty() || value.size() > 15)
                return HeadError::Malformed;
            qint64 length = 0;
            for (char c : value) {
                if (c < '0' || c > '9')
                    return HeadError::Malformed;
                length = length * 10 + (c - '0');
            }
            if (haveLength && length != head.contentLength)
                return HeadError::Malformed;
            haveLength = true;
            head.contentLength = length;
        } else if (lowerName == "transfer-encoding") {
            return HeadError::LengthRequired;
        } else if (lowerName == "connection") {
            for (QByteArrayView token : value.toByteArray().split(',')) {
                token = trimmed(token);
                if (token.compare("close", Qt::CaseInsensitive) == 0)
                    connectionClose = true;
                else if (token.compare("keep-alive", Qt::CaseInsensitive) == 0)
                    connectionKeepAlive = true;
            }
        } else if (lowerName == "expect") {
            head.expectContinue = value.compare("100-continue", Qt::CaseInsensitive) == 0;
        }
        request.headers.append({std::move(lowerName), value.toByteArray()});
    }
    head.keepAlive = !connectionClose && (!head.http10 || connectionKeepAlive);
    return HeadError::None;
}

} // namespace

namespace Internal {

class ConnectionResponder;

// One accepted socket: parses requests, hands them to the handler one at a time, writes the
// answers, and closes itself on errors and timeouts (driven by the server's sweep).
class Connection : public QObject
{
public:
    enum class State {
        Reading, // parsing (or waiting for) the next request
        Waiting, // a request is with the handler
        Closing, // final answer written, waiting for it to leave the socket buffer
        Draining, // write side shut down, discarding input until the client closes
        Closed,
    };

    Connection(HttpServer *server, QTcpSocket *socket);

    void start();
    void rejectOverCapacity();
    void sweep(qint64 now);
    // The server closes: flush what is written, close, tell a pending responder.
    void shutdown(bool notifyResponder);

    // Called by ConnectionResponder.
    void answer(const Response &response);
    void responderDropped();

    bool counted = false; // counts against maxConnections
    int index = -1; // position in HttpServer::m_connections

private:
    enum class Step { Continue, NeedMore, Stop };

    void onReadyRead();
    void onBytesWritten();
    void process();
    Step parseNext();
    bool pull();
    void dispatch(Request &&request);
    void write(const Response &response, bool keepAlive, bool isHead);
    void reject(int status, QByteArrayView message);
    void startClose();
    void halfClose();
    void discardInput();
    void finish();
    qsizetype findHeadEnd();

    HttpServer *m_server;
    QTcpSocket *m_socket;
    QHostAddress m_peerAddress;
    State m_state = State::Reading;
    QByteArray m_buffer;
    qsizetype m_pos = 0; // start of the unconsumed bytes in m_buffer
    qsizetype m_scan = 0; // where the search for the end of the head resumes
    qsizetype m_headEnd = -1; // >= 0 once the current request's head is parsed
    Head m_head;
    QByteArray m_currentPath; // for log lines once the request is with the handler
    bool m_continueSent = false;
    bool m_inProcess = false;
    bool m_resumeQueued = false;
    bool m_writeBlocked = false; // stopped parsing until the client reads our answers
    qint64 m_requestStart = -1; // first byte of the current request
    qint64 m_lastActivity = 0;
    qint64 m_closeStart = 0;
    std::weak_ptr<ConnectionResponder> m_responder;
};

class ConnectionResponder final : public Responder
{
public:
    explicit ConnectionResponder(Connection *connection) : m_connection(connection) { }
    ~ConnectionResponder() override
    {
        if (Connection *connection = std::exchange(m_connection, nullptr))
            connection->responderDropped();
    }

    void respond(const Response &response) override
    {
        Connection *connection = std::exchange(m_connection, nullptr);
        m_onClosed = nullptr;
        if (connection)
            connection->answer(response);
    }
    bool isOpen() const override { return m_connection != nullptr; }
    void setOnClosed(std::function<void()> callback) override { m_onClosed = std::move(callback); }

    // The connection is gone before an answer.
    void detach(bool notify)
    {
        if (!std::exchange(m_connection, nullptr))
            return;
        // The callback may drop the last reference to this object: run it from a local.
        std::function<void()> callback = std::exchange(m_onClosed, nullptr);
        if (notify && callback)
            callback();
    }

private:
    Connection *m_connection;
    std::function<void()> m_onClosed;
};

Connection::Connection(HttpServer *server, QTcpSocket *socket)
    : QObject(server),
      m_server(server),
      m_socket(socket),
      m_peerAddress(socket->peerAddress()),
      m_lastActivity(server->now())
{
    socket->setParent(this);
    socket->setReadBufferSize(kSocketReadBufferBytes);
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(socket, &QTcpSocket::readyRead, this, &Connection::onReadyRead);
    connect(socket, &QTcpSocket::bytesWritten, this, &Connection::onBytesWritten);
    connect(socket, &QTcpSocket::disconnected, this, &Connection::finish);
}

void Connection::start()
{
    if (m_socket->state() != QAbstractSocket::ConnectedState) {
        finish();
        return;
    }
    // A TLS server may hand over a socket with decrypted bytes already buffered.
    if (m_socket->bytesAvailable() > 0)
        process();
}

void Connection::rejectOverCapacity()
{
    qCDebug(lcHttp) << "connection from" << m_peerAddress << "refused: too many connections";
    reject(503, "Too many connections");
}

void Connection::onReadyRead()
{
    m_lastActivity = m_server->now();
    if (m_state == State::Closing || m_state == State::Draining) {
        discardInput();
        return;
    }
    process();
}

void Connection::onBytesWritten()
{
    m_lastActivity = m_server->now();
    const qint64 unsent = m_socket->bytesToWrite();
    if (m_state == State::Closing && unsent == 0)
        halfClose();
    else if (m_writeBlocked && unsent < kMaxUnsentBytes && m_state == State::Reading && !m_inProcess) {
        m_writeBlocked = false;
        process(); // the client caught up with our answers: go on with its requests
    }
}

void Connection::process()
{
    if (m_inProcess)
        return; // re-entered from a handler that answered synchronously: the loop goes on
    m_inProcess = true;
    for (;;) {
        m_writeBlocked = false;
        while (m_state == State::Reading) {
            if (m_socket->bytesToWrite() >= kMaxUnsentBytes) {
                m_writeBlocked = true;
                break;
            }
            const Step step = parseNext();
            if (step == Step::NeedMore && !pull())
                break;
            if (step == Step::Stop)
                break;
        }
        // One write syscall for all answers of this read, now rather than on the next loop pass.
        if (m_state != State::Closed && m_socket->bytesToWrite() > 0)
            m_socket->flush();
        // Qt does not emit bytesWritten() from inside its own bytesWritten() emission, so when
        // the flush made room, go on here instead of waiting for a signal that may not come.
        if (!m_writeBlocked || m_state != State::Reading || m_socket->bytesToWrite() >= kMaxUnsentBytes)
            break;
    }
    m_inProcess = false;
}

bool Connection::pull()
{
    const qint64 available = m_socket->bytesAvailable();
    if (available <= 0)
        return false;
    if (m_pos > 0) { // drop consumed bytes once per read, not once per request
        m_buffer.remove(0, m_pos);
        m_scan -= m_pos;
        if (m_headEnd >= 0)
            m_headEnd -= m_pos;
        m_pos = 0;
    }
    const qsizetype old = m_buffer.size();
    m_buffer.resize(old + available);
    const qint64 n = m_socket->read(m_buffer.data() + old, available);
    m_buffer.resize(old + qMax<qint64>(n, 0));
    return n > 0;
}

// Finds the blank line that ends the head; tolerates bare LF line ends.
qsizetype Connection::findHeadEnd()
{
    const char *data = m_buffer.constData();
    const qsizetype size = m_buffer.size();
    qsizetype i = qMax(m_scan, m_pos);
    while (i < size) {
        const void *hit = std::memchr(data + i, '\n', size_t(size - i));
        if (!hit)
            break;
        const qsizetype nl = static_cast<const char *>(hit) - data;
        if (nl + 1 >= size) {
            m_scan = nl;
            return -1;
        }
        if (data[nl + 1] == '\n')
            return nl + 2;
        if (data[nl + 1] == '\r') {
            if (nl + 2 >= size) {
                m_scan = nl;
                return -1;
            }
            if (data[nl + 2] == '\n')
                return nl + 3;
        }
        i = nl + 1;
    }
    m_scan = size;
    return -1;
}

Connection::Step Connection::parseNext()
{
    const HttpServer::Limits &limits = m_server->m_limits;
    const qsizetype size = m_buffer.size();
    if (m_headEnd < 0) {
        // Stray CR/LF between requests (some clients add one after a body) are ignored.
        while (m_pos < size && (m_buffer.at(m_pos) == '\r' || m_buffer.at(m_pos) == '\n'))
            ++m_pos;
        if (m_pos == size)
            return Step::NeedMore;
        if (m_requestStart < 0)
            m_requestStart = m_server->now();

        const qsizetype end = findHeadEnd();
        if (end < 0) {
            if (size - m_pos > limits.maxHeaderBytes) {
                reject(431, "Request header too large");
                return Step::Stop;
            }
            return Step::NeedMore;
        }
        if (end - m_pos > limits.maxHeaderBytes) {
            reject(431, "Request header too large");
            return Step::Stop;
        }
        m_head = Head {};
        m_head.request.peerAddress = m_peerAddress;
        switch (parseHead(QByteArrayView(m_buffer).sliced(m_pos, end - m_pos), m_head)) {
        case HeadError::None:
            break;
        case HeadError::Malformed:
            reject(400, "Malformed HTTP request");
            return Step::Stop;
        case HeadError::LengthRequired:
            reject(411, "Length Required");
            return Step::Stop;
        }
        if (m_head.contentLength > limits.maxBodyBytes) {
            qCDebug(lcHttp) << "request from" << m_peerAddress << "declares" << m_head.contentLength
                            << "body bytes: refused";
            QByteArray message = "Request body too large (limit ";
            appendNumber(message, limits.maxBodyBytes);
            message += " bytes)";
            reject(413, message);
            return Step::Stop;
        }
        m_headEnd = end;
        m_scan = end;
        m_continueSent = false;
    }

    const qint64 length = m_head.contentLength;
    if (size - m_headEnd < length) {
        if (m_head.expectContinue && !m_head.http10 && !m_continueSent) {
            m_continueSent = true;
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        }
        return Step::NeedMore;
    }

    Request request = std::move(m_head.request);
    if (length > 0)
        request.body = QByteArray(m_buffer.constData() + m_headEnd, length);
    m_pos = m_headEnd + length;
    m_scan = m_pos;
    m_headEnd = -1;
    m_requestStart = -1;
    dispatch(std::move(request));
    return Step::Continue;
}

void Connection::dispatch(Request &&request)
{
    m_state = State::Waiting;
    m_currentPath = request.path;
    auto responder = std::make_shared<ConnectionResponder>(this);
    m_responder = responder;
    try {
        m_server->m_handler->handle(request, responder);
    } catch (const std::exception &e) {
        qCWarning(lcHttp) << "handler threw for" << request.path << ":" << e.what();
        if (responder->isOpen())
            responder->respond(Response::json(500, R"({"error":"Internal error"})"));
    } catch (...) {
        qCWarning(lcHttp) << "handler threw for" << request.path;
        if (responder->isOpen())
            responder->respond(Response::json(500, R"({"error":"Internal error"})"));
    }
    // If the handler kept no reference and did not answer, the destructor answers 500.
}

void Connection::answer(const Response &response)
{
    if (m_state != State::Waiting)
        return;
    m_responder.reset();
    const bool keepAlive = m_head.keepAlive;
    write(response, keepAlive, m_head.isHead);
    if (!keepAlive) {
        startClose();
        return;
    }
    m_state = State::Reading;
    m_lastActivity = m_server->now();
    if (m_inProcess || m_resumeQueued)
        return; // process() flushes
    m_socket->flush(); // a deferred answer (the push): out now
    if (m_pos < m_buffer.size() || m_socket->bytesAvailable() > 0) {
        // A deferred answer may come from inside another connection's handler call: parse the
        // next pipelined request from the event loop, not re-entrantly.
        m_resumeQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_resumeQueued = false;
                process();
            },
            Qt::QueuedConnection);
    }
}

void Connection::responderDropped()
{
    qCWarning(lcHttp) << "handler dropped the request for" << m_currentPath << "without an answer";
    answer(Response::json(500, R"({"error":"Internal error"})"));
}

void Connection::write(const Response &response, bool keepAlive, bool isHead)
{
    QByteArray out;
    qsizetype extra = 0;
    for (const auto &[name, value] : response.extraHeaders)
        extra += name.size() + value.size() + 4;
    out.reserve(128 + response.contentType.size() + extra + (isHead ? 0 : response.body.size()));
    out += "HTTP/1.1 ";
    appendNumber(out, response.status);
    out += ' ';
    out.append(reasonPhrase(response.status));
    out += "\r\nContent-Type: ";
    out += response.contentType;
    out += "\r\nContent-Length: ";
    appendNumber(out, response.body.size());
    out += "\r\n";
    for (const auto &[name, value] : response.extraHeaders) {
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    }
    if (!keepAlive)
        out += "Connection: close\r\n";
    else if (m_head.http10)
        out += "Connection: keep-alive\r\n";
    out += "\r\n";
    if (!isHead)
        out += response.body;
    m_socket->write(out);
}

void Connection::reject(int status, QByteArrayView message)
{
    if (status != 503)
        qCDebug(lcHttp) << "rejecting request from" << m_peerAddress << "with" << status;
    QByteArray body = R"({"error":")";
    body.append(message);
    body += R"("})";
    write(Response::json(status, body), false, false);
    startClose();
}

void Connection::startClose()
{
    m_state = State::Closing;
    m_closeStart = m_server->now();
    if (counted) {
        counted = false;
        --m_server->m_active;
    }
    m_buffer = QByteArray();
    m_pos = m_scan = 0;
    m_headEnd = -1;
    if (const auto responder = m_responder.lock())
        responder->detach(true);
    discardInput();
    // A flood of refused connections must not pile up lingering sockets.
    if (qsizetype(m_server->m_connections.size()) > 2 * qMax(1, m_server->m_limits.maxConnections)) {
        m_socket->flush();
        m_socket->abort();
        finish();
        return;
    }
    if (m_socket->bytesToWrite() > 0)
        m_socket->flush();
    // Else bytesWritten() half-closes once it is all out.
    if (m_socket->bytesToWrite() == 0)
        halfClose();
}

void Connection::halfClose()
{
    if (m_state != State::Closing)
        return;
    m_state = State::Draining;
    bool plainTcp = true;
#if QT_CONFIG(ssl)
    plainTcp = qobject_cast<QSslSocket *>(m_socket) == nullptr;
#endif
#ifdef Q_OS_UNIX
    if (plainTcp && m_socket->socketDescriptor() >= 0 &&
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR) == 0)
        return; // the client reads our answer, sees EOF and closes: disconnected() follows
#endif
    Q_UNUSED(plainTcp);
    m_socket->disconnectFromHost();
}

void Connection::discardInput()
{
    const qint64 available = m_socket->bytesAvailable();
    if (available > 0)
        m_socket->skip(available);
}

void Connection::sweep(qint64 now)
{
    const HttpServer::Limits &limits = m_server->m_limits;
    switch (m_state) {
    case State::Reading:
        if (m_requestStart >= 0 && now - m_requestStart > limits.requestTimeoutMs) {
            reject(408, "Request timeout");
        } else if (now - m_lastActivity > limits.idleTimeoutMs) {
            if (m_socket->bytesToWrite() > 0) {
                m_socket->abort(); // the client stopped reading our answers
                finish();
            } else if (m_requestStart < 0) {
                qCDebug(lcHttp) << "closing idle connection from" << m_peerAddress;
                m_state = State::Closing;
                m_closeStart = now;
                if (counted) {
                    counted = false;
                    --m_server->m_active;
                }
                m_socket->disconnectFromHost();
            }
        }
        break;
    case State::Waiting:
        // A deferred answer in flight is not idle; only a stalled write is.
        if (m_socket->bytesToWrite() > 0 && now - m_lastActivity > limits.idleTimeoutMs) {
            m_socket->abort();
            finish();
        }
        break;
    case State::Closing:
    case State::Draining:
        if (now - m_closeStart > kLingerMs) {
            m_socket->abort();
            finish();
        }
        break;
    case State::Closed:
        break;
    }
}

void Connection::shutdown(bool notifyResponder)
{
    if (m_state == State::Closed)
        return;
    m_state = State::Closed;
    counted = false;
    index = -1;
    disconnect(m_socket, nullptr, this, nullptr);
    if (const auto responder = m_responder.lock())
        responder->detach(notifyResponder);
    // Answers already written (e.g. to /shutdown) still go out: the socket outlives us until
    // it has flushed or a short grace period ends.
    QTcpSocket *socket = m_socket;
    socket->flush();
    socket->setParent(nullptr);
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    socket->disconnectFromHost();
    if (socket->state() == QAbstractSocket::UnconnectedState) {
        socket->deleteLater();
    } else {
        QTimer::singleShot(kLingerMs, socket, [socket] {
            socket->abort();
            socket->deleteLater();
        });
    }
    deleteLater();
}

void Connection::finish()
{
    if (m_state == State::Closed)
        return;
    m_state = State::Closed;
    if (counted) {
        counted = false;
        --m_server->m_active;
    }
    m_server->removeConnection(this);
    if (const auto responder = m_responder.lock())
        responder->detach(true);
    deleteLater();
}

} // namespace Internal

using Internal::Connection;

HttpServer::HttpServer(RequestHandler *handler, Limits limits, QObject *parent)
    : QObject(parent), m_handler(handler), m_limits(limits)
{
    Q_ASSERT(handler);
    m_clock.start();
    m_sweepTimer.setTimerType(Qt::CoarseTimer);
    connect(&m_sweepTimer, &QTimer::timeout, this, &HttpServer::sweep);
    updateSweepInterval();
}

HttpServer::~HttpServer()
{
    if (m_tcpServer)
        m_tcpServer->close();
    for (Connection *connection : std::exchange(m_connections, {}))
        connection->shutdown(false);
}

QTcpServer *HttpServer::createTcpServer()
{
    return new QTcpServer(this);
}

Result<void> HttpServer::listen(const QHostAddress &address, quint16 port)
{
    if (m_tcpServer) {
        m_tcpServer->close();
        m_tcpServer->deleteLater();
        m_tcpServer = nullptr;
    }
    QTcpServer *server = createTcpServer();
    server->setParent(this);
    server->setMaxPendingConnections(qMax(30, qMin(m_limits.maxConnections, 1024)));
    server->setListenBacklogSize(qMax(50, qMin(m_limits.maxConnections, 1024)));
    if (!server->listen(address, port)) {
        const QAbstractSocket::SocketError error = server->serverError();
        const QString detail = server->errorString();
        server->deleteLater();
        if (error == QAbstractSocket::AddressInUseError) {
            return fail(QStringLiteral("port_in_use"),
                        QStringLiteral("Port %1 is already in use on %2. Another broker or "
                                       "program is listening there; stop it or choose "
                                       "another port (CLAUDE_PEERS_PORT).")
                            .arg(port)
                            .arg(address.toString()));
        }
        return fail(
            QStringLiteral("listen"),
            QStringLiteral("Cannot listen on %1:%2: %3").arg(address.toString()).arg(port).arg(detail));
    }
    m_tcpServer = server;
    // pendingConnectionAvailable, not newConnection: QSslServer emits it only after the
    // handshake, when nextPendingConnection() has a socket to give.
    connect(server, &QTcpServer::pendingConnectionAvailable, this, &HttpServer::acceptPending);
    qCDebug(lcHttp) << "listening on" << address << server->serverPort();
    return {};
}

bool HttpServer::isListening() const
{
    return m_tcpServer && m_tcpServer->isListening();
}

quint16 HttpServer::serverPort() const
{
    return m_tcpServer ? m_tcpServer->serverPort() : 0;
}

void HttpServer::close()
{
    if (m_tcpServer) {
        m_tcpServer->close();
        m_tcpServer->deleteLater();
        m_tcpServer = nullptr;
    }
    m_sweepTimer.stop();
    m_active = 0;
    // Callbacks may re-enter the server: work on a list nobody else sees.
    for (Connection *connection : std::exchange(m_connections, {}))
        connection->shutdown(true);
}

int HttpServer::connectionCount() const
{
    return m_active;
}

void HttpServer::setLimits(Limits limits)
{
    m_limits = limits;
    updateSweepInterval();
}

void HttpServer::updateSweepInterval()
{
    // Coarse on purpose: one timer for all connections, a few wake-ups per timeout.
    const int shortest = qMin(qMin(m_limits.idleTimeoutMs, m_limits.requestTimeoutMs), kLingerMs);
    m_sweepTimer.setInterval(qBound(10, shortest / 2, 1000));
}

void HttpServer::acceptPending()
{
    if (!m_tcpServer)
        return;
    while (QTcpSocket *socket = m_tcpServer->nextPendingConnection()) {
        auto *connection = new Connection(this, socket);
        connection->index = int(m_connections.size());
        m_connections.push_back(connection);
        if (!m_sweepTimer.isActive())
            m_sweepTimer.start();
        if (m_active >= m_limits.maxConnections) {
            connection->rejectOverCapacity();
            continue;
        }
        ++m_active;
        connection->counted = true;
        connection->start();
    }
}

void HttpServer::removeConnection(Connection *connection)
{
    const int i = connection->index;
    if (i < 0 || i >= int(m_connections.size()) || m_connections[size_t(i)] != connection)
        return;
    Connection *last = m_connections.back();
    m_connections[size_t(i)] = last;
    last->index = i;
    m_connections.pop_back();
    connection->index = -1;
    if (m_connections.empty())
        m_sweepTimer.stop();
}

void HttpServer::sweep()
{
    const qint64 t = now();
    // A sweep may close connections (removing them from the list): iterate over a copy.
    const std::vector<Connection *> connections = m_connections;
    for (Connection *connection : connections) {
        if (connection->index >= 0)
            connection->sweep(t);
    }
}

} // namespace Broker::Http
