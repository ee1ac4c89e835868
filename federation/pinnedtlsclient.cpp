#include "federation/pinnedtlsclient.h"
#include "federation/certificatepin.h"
#include "federation/federationlogging.h"
#include "federation/internal/httpresponsereader.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTimer>

#include <algorithm>
#include <optional>

namespace Federation {

QString tlsRequestErrorKindName(TlsRequestErrorKind kind)
{
    switch (kind) {
    case TlsRequestErrorKind::InvalidRequest:
        return QStringLiteral("invalid_request");
    case TlsRequestErrorKind::Unreachable:
        return QStringLiteral("unreachable");
    case TlsRequestErrorKind::Tls:
        return QStringLiteral("tls");
    case TlsRequestErrorKind::PinMismatch:
        return QStringLiteral("pin_mismatch");
    case TlsRequestErrorKind::Timeout:
        return QStringLiteral("timeout");
    case TlsRequestErrorKind::TooLarge:
        return QStringLiteral("too_large");
    case TlsRequestErrorKind::BadResponse:
        return QStringLiteral("bad_response");
    case TlsRequestErrorKind::HttpStatus:
        return QStringLiteral("http_status");
    }
    return QStringLiteral("unknown");
}

QByteArray TlsResponse::header(QByteArrayView lowerCaseName) const
{
    for (const auto &[name, value] : headers) {
        if (name == lowerCaseName)
            return value;
    }
    return {};
}

namespace {

bool isToken(QByteArrayView text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
    });
}

bool isFieldText(QByteArrayView text)
{
    return std::none_of(text.begin(), text.end(), [](char c) { return c == '\r' || c == '\n' || c == '\0'; });
}

std::optional<QString> invalidRequest(const TlsRequest &request, bool probe)
{
    if (request.host.isEmpty() || request.port == 0)
        return QStringLiteral("no host or port to connect to");
    if (probe)
        return std::nullopt;
    if (request.expectedPin.isEmpty() && !request.acceptPin)
        return QStringLiteral("neither an expected pin nor a pin decision (acceptPin): refusing to send "
                              "a request to a server whose key nobody checks");
    if (!isToken(request.method))
        return QStringLiteral("a bad method");
    if (!request.path.startsWith('/') || !isFieldText(request.path) || request.path.contains(' '))
        return QStringLiteral("a bad path");
    for (const auto &[name, value] : request.headers) {
        if (!isToken(name) || !isFieldText(value))
            return QStringLiteral("a bad header (%1)").arg(QString::fromLatin1(name.left(40)));
    }
    return std::nullopt;
}

QString describe(const QList<QSslError> &errors)
{
    QStringList texts;
    for (const QSslError &error : errors)
        texts << error.errorString();
    return texts.join(QStringLiteral("; "));
}

// The reference answers errors as {"error":"..."}: show that text when it is there.
QString answerText(const QByteArray &body)
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    const QString error = document.object().value(QStringLiteral("error")).toString();
    if (!error.isEmpty())
        return error;
    return QString::fromUtf8(body.left(200)).simplified();
}

} // namespace

// One request on its own connection. Lives as a child of the client; reports through
// PinnedTlsClient::complete() once and deletes itself.
class PinnedTlsRequestJob : public QObject
{
public:
    // reused: a kept connection whose handshake checked `reused->pin` (PinnedTlsClient::takeIdle).
    PinnedTlsRequestJob(PinnedTlsClient *client, PinnedTlsClient::RequestId id, TlsRequest request,
                        bool probe, const TlsIdentity &clientIdentity,
                        std::optional<PinnedTlsClient::IdleConnection> reused = std::nullopt)
        : QObject(client),
          m_client(client),
          m_id(id),
          m_request(std::move(request)),
          m_probe(probe),
          m_clientIdentity(clientIdentity),
          m_reader(m_request.maxResponseBytes)
    {
        if (reused) {
            m_socket = reused->socket;
            m_socket->setParent(this);
            m_seenPin = reused->pin;
            m_reused = true;
            m_tcpConnected = true;
            m_encrypted = true;
            attach();
        } else {
            m_socket = newSocket();
        }
        m_deadline.setSingleShot(true);
        connect(&m_deadline, &QTimer::timeout, this, &PinnedTlsRequestJob::onTimeout);
    }

    void start()
    {
        m_deadline.start(m_request.timeoutMs);
        if (m_reused) {
            qCDebug(lcFederationTls) << "reusing the connection to" << where();
            writeRequest();
            return;
        }
        m_socket->connectToHostEncrypted(m_request.host, m_request.port);
    }

