#include "federation/linktransport.h"

#include "federation/federationlogging.h"
#include "federation/pinnedtlsclient.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>

#include <QTimer>

namespace Federation {

QByteArray LinkCredential::headerName() const
{
    switch (kind) {
    case Kind::None:
        return {};
    case Kind::Psk:
        return QByteArrayLiteral("X-Claude-Peers-PSK");
    case Kind::Session:
        return QByteArrayLiteral("X-Federation-Session");
    }
    return {};
}

PlainHttpTransport::PlainHttpTransport(int timeoutMs)
    : m_network(std::make_unique<QNetworkAccessManager>()), m_timeoutMs(timeoutMs)
{
}

PlainHttpTransport::~PlainHttpTransport() = default;

void PlainHttpTransport::post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
                              const LinkCredential &credential, Done done)
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(to.host);
    url.setPort(to.port);
    url.setPath(QString::fromLatin1(path));
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    if (credential.kind != LinkCredential::Kind::None)
        request.setRawHeader(credential.headerName(), credential.value);
    request.setTransferTimeout(m_timeoutMs);
    QElapsedTimer sincePosted; // includes the TCP connect on a fresh connection (tests only)
    sincePosted.start();
    QNetworkReply *reply = m_network->post(request, jsonBody);
    auto answered = std::make_shared<bool>(false);
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [reply, answered, done] {
        if (reply->bytesAvailable() <= kMaxReplyBytes || *answered)
            return;
        *answered = true;
        reply->abort();
        done(LinkReply {0, {}, QStringLiteral("the answer is larger than %1 bytes").arg(kMaxReplyBytes)});
    });
    QObject::connect(reply, &QNetworkReply::finished, reply, [reply, answered, done, sincePosted] {
        reply->deleteLater();
        if (*answered)
            return;
        *answered = true;
        LinkReply answer;
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (answer.status != 0)
            answer.roundTripUs = sincePosted.nsecsElapsed() / 1000;
        const QJsonDocument document = QJsonDocument::fromJson(reply->readAll());
        answer.body = document.object();
        if (answer.status == 0)
            answer.error = reply->errorString();
        else if (!answer.ok())
            answer.error = answer.body.value(QStringLiteral("error")).toString();
        done(answer);
    });
}

TlsLinkTransport::TlsLinkTransport(PinFor pinFor, FirstUse firstUse, int timeoutMs)
    : m_client(std::make_unique<PinnedTlsClient>()),
      m_pinFor(std::move(pinFor)),
      m_firstUse(std::move(firstUse)),
      m_timeoutMs(timeoutMs)
{
}

TlsLinkTransport::~TlsLinkTransport() = default;

void TlsLinkTransport::post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
                            const LinkCredential &credential, Done done)
{
    TlsRequest request;
    request.host = to.host;
    request.port = quint16(to.port);
    request.path = path;
    request.body = jsonBody;
    request.headers = {{QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")}};
    if (credential.kind != LinkCredential::Kind::None)
        request.headers.append({credential.headerName(), credential.value});
    request.timeoutMs = m_timeoutMs;
    request.maxResponseBytes = kMaxReplyBytes;
    request.keepAlive = true; // one TLS handshake per remote, not one per relay
    request.expectedPin = m_pinFor ? m_pinFor(to) : QString();
    if (request.expectedPin.isEmpty() && credential.kind != LinkCredential::Kind::None) {
        // Trust on first use is for the challenge exchange, which reveals nothing: a secret goes
        // only where a pin says who answers.
        QTimer::singleShot(0, m_client.get(), [done, to] {
            done(LinkReply {0,
                            {},
                            QStringLiteral("Not sent: %1 has no pinned certificate, so its key was not "
                                           "checked and the federation PSK or session stays here")
                                .arg(to.key())});
        });
        return;
    }
    if (request.expectedPin.isEmpty()) {
        request.acceptPin = [this, to](const QString &seenPin, const QSslCertificate &) {
            qCInfo(lcFederation).noquote()
                << "first contact with" << to.key() << "(no pin yet), its pin" << seenPin;
            if (m_firstUse)
                m_firstUse(to, seenPin);
            return true;
        };
    }
    m_client->send(std::move(request), [done](const TlsRequestResult &result) {
        LinkReply reply;
        if (result) {
            reply.status = result->status;
            reply.body = QJsonDocument::fromJson(result->body).object();
            reply.peerPin = result->peerPin;
            reply.roundTripUs = result->roundTripUs;
        } else if (result.error().kind == TlsRequestErrorKind::HttpStatus) {
            reply.peerPin = result.error().seenPin;
            reply.status = result.error().httpStatus;
            reply.body = QJsonDocument::fromJson(result.error().body).object();
            reply.error = reply.body.value(QStringLiteral("error")).toString();
        } else {
            reply.error = result.error().message;
        }
        done(reply);
    });
}

} // namespace Federation
