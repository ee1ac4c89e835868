#pragma once

#include "broker/http/httptypes.h"
#include "common/result.h"

#include <QAbstractSocket>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

#include <vector>

class QTcpServer;
class QTcpSocket;

namespace Broker::Http {

namespace Internal {
class Connection;
}

// Bounds on every input (docs/protocol.md "Limits and failures"). Declared outside HttpServer
// so that `Limits limits = {}` works as a default argument inside the class.
struct ServerLimits
{
    qint64 maxBodyBytes = 1024 * 1024; // larger Content-Length: 413 before the body is read
    int maxHeaderBytes = 16384; // request line + headers; larger: 431
    int maxConnections = 1024; // the next one is answered 503 and closed
    int idleTimeoutMs = 60000; // keep-alive connection with nothing in flight: closed
    int requestTimeoutMs = 10000; // from a request's first byte to its last: else 408
    // Requests of one connection with the handler at once. 1: the next pipelined request is
    // not parsed before the current one is answered. More lets a handler that answers later
    // (e.g. after a group commit) take a client's pipelined requests in one pass; they are
    // still handed over in order and answered in order.
    int maxPipelinedRequests = 1;
};

// A small HTTP/1.1 server for the broker's API (and, through createTcpServer(), for the
// federation's TLS port). Why not QHttpServer: see docs/decisions.md.
//
// - Requests are parsed from a per-connection buffer; bodies only with Content-Length.
// - Keep-alive by default on HTTP/1.1; pipelined requests are handed to the handler in order
//   and answered in order; by default (maxPipelinedRequests 1) the next is not parsed before
//   the current one is answered.
// - The handler gets a Responder it may answer at once or keep (long-poll). isOpen() is true
//   while an answer would still reach the client: it turns false once answered and when the
//   connection closes; onClosed runs (once) in the latter case only. A responder dropped
//   without an answer answers 500, so a request can never hang forever.
// - Every wait is bounded by ServerLimits; one coarse sweep timer enforces the timeouts.
// - When accept() fails (EMFILE and the like) the clients wait in the kernel's backlog and
//   accepting resumes every kAcceptRetryMs until it works again: no busy loop, one warning a
//   minute at most.
class HttpServer : public QObject
{
    Q_OBJECT
public:
    using Limits = ServerLimits;
    static constexpr int kAcceptRetryMs = 100;

    // The handler is not owned and must outlive the server.
    explicit HttpServer(RequestHandler *handler, Limits limits = {}, QObject *parent = nullptr);
    ~HttpServer() override; // like close(), but onClosed callbacks do not run

    // Error codes: "port_in_use" (EADDRINUSE), "listen" (anything else).
    Result<void> listen(const QHostAddress &address, quint16 port);
    // Serves on a socket that already listens (handed over by the broker before us, or by
    // systemd); takes ownership of fd. Error code "listen".
    Result<void> adopt(int fd);
    bool isListening() const;
    // The listening socket's descriptor (-1 when not listening), for a hand-over.
    int listenerDescriptor() const;
    quint16 serverPort() const;

    // Stops listening and closes every connection. Answers already written are flushed;
    // pending responders turn !isOpen() and their onClosed callbacks run.
    void close();

    // A hand-over: stop accepting (closing our descriptor only; the successor holds the socket
    // and the kernel keeps queueing clients on it) and keep the connections.
    void stopAccepting();
    // A hand-over: from now on every answer says "Connection: close" and the idle connections
    // that have been answered are closed. Returns true once no connection needs the handler
    // any more (call again until then): a connection that has not sent its first request yet,
    // or has one with the handler, still does.
    bool drain();

    // Open connections counted against maxConnections (not those already closing).
    int connectionCount() const;

    // Applies to new requests and to the next sweep; open connections keep their buffers.
    void setLimits(Limits limits);
    Limits limits() const { return m_limits; }

protected:
    // Creates the listening server; override to serve the same handler over QSslServer.
    // The server must hand out connected sockets through pendingConnectionAvailable(), as
    // QTcpServer and QSslServer (after the handshake) do. Called by listen(); owned by this.
    virtual QTcpServer *createTcpServer();

private:
    friend class Internal::Connection;

    QTcpServer *replaceTcpServer(); // a new one from createTcpServer(), the old one closed
    void attach(QTcpServer *server);

    void acceptPending();
    void onAcceptError(QAbstractSocket::SocketError error);
    void sweep();
    void updateSweepInterval();
    void removeConnection(Internal::Connection *connection);
    qint64 now() const { return m_clock.elapsed(); }

    RequestHandler *m_handler;
    Limits m_limits;
    QTcpServer *m_tcpServer = nullptr;
    std::vector<Internal::Connection *> m_connections; // all, including closing ones
    int m_active = 0; // counted against maxConnections
    QTimer m_sweepTimer;
    QTimer m_acceptRetryTimer; // QTcpServer pauses accepting after an error; this resumes it
    qint64 m_acceptWarnedAt = -1; // at most one warning a minute, however often accept() fails
    int m_acceptFailuresUnlogged = 0;
    bool m_acceptRecoveryUnlogged = false; // a warning went out; say once when it works again
    bool m_draining = false; // handing over: answers close their connections
    QElapsedTimer m_clock;
};

} // namespace Broker::Http