    // Cancelled or the client goes away: no report.
    void stop()
    {
        m_done = true;
        m_deadline.stop();
        if (m_socket) {
            m_socket->disconnect(this);
            m_socket->abort();
        }
        deleteLater();
    }

private:
    QSslSocket *newSocket()
    {
        auto *socket = new QSslSocket(this);
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.setProtocol(QSsl::TlsV1_2OrLater);
        // Verify, so that every deviation surfaces in sslErrors; the pin then decides. No CA is
        // trusted: the pin is the only anchor (and loading the system's CAs into every new
        // connection cost ~1.5 ms of CPU per request).
        configuration.setPeerVerifyMode(QSslSocket::VerifyPeer);
        configuration.setCaCertificates({});
        if (!m_clientIdentity.isNull()) {
            configuration.setLocalCertificateChain(QList<QSslCertificate> {m_clientIdentity.certificate} +
                                                   m_clientIdentity.chain);
            configuration.setPrivateKey(m_clientIdentity.privateKey);
        }
        socket->setSslConfiguration(configuration);
        socket->setReadBufferSize(64 * 1024);
        m_socket = socket;
        connect(socket, &QSslSocket::connected, this, [this] {
            m_tcpConnected = true;
            // Small writes go out at once: with Nagle the request written after the handshake's
            // last flight waited for the server's delayed ACK (~40 ms per relay).
            m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        });
        connect(socket, &QSslSocket::sslErrors, this, &PinnedTlsRequestJob::onSslErrors);
        connect(socket, &QSslSocket::encrypted, this, &PinnedTlsRequestJob::onEncrypted);
        attach();
        return socket;
    }

    void attach()
    {
        connect(m_socket, &QSslSocket::readyRead, this, &PinnedTlsRequestJob::onReadyRead);
        connect(m_socket, &QSslSocket::errorOccurred, this, &PinnedTlsRequestJob::onError);
        connect(m_socket, &QSslSocket::disconnected, this, &PinnedTlsRequestJob::onDisconnected);
    }

    // The kept connection was closed by the server (its idle timeout raced our request) before a
    // byte of the answer came: the request is sent again on a fresh connection, pin checked anew.
    bool retryFresh()
    {
        if (!m_reused || m_answerStarted || m_done)
            return false;
        qCDebug(lcFederationTls) << "the kept connection to" << where() << "closed; connecting again";
        QSslSocket *old = std::exchange(m_socket, nullptr);
        old->disconnect(this);
        old->abort();
        old->deleteLater();
        m_reused = false;
        m_tcpConnected = false;
        m_encrypted = false;
        m_seenPin.clear();
        m_refusal.reset();
        m_reader = Internal::HttpResponseReader(m_request.maxResponseBytes);
        newSocket()->connectToHostEncrypted(m_request.host, m_request.port);
        return true;
    }

    QString where() const
    {
        return m_request.host.contains(u':')
            ? QStringLiteral("[%1]:%2").arg(m_request.host).arg(m_request.port)
            : QStringLiteral("%1:%2").arg(m_request.host).arg(m_request.port);
    }

    TlsRequestError error(TlsRequestErrorKind kind, QString message) const
    {
        TlsRequestError e;
        e.kind = kind;
        e.message = std::move(message);
        e.seenPin = m_seenPin;
        return e;
    }

    TlsRequestError pinMismatch() const
    {
        return error(TlsRequestErrorKind::PinMismatch,
                     QStringLiteral("%1 presented a different key than the one paired with it: expected %2, "
                                    "saw %3. Nothing was sent. If that host was reinstalled or its "
                                    "certificate replaced, pair with it again; otherwise someone else "
                                    "answers at that address.")
                         .arg(where(), m_request.expectedPin, m_seenPin));
    }

    void onSslErrors(const QList<QSslError> &errors)
    {
        const QSslCertificate leaf = m_socket->peerCertificate();
        m_seenPin = spkiPin(leaf);
        if (!m_request.expectedPin.isEmpty() && !pinsEqual(m_seenPin, m_request.expectedPin)) {
            m_refusal = pinMismatch();
            return; // not ignored: the handshake fails, nothing is written
        }
        const bool onlyIdentityErrors = std::all_of(errors.begin(), errors.end(), [](const QSslError &e) {
            return e.error() == QSslError::SelfSignedCertificate || e.error() == QSslError::HostNameMismatch;
        });
        if (!onlyIdentityErrors) {
            m_refusal =
                error(TlsRequestErrorKind::Tls,
                      QStringLiteral("The certificate of %1 (pin %2) is not acceptable: %3. A certificate "
                                     "that expired must be renewed on that host (same key, same pin); "
                                     "federation certificates must be self-signed.")
                          .arg(where(), m_seenPin, describe(errors)));
            return;
        }
        // Self-signed and not issued for the name we dialled: expected for a pinned peer.
        m_socket->ignoreSslErrors(errors);
    }

