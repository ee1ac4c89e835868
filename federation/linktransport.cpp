#include "linktransport.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>

namespace Federation {

PlainHttpTransport::PlainHttpTransport(int timeoutMs)
    : m_network(std::make_unique<QNetworkAccessManager>()), m_timeoutMs(timeoutMs)
{
}

PlainHttpTransport::~PlainHttpTransport() = default;

void PlainHttpTransport::post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
                              const QByteArray &psk, Done done)
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(to.host);
    url.setPort(to.port);
    url.setPath(QString::fromLatin1(path));
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("X-Claude-Peers-PSK", psk);
    request.setTransferTimeout(m_timeoutMs);
    QNetworkReply *reply = m_network->post(request, jsonBody);
    auto answered = std::make_shared<bool>(false);
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [reply, answered, done] {
        if (reply->bytesAvailable() <= kMaxReplyBytes || *answered)
            return;
        *answered = true;
        reply->abort();
        done(LinkReply {0, {}, QStringLiteral("the answer is larger than %1 bytes").arg(kMaxReplyBytes)});
    });
    QObject::connect(reply, &QNetworkReply::finished, reply, [reply, answered, done] {
        reply->deleteLater();
        if (*answered)
            return;
        *answered = true;
        LinkReply answer;
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QJsonDocument document = QJsonDocument::fromJson(reply->readAll());
        answer.body = document.object();
        if (answer.status == 0)
            answer.error = reply->errorString();
        else if (!answer.ok())
            answer.error = answer.body.value(QStringLiteral("error")).toString();
        done(answer);
    });
}

} // namespace Federation
