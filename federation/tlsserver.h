#pragma once

#include "broker/http/httpserver.h"
#include "federation/certificate.h"

#include <QPointer>
#include <QSslConfiguration>

class QSslServer;

// The federation port: the broker's own HTTP/1.1 server (same parser, limits, keep-alive and
// responder contract as the local API) over TLS on a QSslServer. The handler sees each
// request's peer address (Request::peerAddress, `::ffff:a.b.c.d` on a dual-stack listener), so
// the subnet filter can run before anything else.
namespace Federation {

struct TlsServerOptions
{
    Broker::Http::ServerLimits limits; // header/body/idle limits and the connection cap
    // A connection that has not completed the TLS handshake within this is closed (QSslServer's
    // own timer: it also covers a client that connects and sends nothing).
    int handshakeTimeoutMs = 5000;
    // Connections in the handshake at once; more are closed as soon as they are accepted (and
    // so are new ones while handshakes + open connections reach limits.maxConnections).
    int maxHandshakes = 64;
};

class TlsHttpServer : public Broker::Http::HttpServer
{
    Q_OBJECT
public:
    // The handler is not owned and must outlive the server. listen() (inherited) binds;
    // QHostAddress::Any listens on all interfaces, both IPv4 and IPv6.
    TlsHttpServer(Broker::Http::RequestHandler *handler, TlsIdentity identity, TlsServerOptions options = {},
                  QObject *parent = nullptr);
    ~TlsHttpServer() override;

    // A renewed or replaced certificate: used for the next handshakes; open connections keep
    // theirs.
    void setIdentity(const TlsIdentity &identity);
    const TlsIdentity &identity() const { return m_identity; }

    TlsServerOptions options() const { return m_options; }
    // Accepted connections still in the TLS handshake.
    int handshakesInProgress() const;

    // The TLS settings the server presents (for tests and `federation doctor`).
    QSslConfiguration sslConfiguration() const;

Q_SIGNALS:
    // A client that did not complete the handshake (timeout, not TLS, protocol error).
    void handshakeFailed(const QHostAddress &peer, const QString &reason);

protected:
    QTcpServer *createTcpServer() override;

private:
    TlsIdentity m_identity;
    TlsServerOptions m_options;
    QPointer<QSslServer> m_sslServer;
};

} // namespace Federation
