#pragma once

#include "federation/certificate.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QSslCertificate>
#include <QString>

#include <expected>
#include <functional>
#include <optional>

class QSslSocket;
class QTimer;

// Outbound federation calls: HTTP/1.1 requests over TLS to https://host:port, on QSslSockets
// driven by the caller's event loop; one request per connection unless the request asks to keep
// it (keepAlive, below). The server's certificate is checked by
// its SPKI pin before a single request byte is written: in sslErrors (only SelfSigned and
// HostNameMismatch are ignored, and only when the pin matches; no CA is trusted, so a CA-issued
// certificate is refused too) and again once encrypted, whatever verification said. So headers
// such as the PSK can never reach a server whose key was not the expected one. Why not
// QNetworkAccessManager: docs/decisions.md "Pinned TLS client".
namespace Federation {

enum class TlsRequestErrorKind {
    InvalidRequest, // a header with CR/LF, an empty host: nothing was sent
    Unreachable, // name not resolved, refused, reset, closed during the handshake
    Tls, // the handshake failed or a certificate error other than self-signed/host name
    PinMismatch, // the server's key is not the expected one (or the caller refused it)
    Timeout, // no complete answer within timeoutMs
    TooLarge, // the answer exceeds maxResponseBytes
    BadResponse, // not a well-formed HTTP answer
    HttpStatus, // a complete answer whose status is not 2xx: see httpStatus and body
};

// The stable snake_case name of a kind ("pin_mismatch"), for logs and JSON output.
QString tlsRequestErrorKindName(TlsRequestErrorKind kind);

struct TlsRequestError
{
    TlsRequestErrorKind kind = TlsRequestErrorKind::Unreachable;
    QString message; // plain words, names host:port and, for PinMismatch, both pins
    QString seenPin; // the server's pin when the handshake got that far
    int httpStatus = 0; // HttpStatus
    QByteArray body; // HttpStatus: the answer's body (the reference's {"error": ...})
};

struct TlsResponse
{
    int status = 0; // 0 for probe()
    QList<QPair<QByteArray, QByteArray>> headers; // lower-case names
    QByteArray body;
    QString peerPin;
    QSslCertificate peerCertificate;
    // From the request's last byte handed to the socket to the answer's last byte read: the
    // link's round trip plus the server's work, without the TLS handshake (-1 for probe()).
    qint64 roundTripUs = -1;

    QByteArray header(QByteArrayView lowerCaseName) const;
};

using TlsRequestResult = std::expected<TlsResponse, TlsRequestError>;

struct TlsRequest
{
    QString host; // name or address (IPv6 without brackets)
    quint16 port = 0;
    QByteArray method = "POST";
    QByteArray path = "/";
    QList<QPair<QByteArray, QByteArray>> headers; // sent only after the pin check
    QByteArray body; // sent with Content-Type application/json unless headers say otherwise
    // The pin the server's key must have. Empty: trust on first use — then acceptPin decides
    // (it must be set): it runs after the handshake, before anything is written; returning false
    // refuses (PinMismatch). Use that to show or record an unknown server's pin; send nothing
    // secret to a server accepted that way until the user confirmed its pin.
    QString expectedPin;
    std::function<bool(const QString &seenPin, const QSslCertificate &certificate)> acceptPin;
    int timeoutMs = 5000; // connect + handshake + answer (docs/spec/peers-api.md §6.4: 5 s for relays)
    qint64 maxResponseBytes = 1024 * 1024;
    // Keep the connection open after a complete answer and send the next keepAlive request to
    // the same host, port and expected pin on it: the pin is checked once per connection, in its
    // handshake. Only requests with an expectedPin reuse a connection (trust on first use decides
    // on a fresh one). A kept connection the server closed before answering is replaced by a
    // fresh one once, within the same timeout.
    bool keepAlive = false;
};

class PinnedTlsClient : public QObject
{
    Q_OBJECT
public:
    using RequestId = quint64;
    using Callback = std::function<void(const TlsRequestResult &result)>;

    explicit PinnedTlsClient(QObject *parent = nullptr);
    ~PinnedTlsClient() override; // aborts what is in flight; their callbacks do not run

    // Presents this certificate to servers that ask for one (not needed by 0.7 peers).
    void setClientIdentity(const TlsIdentity &identity);

    // Starts a request. `done` runs exactly once, from the event loop (never inside send()),
    // unless cancel(id) or the client's destruction comes first.
    RequestId send(TlsRequest request, Callback done);

    // Trust on first use, nothing written: connects, completes the handshake, reports the
    // server's pin and certificate (TlsResponse::status 0) and closes. Any certificate is
    // accepted here; certificate errors other than self-signed/host name still fail (Tls).
    RequestId probe(const QString &host, quint16 port, Callback done, int timeoutMs = 5000);

    void cancel(RequestId id);
    int pendingCount() const { return int(m_pending.size()); }
    // Kept connections waiting for the next request (for tests and status).
    int idleConnectionCount() const { return int(m_idle.size()); }

    // A kept connection nobody used for this long is closed: longer than the 30 s peer sync, so a
    // linked broker's connection stays open, shorter than our server's 60 s idle close (Node's —
    // 0.7's — is 5 s; a close seen while idle drops the connection at once).
    static constexpr int kKeepAliveIdleMs = 45000;
    static constexpr int kMaxIdlePerServer = 4;

private:
    friend class PinnedTlsRequestJob;
    struct IdleConnection
    {
        QString host;
        quint16 port = 0;
        QString pin;
        QSslSocket *socket = nullptr;
        QTimer *expiry = nullptr;
    };

    void complete(RequestId id, TlsRequestResult result);
    // Keeps an encrypted connection whose last answer left it clean; closes it when there are
    // enough already.
    void park(const QString &host, quint16 port, const QString &pin, QSslSocket *socket);
    // A kept connection to the request's server with its expected pin, or null.
    std::optional<IdleConnection> takeIdle(const TlsRequest &request);
    void dropIdle(QSslSocket *socket);
    void closeIdle();

    QList<IdleConnection> m_idle;
    QHash<RequestId, Callback> m_pending;
    QHash<RequestId, QObject *> m_jobs;
    RequestId m_nextId = 1;
    TlsIdentity m_clientIdentity;
};

} // namespace Federation
