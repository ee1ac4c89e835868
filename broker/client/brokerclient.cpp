#include "brokerclient.h"

#include "clientlogging.h"
#include "tokenfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <memory>

namespace Broker {

namespace {

constexpr int MaxBodyInMessage = 1000; // characters of an error body quoted in a message

struct Call
{
    QString path; // without the query, for messages
    QUrl url;
    bool isPost = false;
    QByteArray body;
    BrokerClient::Callback callback;
    int timeoutMs = 5000;
    bool usesMainToken = false;
    QByteArray credential; // what this attempt sent (empty = no Authorization header)
    bool retried = false;
};

// Per attempt: why the reply was aborted, if we aborted it.
struct AttemptState
{
    bool timedOut = false;
    bool tooLarge = false;
};

} // namespace

class BrokerClient::Private
{
public:
    explicit Private(BrokerClient *q, Location location)
        : q(q), location(std::move(location)), nam(new QNetworkAccessManager(q))
    {
        // Loopback only: never let a proxy from the environment see the bearer token.
        nam->setProxy(QNetworkProxy::NoProxy);
    }

    void send(const std::shared_ptr<Call> &call);
    void finished(const std::shared_ptr<Call> &call, QNetworkReply *reply, const AttemptState &state);
    std::optional<QByteArray> mainToken();
    Error unreachable(const QNetworkReply *reply, const AttemptState &state, const Call &call) const;

    BrokerClient *q;
    Location location;
    QNetworkAccessManager *nam;
    std::optional<QByteArray> token; // cached main token; nullopt = read the file on next use
    QByteArray sessionSecret;
    int defaultTimeoutMs = 5000;
    qint64 maxAnswerBytes = BrokerClient::DefaultMaxAnswerBytes;
    QSet<QNetworkReply *> pending;
    quint64 generation = 0; // bumped by abortAll(): queued callbacks of older requests are dropped
};

std::optional<QByteArray> BrokerClient::Private::mainToken()
{
    if (!token) {
        auto read = TokenFile::read(location.tokenPath);
        if (!read) {
            qCDebug(lcClientHttp) << "no token:" << read.error().message;
            return std::nullopt;
        }
        token = *read;
    }
    return token;
}

void BrokerClient::Private::send(const std::shared_ptr<Call> &call)
{
    QNetworkRequest request(call->url);
    request.setTransferTimeout(call->timeoutMs);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);

    QNetworkReply *reply = nullptr;
    if (call->isPost) {
        const bool useSecret = !sessionSecret.isEmpty() && call->path != QLatin1String("/register");
        call->usesMainToken = !useSecret;
        if (useSecret) {
            call->credential = sessionSecret;
        } else {
            call->credential = mainToken().value_or(QByteArray());
        }
        if (!call->credential.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + call->credential);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        reply = nam->post(request, call->body);
    } else {
        reply = nam->get(request);
    }
    pending.insert(reply);

    auto state = std::make_shared<AttemptState>();
    const qint64 limit = maxAnswerBytes;
    auto abortTooLarge = [reply, state] {
        if (state->tooLarge)
            return;
        state->tooLarge = true;
        reply->abort();
    };

    // transferTimeout only measures silence; this deadline bounds the whole exchange, so a
    // server that trickles bytes cannot hold the caller forever.
    auto *deadline = new QTimer(reply);
    deadline->setSingleShot(true);
    QObject::connect(deadline, &QTimer::timeout, reply, [reply, state] {
        state->timedOut = true;
        reply->abort();
    });
    deadline->start(call->timeoutMs);

    QObject::connect(reply, &QNetworkReply::metaDataChanged, reply, [reply, limit, abortTooLarge] {
        const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
        if (length.isValid() && length.toLongLong() > limit)
            abortTooLarge();
    });
    QObject::connect(reply, &QNetworkReply::downloadProgress, reply,
                     [limit, abortTooLarge](qint64 received, qint64) {
                         if (received > limit)
                             abortTooLarge();
                     });
    QObject::connect(reply, &QNetworkReply::finished, q,
                     [this, call, reply, state] { finished(call, reply, *state); });
}

Error BrokerClient::Private::unreachable(const QNetworkReply *reply, const AttemptState &state,
                                         const Call &call) const
{
    qCDebug(lcClientHttp).nospace() << call.path << ": no answer ("
                                    << (state.timedOut
                                            ? QStringLiteral("timed out after %1 ms").arg(call.timeoutMs)
                                            : reply->errorString())
                                    << ")";
    return Error {QStringLiteral("unreachable"), q->unreachableMessage()};
}

