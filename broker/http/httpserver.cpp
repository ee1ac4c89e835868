#include "broker/http/httpserver.h"
#include "broker/http/httpconnection.h"

#include <QTcpServer>
#include <QTcpSocket>

#include <unistd.h>

namespace Broker::Http {

using Internal::Connection;
using Internal::lcHttp;

HttpServer::HttpServer(RequestHandler *handler, Limits limits, QObject *parent)
    : QObject(parent), m_handler(handler), m_limits(limits)
{
    Q_ASSERT(handler);
    m_clock.start();
    m_sweepTimer.setTimerType(Qt::CoarseTimer);
    connect(&m_sweepTimer, &QTimer::timeout, this, &HttpServer::sweep);
    updateSweepInterval();
    m_acceptRetryTimer.setSingleShot(true);
    m_acceptRetryTimer.setInterval(kAcceptRetryMs);
    connect(&m_acceptRetryTimer, &QTimer::timeout, this, [this] {
        if (m_tcpServer)
            m_tcpServer->resumeAccepting();
    });
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

QTcpServer *HttpServer::replaceTcpServer()
{
    if (m_tcpServer) {
        m_tcpServer->close();
        m_tcpServer->deleteLater();
        m_tcpServer = nullptr;
    }
    QTcpServer *server = createTcpServer();
    server->setParent(this);
    server->setMaxPendingConnections(qMax(30, qMin(m_limits.maxConnections, 1024)));
    return server;
}

Result<void> HttpServer::listen(const QHostAddress &address, quint16 port)
{
    QTcpServer *server = replaceTcpServer();
    server->setListenBacklogSize(qMax(50, qMin(m_limits.maxConnections, 1024)));
    if (!server->listen(address, port)) {
        const QAbstractSocket::SocketError error = server->serverError();
        const QString detail = server->errorString();
        server->deleteLater();
        if (error == QAbstractSocket::AddressInUseError) {
            return fail(ErrorKind::PortInUse,
                        QStringLiteral("Port %1 is already in use on %2. Another broker or "
                                       "program is listening there; stop it or choose "
                                       "another port (CLAUDE_PEERS_PORT).")
                            .arg(port)
                            .arg(address.toString()));
        }
        return fail(
            ErrorKind::Listen,
            QStringLiteral("Cannot listen on %1:%2: %3").arg(address.toString()).arg(port).arg(detail));
    }
    attach(server);
    qCDebug(lcHttp) << "listening on" << address << server->serverPort();
    return {};
}

Result<void> HttpServer::adopt(int fd)
{
    QTcpServer *server = replaceTcpServer(); // the backlog is the one the socket was made with
    if (!server->setSocketDescriptor(fd)) {
        const QString detail = server->errorString();
        server->deleteLater();
        ::close(fd);
        return fail(ErrorKind::Listen,
                    QStringLiteral("Cannot serve on the inherited socket: %1").arg(detail));
    }
    attach(server);
    qCDebug(lcHttp) << "serving on an inherited socket, port" << server->serverPort();
    return {};
}

void HttpServer::attach(QTcpServer *server)
{
    m_tcpServer = server;
    m_draining = false;
    // pendingConnectionAvailable, not newConnection: QSslServer emits it only after the
    // handshake, when nextPendingConnection() has a socket to give.
    connect(server, &QTcpServer::pendingConnectionAvailable, this, &HttpServer::acceptPending);
    connect(server, &QTcpServer::acceptError, this, &HttpServer::onAcceptError);
}

int HttpServer::listenerDescriptor() const
{
    return m_tcpServer && m_tcpServer->isListening() ? int(m_tcpServer->socketDescriptor()) : -1;
}

void HttpServer::stopAccepting()
{
    if (!m_tcpServer)
        return;
    acceptPending(); // what Qt accepted already is ours to serve
    // close() only closes our descriptor (no shutdown()): the socket lives on in the successor.
    m_tcpServer->close();
    m_tcpServer->deleteLater();
    m_tcpServer = nullptr;
    m_acceptRetryTimer.stop();
}

bool HttpServer::drain()
{
    m_draining = true;
    bool drained = true;
    const std::vector<Connection *> connections = m_connections;
    for (Connection *connection : connections) {
        if (connection->index >= 0 && !connection->drainStep())
            drained = false;
    }
    return drained;
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
    m_acceptRetryTimer.stop();
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
    const int shortest = qMin(qMin(m_limits.idleTimeoutMs, m_limits.requestTimeoutMs), Internal::kLingerMs);
    m_sweepTimer.setInterval(qBound(10, shortest / 2, 1000));
}

void HttpServer::acceptPending()
{
    if (!m_tcpServer)
        return;
    if (m_acceptRecoveryUnlogged) {
        m_acceptRecoveryUnlogged = false;
        qCInfo(lcHttp) << "Accepting connections again";
    }
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

void HttpServer::onAcceptError(QAbstractSocket::SocketError error)
{
    if (!m_tcpServer)
        return;
    // QTcpServer has paused accepting. Resuming at once would spin on the same error (EMFILE
    // lasts until some connection closes); the clients meanwhile wait in the listen backlog.
    constexpr qint64 warnEveryMs = 60000;
    if (m_acceptWarnedAt >= 0 && now() - m_acceptWarnedAt < warnEveryMs) {
        ++m_acceptFailuresUnlogged;
    } else {
        qCWarning(lcHttp).noquote()
            << QStringLiteral("Cannot accept connections (%1)%2; retrying every %3 ms%4")
                   .arg(int(error))
                   .arg(error == QAbstractSocket::SocketResourceError
                            ? QStringLiteral(": out of file descriptors or memory (raise `ulimit -n` "
                                             "or LimitNOFILE, or lower broker.max_connections)")
                            : QString())
                   .arg(kAcceptRetryMs)
                   .arg(m_acceptFailuresUnlogged > 0
                            ? QStringLiteral(" (%1 more failures since the last warning)")
                                  .arg(m_acceptFailuresUnlogged)
                            : QString());
        m_acceptWarnedAt = now();
        m_acceptFailuresUnlogged = 0;
        m_acceptRecoveryUnlogged = true;
    }
    m_acceptRetryTimer.start();
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