    void onEncrypted()
    {
        m_encrypted = true;
        const QSslCertificate leaf = m_socket->peerCertificate();
        m_seenPin = spkiPin(leaf);
        qCDebug(lcFederationTls) << "TLS with" << where() << m_socket->sessionProtocol() << "pin"
                                 << m_seenPin;
        // Again here: a certificate that some trusted CA vouches for raised no sslErrors.
        if (!m_request.expectedPin.isEmpty()) {
            if (!pinsEqual(m_seenPin, m_request.expectedPin)) {
                fail(pinMismatch());
                return;
            }
        } else if (!m_probe && !m_request.acceptPin(m_seenPin, leaf)) {
            fail(error(TlsRequestErrorKind::PinMismatch,
                       QStringLiteral("The key of %1 (pin %2) was not accepted. Nothing was sent.")
                           .arg(where(), m_seenPin)));
            return;
        }
        if (m_probe) {
            TlsResponse response;
            response.peerPin = m_seenPin;
            response.peerCertificate = leaf;
            finish(response);
            return;
        }
        writeRequest();
    }

    void writeRequest()
    {
        QByteArray out;
        out.reserve(256 + m_request.body.size());
        out += m_request.method + ' ' + m_request.path + " HTTP/1.1\r\nHost: " + where().toUtf8() + "\r\n";
        bool hasContentType = false;
        for (const auto &[name, value] : m_request.headers) {
            hasContentType = hasContentType || name.compare("content-type", Qt::CaseInsensitive) == 0;
            out += name + ": " + value + "\r\n";
        }
        if (!hasContentType && !m_request.body.isEmpty())
            out += "Content-Type: application/json\r\n";
        out += "Content-Length: " + QByteArray::number(m_request.body.size()) + "\r\n";
        out += m_request.keepAlive ? QByteArrayView("\r\n") : QByteArrayView("Connection: close\r\n\r\n");
        out += m_request.body;
        m_socket->write(out);
        m_sinceWritten.start();
    }

    void onReadyRead()
    {
        if (!m_encrypted || m_done)
            return;
        const QByteArray bytes = m_socket->readAll();
        m_answerStarted = m_answerStarted || !bytes.isEmpty();
        react(m_reader.feed(bytes));
    }

    void react(Internal::HttpResponseReader::State state)
    {
        using State = Internal::HttpResponseReader::State;
        switch (state) {
        case State::NeedMore:
            return;
        case State::TooLarge:
            fail(error(TlsRequestErrorKind::TooLarge,
                       QStringLiteral("The answer of %1 was refused: %2.").arg(where(), m_reader.error())));
            return;
        case State::Malformed:
            fail(error(TlsRequestErrorKind::BadResponse,
                       QStringLiteral("%1 did not answer in HTTP: %2.").arg(where(), m_reader.error())));
            return;
        case State::Complete:
            break;
        }
        TlsResponse response;
        response.status = m_reader.status();
        response.headers = m_reader.headers();
        response.body = m_reader.body();
        response.peerPin = m_seenPin;
        response.peerCertificate = m_socket->peerCertificate();
        response.roundTripUs = m_sinceWritten.isValid() ? m_sinceWritten.nsecsElapsed() / 1000 : -1;
        keepConnection();
        if (response.status >= 200 && response.status < 300) {
            finish(response);
            return;
        }
        TlsRequestError e = error(TlsRequestErrorKind::HttpStatus,
                                  QStringLiteral("%1 answered %2 %3: %4")
                                      .arg(where(), QString::number(response.status),
                                           QString::fromLatin1(m_request.path), answerText(response.body)));
        e.httpStatus = response.status;
        e.body = response.body;
        fail(std::move(e));
    }

    // A clean answer on a connection the request asked to keep: the client parks it.
    void keepConnection()
    {
        if (!m_request.keepAlive || m_probe || !m_reader.connectionReusable() ||
            m_socket->state() != QAbstractSocket::ConnectedState || m_socket->bytesAvailable() > 0)
            return;
        QSslSocket *socket = std::exchange(m_socket, nullptr);
        socket->disconnect(this);
        m_client->park(m_request.host, m_request.port, m_seenPin, socket);
    }

