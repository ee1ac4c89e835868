#include "bench/httpconnection.h"

#include <QHostAddress>

#include <charconv>

namespace Bench {

namespace {

void appendNumber(QByteArray &out, qint64 n)
{
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, n);
    out.append(digits, result.ptr - digits);
}

} // namespace

HttpConnection::HttpConnection(const QString &host, quint16 port, QObject *parent)
    : QObject(parent), m_host(host), m_port(port)
{
    m_hostHeader = host.toUtf8() + ':' + QByteArray::number(port);
    connect(&m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(&m_socket, &QTcpSocket::connected, this, [this] {
        m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
        if (!m_unsent.isEmpty()) {
            m_socket.write(std::exchange(m_unsent, {}));
            m_socket.flush();
        }
    });
    connect(&m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onClosed);
    connect(&m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket.state() == QAbstractSocket::UnconnectedState)
            onClosed(); // refused or failed before connecting: no disconnected()
    });
    m_stallTimer.setInterval(1000);
    connect(&m_stallTimer, &QTimer::timeout, this, &HttpConnection::checkStall);
}

HttpConnection::~HttpConnection()
{
    // The socket member outlives the callbacks' deque: keep its last signals away from us.
    disconnect(&m_socket, nullptr, this, nullptr);
    m_socket.abort();
}

void HttpConnection::post(QByteArrayView path, QByteArrayView body, QByteArrayView bearer, Callback done)
{
    QByteArray request;
    request.reserve(160 + path.size() + bearer.size() + body.size());
    request += "POST ";
    request.append(path);
    request += " HTTP/1.1\r\nHost: ";
    request += m_hostHeader;
    request += "\r\nContent-Type: application/json\r\n";
    if (!bearer.isEmpty()) {
        request += "Authorization: Bearer ";
        request.append(bearer);
        request += "\r\n";
    }
    request += "Content-Length: ";
    appendNumber(request, body.size());
    request += "\r\n\r\n";
    request.append(body);
    send(std::move(request), std::move(done));
}

void HttpConnection::get(QByteArrayView path, Callback done)
{
    QByteArray request = "GET ";
    request.append(path);
    request += " HTTP/1.1\r\nHost: ";
    request += m_hostHeader;
    request += "\r\n\r\n";
    send(std::move(request), std::move(done));
}

void HttpConnection::send(QByteArray &&request, Callback &&done)
{
    connectIfNeeded();
    m_callbacks.push_back(std::move(done));
    if (m_callbacks.size() == 1)
        m_sinceReceive.start(); // the stall clock starts with the first outstanding answer
    if (m_socket.state() == QAbstractSocket::ConnectedState) {
        m_socket.write(request);
        if (m_flushImmediately)
            m_socket.flush();
    } else {
        m_unsent += request;
    }
}

void HttpConnection::connectIfNeeded()
{
    if (m_socket.state() != QAbstractSocket::UnconnectedState)
        return;
    m_in.clear();
    m_pos = 0;
    m_socket.connectToHost(m_host, m_port);
    m_stallTimer.start();
}

void HttpConnection::abort()
{
    m_socket.abort();
    failAll("aborted");
}

void HttpConnection::onReadyRead()
{
    m_sinceReceive.start();
    if (m_pos > 0 && m_pos == m_in.size()) {
        m_in.resize(0);
        m_pos = 0;
    } else if (m_pos > 64 * 1024) {
        m_in.remove(0, m_pos);
        m_pos = 0;
    }
    m_in += m_socket.readAll();
    while (!m_callbacks.empty() && parseOne()) { }
}

// Takes one answer off the buffer and runs its callback; false when it is not complete yet.
bool HttpConnection::parseOne()
{
    const QByteArrayView data(m_in);
    const qsizetype headEnd = data.indexOf("\r\n\r\n", m_pos);
    if (headEnd < 0)
        return false;
    const QByteArrayView head = data.sliced(m_pos, headEnd - m_pos);
    // "HTTP/1.1 200 OK"
    int status = 0;
    if (head.size() >= 12)
        std::from_chars(head.data() + 9, head.data() + 12, status);
    qint64 length = 0;
    bool close = false;
    qsizetype lineStart = head.indexOf('\n');
    while (lineStart >= 0) {
        const qsizetype next = head.indexOf('\n', lineStart + 1);
        QByteArrayView line = head.sliced(lineStart + 1, (next < 0 ? head.size() : next) - lineStart - 1);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.size() > 15 && line.first(15).compare("content-length:", Qt::CaseInsensitive) == 0) {
            const QByteArrayView value = line.sliced(15).trimmed();
            std::from_chars(value.data(), value.data() + value.size(), length);
        } else if (line.size() > 11 && line.first(11).compare("connection:", Qt::CaseInsensitive) == 0) {
            close = line.sliced(11).trimmed().compare("close", Qt::CaseInsensitive) == 0;
        }
        lineStart = next;
    }
    if (status >= 100 && status < 200) { // interim answer: the real one follows
        m_pos = headEnd + 4;
        return true;
    }
    if (data.size() - (headEnd + 4) < length)
        return false;
    HttpReply reply;
    reply.status = status;
    reply.body = data.sliced(headEnd + 4, length).toByteArray();
    m_pos = headEnd + 4 + length;
    Callback done = std::move(m_callbacks.front());
    m_callbacks.pop_front();
    if (!m_callbacks.empty())
        m_sinceReceive.start();
    if (close)
        m_socket.disconnectFromHost(); // pipelined requests behind this one fail in onClosed
    if (done)
        done(reply);
    return true;
}

void HttpConnection::onClosed()
{
    m_unsent.clear();
    failAll(m_socket.errorString().toUtf8());
}

void HttpConnection::failAll(const QByteArray &why)
{
    m_stallTimer.stop();
    std::deque<Callback> callbacks = std::exchange(m_callbacks, {});
    HttpReply reply;
    reply.error = why.isEmpty() ? QByteArray("connection closed") : why;
    for (Callback &done : callbacks) {
        if (done)
            done(reply);
    }
}

void HttpConnection::checkStall()
{
    if (m_callbacks.empty() || m_sinceReceive.elapsed() < m_stallTimeoutMs)
        return;
    m_socket.abort();
    failAll("timed out waiting for an answer");
}

} // namespace Bench
