#include "federation/tlsserver.h"
#include "federation/federationlogging.h"

#include <QElapsedTimer>
#include <QSslServer>
#include <QSslSocket>

#include <unistd.h>

namespace Federation {

namespace {

// QSslServer with a cap on accepted connections that are still in the handshake: QSslServer
// holds those itself, before HttpServer counts them, so without this a flood of silent clients
// would each hold a descriptor for the handshake timeout.
class CappedSslServer : public QSslServer
{
public:
    CappedSslServer(TlsHttpServer *owner) : QSslServer(owner), m_owner(owner) { m_clock.start(); }

    int handshaking() const
    {
        // Sockets QSslServer created (its children) and HttpServer has not taken yet.
        int count = 0;
        for (QObject *child : children()) {
            if (qobject_cast<QSslSocket *>(child))
                ++count;
        }
        return count;
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        const TlsServerOptions options = m_owner->options();
        const int handshakes = handshaking();
        if (handshakes >= options.maxHandshakes ||
            m_owner->connectionCount() + handshakes >= options.limits.maxConnections) {
            ::close(int(descriptor));
            ++m_refusedUnlogged;
            constexpr qint64 warnEveryMs = 60000;
            if (m_warnedAt < 0 || m_clock.elapsed() - m_warnedAt >= warnEveryMs) {
                qCWarning(lcFederationTls).noquote()
                    << QStringLiteral("Closed %1 federation connection(s) at accept: %2 in the TLS "
                                      "handshake, %3 open (limits %4 and %5)")
                           .arg(m_refusedUnlogged)
                           .arg(handshakes)
                           .arg(m_owner->connectionCount())
                           .arg(options.maxHandshakes)
                           .arg(options.limits.maxConnections);
                m_warnedAt = m_clock.elapsed();
                m_refusedUnlogged = 0;
            }
            return;
        }
        QSslServer::incomingConnection(descriptor);
    }

private:
    TlsHttpServer *m_owner;
    QElapsedTimer m_clock;
    qint64 m_warnedAt = -1;
    int m_refusedUnlogged = 0;
};

} // namespace

TlsHttpServer::TlsHttpServer(Broker::Http::RequestHandler *handler, TlsIdentity identity,
                             TlsServerOptions options, QObject *parent)
    : HttpServer(handler, options.limits, parent), m_identity(std::move(identity)), m_options(options)
{
}

TlsHttpServer::~TlsHttpServer() = default;

QSslConfiguration TlsHttpServer::sslConfiguration() const
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    QList<QSslCertificate> chain {m_identity.certificate};
    chain += m_identity.chain;
    configuration.setLocalCertificateChain(chain);
    configuration.setPrivateKey(m_identity.privateKey);
    // Peers prove themselves with the PSK (and, between our brokers, the challenge exchange),
    // not with client certificates: asking for one would only slow the handshake.
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    configuration.setCaCertificates({});
    return configuration;
}

void TlsHttpServer::setIdentity(const TlsIdentity &identity)
{
    m_identity = identity;
    if (m_sslServer)
        m_sslServer->setSslConfiguration(sslConfiguration());
    qCInfo(lcFederationTls).noquote() << "federation certificate" << identity.pin << "expires"
                                      << identity.expiresAt().toString(Qt::ISODate);
}

int TlsHttpServer::handshakesInProgress() const
{
    return m_sslServer ? static_cast<const CappedSslServer *>(m_sslServer.data())->handshaking() : 0;
}

QTcpServer *TlsHttpServer::createTcpServer()
{
    auto *server = new CappedSslServer(this);
    server->setSslConfiguration(sslConfiguration());
    server->setHandshakeTimeout(m_options.handshakeTimeoutMs);
    connect(server, &QSslServer::errorOccurred, this,
            [this](QSslSocket *socket, QAbstractSocket::SocketError error) {
                // Only before encryption: afterwards HttpServer owns the socket.
                if (socket->isEncrypted())
                    return;
                const QString reason = error == QAbstractSocket::SocketTimeoutError
                    ? QStringLiteral("TLS handshake timed out")
                    : socket->errorString();
                qCDebug(lcFederationTls) << "handshake with" << socket->peerAddress() << "failed:" << reason;
                Q_EMIT handshakeFailed(socket->peerAddress(), reason);
            });
    // The handshake's flights and the answers go out at once (HttpServer sets it again on the
    // encrypted socket): with Nagle a write behind an unacknowledged one waits for the client's
    // delayed ACK, ~40 ms.
    connect(server, &QSslServer::startedEncryptionHandshake, this,
            [](QSslSocket *socket) { socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); });
    m_sslServer = server;
    // Which TLS backend serves decides which errors peers see; the pin logic does not depend on it.
    qCInfo(lcFederationTls).noquote() << "federation TLS through" << QSslSocket::activeBackend() << "with a"
                                      << m_identity.keyDescription << "certificate, pin" << m_identity.pin;
    return server;
}

} // namespace Federation
