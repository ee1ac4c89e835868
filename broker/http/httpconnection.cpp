#include "broker/http/httpconnection.h"
#include "broker/http/httpserver.h"

#include <QTcpSocket>
#include <QTimer>
#if QT_CONFIG(ssl)
#include <QSslSocket>
#endif

#include <cstring>
#include <exception>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#endif

namespace Broker::Http::Internal {

Q_LOGGING_CATEGORY(lcHttp, "peers.broker.http")

namespace {

// Qt's own read buffer per socket: bounded, so a client that sends faster than we handle
// meets TCP back-pressure instead of growing our memory.
constexpr qint64 kSocketReadBufferBytes = 64 * 1024;
// A client that pipelines requests but does not read the answers: stop parsing its requests
// while this much is waiting to be sent (in the socket's buffer or in answers held for an
// earlier request's), so our write buffer stays bounded too.
constexpr qint64 kMaxUnsentBytes = 1024 * 1024;

const QByteArray kInternalError = R"({"error":"Internal error"})";

} // namespace

class ConnectionResponder final : public Responder
{
public:
    ConnectionResponder(Connection *connection, quint64 sequence)
        : m_connection(connection), m_sequence(sequence)
    {
    }
    ~ConnectionResponder() override
    {
        if (Connection *connection = std::exchange(m_connection, nullptr))
            connection->responderDropped(m_sequence);
    }