    void onError(QAbstractSocket::SocketError socketError)
    {
        if (m_done || retryFresh())
            return;
        if (m_refusal) {
            fail(*m_refusal);
            return;
        }
        if (m_encrypted) {
            if (socketError == QAbstractSocket::RemoteHostClosedError) {
                onDisconnected();
                return;
            }
            fail(error(
                TlsRequestErrorKind::Unreachable,
                QStringLiteral("The connection to %1 broke: %2").arg(where(), m_socket->errorString())));
            return;
        }
        switch (socketError) {
        case QAbstractSocket::HostNotFoundError:
            fail(error(TlsRequestErrorKind::Unreachable,
                       QStringLiteral("Cannot resolve %1: %2").arg(m_request.host, m_socket->errorString())));
            return;
        case QAbstractSocket::ConnectionRefusedError:
            fail(error(TlsRequestErrorKind::Unreachable,
                       QStringLiteral("%1 refused the connection: is its broker running with federation "
                                      "enabled on that port?")
                           .arg(where())));
            return;
        case QAbstractSocket::SslHandshakeFailedError:
        case QAbstractSocket::SslInternalError:
        case QAbstractSocket::SslInvalidUserDataError:
            fail(error(TlsRequestErrorKind::Tls,
                       QStringLiteral("The TLS handshake with %1 failed: %2")
                           .arg(where(), m_socket->errorString())));
            return;
        case QAbstractSocket::RemoteHostClosedError:
            if (m_tcpConnected) {
                fail(error(TlsRequestErrorKind::Tls,
                           QStringLiteral("%1 closed the connection during the TLS handshake: is it a "
                                          "claude-peers federation port?")
                               .arg(where())));
                return;
            }
            break;
        default:
            break;
        }
        fail(error(TlsRequestErrorKind::Unreachable,
                   QStringLiteral("Cannot reach %1: %2").arg(where(), m_socket->errorString())));
    }

    void onDisconnected()
    {
        if (m_done || retryFresh())
            return;
        if (!m_encrypted) {
            onError(QAbstractSocket::RemoteHostClosedError);
            return;
        }
        if (m_socket->bytesAvailable() > 0) {
            react(m_reader.feed(m_socket->readAll()));
            if (m_done)
                return;
        }
        react(m_reader.finish());
    }

    void onTimeout()
    {
        const QString stage = !m_tcpConnected ? QStringLiteral("connecting")
            : !m_encrypted                    ? QStringLiteral("in the TLS handshake")
                                              : QStringLiteral("waiting for the answer");
        fail(error(TlsRequestErrorKind::Timeout,
                   QStringLiteral("No answer from %1 within %2 ms (%3).")
                       .arg(where())
                       .arg(m_request.timeoutMs)
                       .arg(stage)));
    }

    void fail(TlsRequestError e) { finish(std::unexpected(std::move(e))); }

    void finish(TlsRequestResult result)
    {
        if (m_done)
            return;
        stop();
        if (!result)
            qCDebug(lcFederationTls).noquote()
                << tlsRequestErrorKindName(result.error().kind) << result.error().message;
        m_client->complete(m_id, std::move(result));
    }

    PinnedTlsClient *m_client;
    PinnedTlsClient::RequestId m_id;
    TlsRequest m_request;
    bool m_probe;
    TlsIdentity m_clientIdentity;
    QSslSocket *m_socket = nullptr;
    QTimer m_deadline;
    Internal::HttpResponseReader m_reader;
    QString m_seenPin;
    std::optional<TlsRequestError> m_refusal; // decided in sslErrors, reported when the handshake fails
    bool m_tcpConnected = false;
    bool m_encrypted = false;
    QElapsedTimer m_sinceWritten; // started when the request is written (again on a retry)
    bool m_reused = false; // on a kept connection (no handshake of its own)
    bool m_answerStarted = false;
    bool m_done = false;
};

PinnedTlsClient::PinnedTlsClient(QObject *parent) : QObject(parent) { }

PinnedTlsClient::~PinnedTlsClient()
{
    m_pending.clear();
    for (QObject *job : std::as_const(m_jobs))
        static_cast<PinnedTlsRequestJob *>(job)->stop();
    closeIdle();
}

void PinnedTlsClient::setClientIdentity(const TlsIdentity &identity)
{
    m_clientIdentity = identity;
    closeIdle(); // their handshakes presented the old identity
}