void BrokerClient::Private::finished(const std::shared_ptr<Call> &call, QNetworkReply *reply,
                                     const AttemptState &state)
{
    pending.remove(reply);
    reply->deleteLater();

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError netError = reply->error();
    // Errors below 100 are transport failures (refused, closed, timeout, aborted); above are
    // HTTP-level and carry a status we report as such.
    const bool transportFailure = netError != QNetworkReply::NoError && int(netError) < 100;

    Result<QJsonValue> result;
    if (state.tooLarge) {
        result =
            fail(QStringLiteral("too_large"),
                 QStringLiteral("Broker answer to %1 exceeds %2 bytes").arg(call->path).arg(maxAnswerBytes));
    } else if (state.timedOut || status == 0 || (transportFailure && (status < 200 || status >= 300))) {
        result = std::unexpected(unreachable(reply, state, *call));
    } else if (transportFailure) {
        // A 2xx whose body was cut off: the broker went away mid-answer.
        result = std::unexpected(unreachable(reply, state, *call));
    } else if (status == 401 && call->isPost && call->usesMainToken && !call->retried) {
        // The token may have been rotated: read the file again and retry once with it.
        token.reset();
        auto fresh = TokenFile::read(location.tokenPath);
        if (!fresh) {
            result = std::unexpected(Error {QStringLiteral("token"), fresh.error().message, 401});
        } else if (*fresh == call->credential) {
            token = *fresh;
            const QByteArray body = reply->readAll();
            result =
                std::unexpected(Error {QStringLiteral("http"),
                                       QStringLiteral("Broker error (%1): %2 %3")
                                           .arg(call->path)
                                           .arg(status)
                                           .arg(QString::fromUtf8(body.left(MaxBodyInMessage)).trimmed()),
                                       status});
        } else {
            token = *fresh;
            call->retried = true;
            qCDebug(lcClientHttp) << call->path << ": 401, token file changed, retrying once";
            send(call);
            return;
        }
    } else if (status < 200 || status >= 300) {
        const QByteArray body = reply->readAll();
        result = std::unexpected(Error {QStringLiteral("http"),
                                        QStringLiteral("Broker error (%1): %2 %3")
                                            .arg(call->path)
                                            .arg(status)
                                            .arg(QString::fromUtf8(body.left(MaxBodyInMessage)).trimmed()),
                                        status});
    } else {
        const QByteArray body = reply->readAll();
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
        if (parseError.error != QJsonParseError::NoError || (!doc.isObject() && !doc.isArray())) {
            result = fail(QStringLiteral("bad_json"),
                          QStringLiteral("Broker answer to %1 is not JSON: %2")
                              .arg(call->path,
                                   parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                                : QStringLiteral("empty")));
        } else if (doc.isArray()) {
            result = QJsonValue(doc.array());
        } else {
            result = QJsonValue(doc.object());
        }
    }
    // Delivered from the event loop, not from inside the reply's signal: the callback may then
    // delete the client (and with it the reply). Dropped if the client dies or abortAll() runs first.
    if (!call->callback)
        return;
    QMetaObject::invokeMethod(
        q,
        [this, generation = generation, callback = std::move(call->callback),
         result = std::move(result)]() mutable {
            if (generation == this->generation)
                callback(std::move(result));
        },
        Qt::QueuedConnection);
}

BrokerClient::BrokerClient(Location location, QObject *parent)
    : QObject(parent), d(new Private(this, std::move(location)))
{
}

BrokerClient::~BrokerClient()
{
    abortAll();
    delete d;
    d = nullptr;
}

const Location &BrokerClient::location() const
{
    return d->location;
}

void BrokerClient::setSessionSecret(const QByteArray &secret)
{
    d->sessionSecret = secret;
}

QByteArray BrokerClient::sessionSecret() const
{
    return d->sessionSecret;
}

void BrokerClient::setDefaultTimeoutMs(int ms)
{
    d->defaultTimeoutMs = ms > 0 ? ms : 5000;
}

int BrokerClient::defaultTimeoutMs() const
{
    return d->defaultTimeoutMs;
}

void BrokerClient::setToken(const QByteArray &token)
{
    if (token.isEmpty())
        d->token.reset();
    else
        d->token = token;
}

void BrokerClient::setMaxAnswerBytes(qint64 bytes)
{
    d->maxAnswerBytes = bytes > 0 ? bytes : DefaultMaxAnswerBytes;
}

qint64 BrokerClient::maxAnswerBytes() const
{
    return d->maxAnswerBytes;
}

QString BrokerClient::unreachableMessage() const
{
    return QStringLiteral("Broker not reachable at %1. Is it running? Start it with claude-peers-broker or "
                          "the tray app.")
        .arg(d->location.baseUrl().toString());
}

void BrokerClient::abortAll()
{
    ++d->generation;
    const auto replies = d->pending;
    d->pending.clear();
    for (QNetworkReply *reply : replies) {
        QObject::disconnect(reply, nullptr, this, nullptr);
        reply->abort();
        reply->deleteLater();
    }
}

int BrokerClient::pendingCount() const
{
    return int(d->pending.size());
}

void BrokerClient::post(const QString &path, const QJsonObject &body, Callback callback, int timeoutMs)
{
    auto call = std::make_shared<Call>();
    call->path = path;
    QUrl url = d->location.baseUrl();
    url.setPath(path);
    call->url = url;
    call->isPost = true;
    call->body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    call->callback = std::move(callback);
    call->timeoutMs = timeoutMs > 0 ? timeoutMs : d->defaultTimeoutMs;
    d->send(call);
}

void BrokerClient::get(const QString &pathAndQuery, Callback callback, int timeoutMs)
{
    auto call = std::make_shared<Call>();
    const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
    call->path = q < 0 ? pathAndQuery : pathAndQuery.left(q);
    QUrl url = d->location.baseUrl();
    url.setPath(call->path);
    if (q >= 0)
        url.setQuery(pathAndQuery.mid(q + 1));
    call->url = url;
    call->callback = std::move(callback);
    call->timeoutMs = timeoutMs > 0 ? timeoutMs : d->defaultTimeoutMs;
    d->send(call);
}

} // namespace Broker