    void respond(const Response &response) override
    {
        Connection *connection = std::exchange(m_connection, nullptr);
        m_onClosed = nullptr;
        if (connection)
            connection->answer(m_sequence, response);
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
    quint64 m_sequence;
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
#if defined(Q_OS_UNIX)
    bool plainTcp = true;
#if QT_CONFIG(ssl)
    plainTcp = qobject_cast<QSslSocket *>(socket) == nullptr;
#endif
    if (plainTcp)
        m_directFd = int(socket->socketDescriptor());
#endif
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
    const qint64 unsent = unsentBytes();
    if (m_state == State::Closing && m_socket->bytesToWrite() == 0 && m_out.isEmpty()) {
        halfClose();
    } else if (m_writeBlocked && unsent < kMaxUnsentBytes && m_state == State::Open && !m_inProcess) {
        m_writeBlocked = false;
        process(); // the client caught up with our answers: go on with its requests
    }
}

void Connection::process()
{
    if (m_inProcess)
        return; // re-entered from a handler that answered synchronously: the loop goes on
    m_inProcess = true;
    const int maxPipelined = qMax(1, m_server->m_limits.maxPipelinedRequests);
    for (;;) {
        m_writeBlocked = false;
        while (m_state == State::Open && !m_stopParsing && qsizetype(m_slots.size()) < maxPipelined) {
            if (unsentBytes() >= kMaxUnsentBytes) {
                m_writeBlocked = true;
                break;
            }
            const Step step = parseNext();
            if (step == Step::Stop || (step == Step::NeedMore && !pull()))
                break;
        }
        // One write syscall for all answers of this read, now rather than on the next loop pass.
        if (m_state != State::Closed)
            flushOut();
        // Qt does not emit bytesWritten() from inside its own bytesWritten() emission, so when
        // the flush made room, go on here instead of waiting for a signal that may not come.
        if (!m_writeBlocked || m_state != State::Open || unsentBytes() >= kMaxUnsentBytes)
            break;
    }
    m_inProcess = false;
}

qint64 Connection::unsentBytes() const
{
    return m_socket->bytesToWrite() + m_out.size() + m_slotAnswerBytes;
}

// Sends m_out. Qt's buffered socket arms its write notifier for every write() and disarms it
// once flushed; under the GLib event dispatcher each of those is a poll-set change plus an
// eventfd wake-up (two syscalls per answer besides the send). So when Qt holds nothing
// unsent, the bytes go straight to the kernel; whatever does not fit (a full socket buffer)
// or fails goes through Qt, which then waits for the socket, emits bytesWritten() and reports
// errors as usual. Bytes are never reordered: the direct path is taken only while Qt's buffer
// is empty.
void Connection::flushOut()
{
    if (m_state == State::Closed || sendDirect())
        return;
    m_socket->write(std::exchange(m_out, {}));
    m_socket->flush();
}

// The part of flushOut() that never enters Qt's socket code, so it emits no signal and is safe
// from inside another connection's handler. True when m_out is all sent.
bool Connection::sendDirect()
{
    if (m_out.isEmpty())
        return true;
#ifdef Q_OS_UNIX
    if (m_directFd < 0 || m_socket->bytesToWrite() > 0)
        return false;
#ifdef MSG_NOSIGNAL
    constexpr int flags = MSG_NOSIGNAL | MSG_DONTWAIT;
#else
    constexpr int flags = MSG_DONTWAIT; // SIGPIPE is ignored by the broker's hosts
#endif
    const ssize_t n = ::send(m_directFd, m_out.constData(), size_t(m_out.size()), flags);
    if (n <= 0)
        return false; // a full buffer or an error: Qt's path waits or reports it
    m_lastActivity = m_server->now();
    if (n == m_out.size()) {
        m_out.clear();
        return true;
    }
    m_out.remove(0, n);
#endif
    return false;
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
        m_head = RequestHead {};
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
            m_out += "HTTP/1.1 100 Continue\r\n\r\n"; // after the earlier answers, at once
            flushOut();
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
    const quint64 sequence = m_firstSequence + m_slots.size();
    Slot &slot = m_slots.emplace_back();
    slot.path = request.path;
    // Handing over: this is the connection's last answer, the next request goes to the successor.
    slot.keepAlive = m_head.keepAlive && !m_server->m_draining;
    slot.http10 = m_head.http10;
    slot.isHead = m_head.isHead;
    if (!slot.keepAlive)
        m_stopParsing = true;
    ++m_dispatched;
    auto responder = std::make_shared<ConnectionResponder>(this, sequence);
    slot.responder = responder;
    // `slot` may be gone once the handler answered: not used below.
    try {
        m_server->m_handler->handle(request, responder);
    } catch (const std::exception &e) {
        qCWarning(lcHttp) << "handler threw for" << request.path << ":" << e.what();
        if (responder->isOpen())
            responder->respond(Response::json(500, kInternalError));
    } catch (...) {
        qCWarning(lcHttp) << "handler threw for" << request.path;
        if (responder->isOpen())
            responder->respond(Response::json(500, kInternalError));
    }
    // If the handler kept no reference and did not answer, the destructor answers 500.
}

void Connection::answer(quint64 sequence, const Response &response)
{
    if (m_state != State::Open || sequence < m_firstSequence || sequence - m_firstSequence >= m_slots.size())
        return;
    Slot &slot = m_slots[size_t(sequence - m_firstSequence)];
    if (slot.answered)
        return;
    slot.answered = true;
    slot.responder.reset();
    if (m_server->m_draining && slot.keepAlive) {
        slot.keepAlive = false; // dispatched before the hand-over began
        m_stopParsing = true;
    }
    appendResponse(slot.answer, response, slot.keepAlive, slot.http10, slot.isHead);
    m_slotAnswerBytes += slot.answer.size();
    writeAnswered();
}

void Connection::responderDropped(quint64 sequence)
{
    if (sequence >= m_firstSequence && sequence - m_firstSequence < m_slots.size()) {
        qCWarning(lcHttp) << "handler dropped the request for"
                          << m_slots[size_t(sequence - m_firstSequence)].path << "without an answer";
    }
    answer(sequence, Response::json(500, kInternalError));
}

// Writes the answers that are next in request order; the rest wait for their predecessors.
void Connection::writeAnswered()
{
    bool wrote = false;
    while (m_state == State::Open && !m_slots.empty() && m_slots.front().answered) {
        Slot slot = std::move(m_slots.front());
        m_slots.pop_front();
        ++m_firstSequence;
        m_slotAnswerBytes -= slot.answer.size();
        if (m_out.isEmpty())
            m_out = std::move(slot.answer);
        else
            m_out += slot.answer;
        wrote = true;
        if (!slot.keepAlive) {
            startClose();
            return;
        }
    }
    if (!wrote)
        return;
    m_lastActivity = m_server->now();
    if (m_inProcess)
        return; // process() flushes and parses on
    // Nothing else outstanding on this connection (a client that waits for each answer, a push
    // to a long-poll): nothing to gather, so no posted event either, unless the kernel did not
    // take it all (Qt's path may emit signals, not to be run from inside another handler).
    if (m_slots.empty() && sendDirect()) {
        resumeLater();
        return;
    }
    flushLater();
}

// A deferred answer (a push, or answers held for a group commit) whose connection has more
// requests outstanding goes out after the current event-loop pass, together with every other
// answer of this connection released in that pass: one write() for a commit's batch of
// pipelined answers instead of one each.
void Connection::flushLater()
{
    if (m_flushQueued)
        return;
    m_flushQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_flushQueued = false;
            if (m_state == State::Closed)
                return;
            flushOut();
            resumeLater();
        },
        Qt::QueuedConnection);
}