void PinnedTlsClient::park(const QString &host, quint16 port, const QString &pin, QSslSocket *socket)
{
    socket->setParent(this);
    const auto sameServer = [&](const IdleConnection &c) { return c.host == host && c.port == port; };
    if (std::count_if(m_idle.cbegin(), m_idle.cend(), sameServer) >= kMaxIdlePerServer) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    auto *expiry = new QTimer(socket);
    expiry->setSingleShot(true);
    connect(expiry, &QTimer::timeout, this, [this, socket] { dropIdle(socket); });
    expiry->start(kKeepAliveIdleMs);
    // Nothing may arrive on an idle connection: a close, an error or stray bytes end it.
    connect(socket, &QSslSocket::disconnected, this, [this, socket] { dropIdle(socket); });
    connect(socket, &QSslSocket::errorOccurred, this, [this, socket] { dropIdle(socket); });
    connect(socket, &QSslSocket::readyRead, this, [this, socket] { dropIdle(socket); });
    m_idle.append({host, port, pin, socket, expiry});
}

std::optional<PinnedTlsClient::IdleConnection> PinnedTlsClient::takeIdle(const TlsRequest &request)
{
    if (!request.keepAlive || request.expectedPin.isEmpty())
        return std::nullopt;
    for (qsizetype i = m_idle.size() - 1; i >= 0; --i) {
        const IdleConnection &c = m_idle.at(i);
        if (c.host != request.host || c.port != request.port || !pinsEqual(c.pin, request.expectedPin) ||
            c.socket->state() != QAbstractSocket::ConnectedState || c.socket->bytesAvailable() > 0)
            continue;
        IdleConnection taken = m_idle.takeAt(i);
        taken.socket->disconnect(this);
        delete taken.expiry;
        taken.expiry = nullptr;
        return taken;
    }
    return std::nullopt;
}

void PinnedTlsClient::dropIdle(QSslSocket *socket)
{
    for (qsizetype i = 0; i < m_idle.size(); ++i) {
        if (m_idle.at(i).socket != socket)
            continue;
        m_idle.removeAt(i);
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
        return;
    }
}

void PinnedTlsClient::closeIdle()
{
    for (const IdleConnection &c : std::exchange(m_idle, {})) {
        c.socket->disconnect(this);
        delete c.socket;
    }
}

PinnedTlsClient::RequestId PinnedTlsClient::send(TlsRequest request, Callback done)
{
    const RequestId id = m_nextId++;
    m_pending.insert(id, std::move(done));
    if (const auto problem = invalidRequest(request, false)) {
        TlsRequestError e;
        e.kind = TlsRequestErrorKind::InvalidRequest;
        e.message =
            QStringLiteral("Not sent to %1:%2: %3.").arg(request.host).arg(request.port).arg(*problem);
        complete(id, std::unexpected(e));
        return id;
    }
    std::optional<IdleConnection> kept = takeIdle(request);
    auto *job =
        new PinnedTlsRequestJob(this, id, std::move(request), false, m_clientIdentity, std::move(kept));
    m_jobs.insert(id, job);
    job->start();
    return id;
}

PinnedTlsClient::RequestId PinnedTlsClient::probe(const QString &host, quint16 port, Callback done,
                                                  int timeoutMs)
{
    TlsRequest request;
    request.host = host;
    request.port = port;
    request.timeoutMs = timeoutMs;
    const RequestId id = m_nextId++;
    m_pending.insert(id, std::move(done));
    if (const auto problem = invalidRequest(request, true)) {
        TlsRequestError e;
        e.kind = TlsRequestErrorKind::InvalidRequest;
        e.message = QStringLiteral("Cannot probe %1:%2: %3.").arg(host).arg(port).arg(*problem);
        complete(id, std::unexpected(e));
        return id;
    }
    auto *job = new PinnedTlsRequestJob(this, id, std::move(request), true, m_clientIdentity);
    m_jobs.insert(id, job);
    job->start();
    return id;
}

void PinnedTlsClient::cancel(RequestId id)
{
    m_pending.remove(id);
    if (QObject *job = m_jobs.take(id))
        static_cast<PinnedTlsRequestJob *>(job)->stop();
}

void PinnedTlsClient::complete(RequestId id, TlsRequestResult result)
{
    m_jobs.remove(id);
    // From the event loop: the callback may delete this client or start new requests.
    QMetaObject::invokeMethod(
        this,
        [this, id, result = std::move(result)] {
            if (Callback done = m_pending.take(id))
                done(result);
        },
        Qt::QueuedConnection);
}

} // namespace Federation