// Parses requests that waited for a free slot. Deferred answers may come from inside another
// connection's handler call, so this runs from the event loop, not re-entrantly.
void Connection::resumeLater()
{
    if (m_resumeQueued || m_state != State::Open || m_stopParsing)
        return;
    if (m_pos >= m_buffer.size() && m_socket->bytesAvailable() == 0)
        return;
    m_resumeQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_resumeQueued = false;
            process();
        },
        Qt::QueuedConnection);
}

void Connection::reject(int status, QByteArrayView message)
{
    if (status != 503)
        qCDebug(lcHttp) << "refusing a request from" << m_peerAddress << "with" << status;
    QByteArray body = R"({"error":")";
    body.append(message);
    body += R"("})";
    // Answered in order: after the answers to earlier pipelined requests, if any.
    Slot &slot = m_slots.emplace_back();
    slot.answered = true;
    slot.keepAlive = false;
    appendResponse(slot.answer, Response::json(status, body), false, false, false);
    m_slotAnswerBytes += slot.answer.size();
    m_stopParsing = true;
    m_refused = true;
    m_requestStart = -1;
    writeAnswered();
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
    detachResponders(true);
    discardInput();
    // A flood of refused connections must not pile up lingering sockets.
    if (qsizetype(m_server->m_connections.size()) > 2 * qMax(1, m_server->m_limits.maxConnections)) {
        flushOut();
        m_socket->abort();
        finish();
        return;
    }
    flushOut();
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
    // TLS has no half-close: closing now would reset a client still sending the body we refused
    // (a 413 mid-upload), and it would never read the answer. Keep discarding its input until it
    // closes or the linger time ends (sweep()).
    if (!plainTcp && m_refused)
        return;
    m_socket->disconnectFromHost();
}

void Connection::discardInput()
{
    const qint64 available = m_socket->bytesAvailable();
    if (available > 0)
        m_socket->skip(available);
}

void Connection::detachResponders(bool notify)
{
    // Callbacks may re-enter the server or drop responders: work on a list nobody else sees.
    const std::deque<Slot> slots = std::exchange(m_slots, {});
    m_firstSequence += slots.size();
    m_slotAnswerBytes = 0;
    for (const Slot &slot : slots) {
        if (const auto responder = slot.responder.lock())
            responder->detach(notify);
    }
}

void Connection::sweep(qint64 now)
{
    const HttpServer::Limits &limits = m_server->m_limits;
    switch (m_state) {
    case State::Open:
        if (m_requestStart >= 0 && now - m_requestStart > limits.requestTimeoutMs) {
            reject(408, "Request timeout");
        } else if (now - m_lastActivity > limits.idleTimeoutMs) {
            if (m_socket->bytesToWrite() > 0) {
                m_socket->abort(); // the client stopped reading our answers
                finish();
            } else if (m_slots.empty() && m_requestStart < 0) {
                // Idle. A connection with an answer in flight (a long-poll) is not.
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

void Connection::shutdown(bool notifyResponders)
{
    if (m_state == State::Closed)
        return;
    flushOut();
    m_state = State::Closed;
    counted = false;
    index = -1;
    disconnect(m_socket, nullptr, this, nullptr);
    detachResponders(notifyResponders);
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

bool Connection::drainStep()
{
    if (m_state != State::Open)
        return true; // its last answer is written
    if (!m_slots.empty() || m_requestStart >= 0 || m_pos < m_buffer.size() || m_socket->bytesAvailable() > 0)
        return false; // a request with the handler, or on its way in
    if (m_dispatched == 0)
        return false; // accepted just before the hand-over: its first request is on the way
    // Idle after an answer: a client reusing it now sees it closed before its request was read
    // and sends again on a fresh connection (to the successor), as HTTP/1.1 clients do.
    startClose();
    return true;
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
    detachResponders(true);
    deleteLater();
}

} // namespace Broker::Http::Internal
