#include "openchamber/opencodeclient.h"

#include "broker/secretstore.h"
#include "openchamber/openchamberlogging.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QPointer>
#include <QProcessEnvironment>
#include <QTimer>

#include <memory>

namespace OpenChamber {

namespace {

constexpr qsizetype MaxBodyInMessage = 500;

bool usableUrl(const QUrl &url)
{
    return url.isValid() &&
        (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")) &&
        !url.host().isEmpty();
}

QUrl parseUrl(const QString &text)
{
    QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!usableUrl(url))
        return {};
    // A trailing slash would double up with the absolute paths the client appends.
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path);
    return url;
}

QString bodyExcerpt(const QByteArray &body)
{
    QString text = QString::fromUtf8(body.left(MaxBodyInMessage)).trimmed();
    if (body.size() > MaxBodyInMessage)
        text += QStringLiteral("…");
    return text;
}

} // namespace

OpenCodeClient::OpenCodeClient(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    if (m_options.timeoutMs <= 0)
        m_options.timeoutMs = DefaultTimeoutMs;
    if (m_options.maxAnswerBytes <= 0)
        m_options.maxAnswerBytes = DefaultMaxAnswerBytes;
    // OpenCode never redirects; following one would send the password elsewhere.
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

OpenCodeClient::~OpenCodeClient() = default;

QUrl OpenCodeClient::configuredUrl(const QJsonObject &configRoot, const QProcessEnvironment &environment)
{
    const QUrl fromEnv = parseUrl(environment.value(UrlEnvironmentVariable));
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QJsonValue configured =
        configRoot.value(QStringLiteral("openchamber")).toObject().value(QStringLiteral("opencode_url"));
    if (configured.isString()) {
        const QUrl url = parseUrl(configured.toString());
        if (!url.isEmpty())
            return url;
        qCWarning(lcOpenCode).noquote()
            << "openchamber.opencode_url is not an http(s) URL; using" << DefaultUrl;
    }
    return parseUrl(DefaultUrl);
}

void OpenCodeClient::loadPassword(Broker::SecretStore &store, std::function<void(bool found)> done)
{
    store.read(Broker::SecretStore::openCodePasswordKey, this,
               [this, done = std::move(done)](Broker::SecretResult<Broker::SecretRead> read) {
                   const bool found = read.has_value() && !read->secret.isEmpty();
                   if (found)
                       m_password = read->secret;
                   else if (read.error().kind != Broker::SecretError::Kind::NotFound)
                       qCWarning(lcOpenCode).noquote()
                           << "Cannot read the OpenCode server password:" << read.error().message;
                   if (done)
                       done(found);
               });
}

QUrl OpenCodeClient::urlFor(const QString &path, const QString &directory, QUrlQuery query) const
{
    QUrl url = m_options.baseUrl;
    url.setPath(url.path() + path);
    if (!directory.isEmpty()) {
        query.removeAllQueryItems(QStringLiteral("directory"));
        // QUrlQuery leaves '+', '&', '=' and '#' alone in values; encode the directory fully.
        query.addQueryItem(QStringLiteral("directory"),
                           QString::fromLatin1(QUrl::toPercentEncoding(directory)));
    }
    if (!query.isEmpty())
        url.setQuery(query.query(QUrl::FullyEncoded), QUrl::StrictMode);
    return url;
}

QNetworkRequest OpenCodeClient::requestFor(const QString &path, const QString &directory,
                                           const QUrlQuery &query) const
{
    QNetworkRequest request(urlFor(path, directory, query));
    request.setRawHeader("accept", "application/json");
    if (!directory.isEmpty())
        request.setRawHeader("x-opencode-directory", QUrl::toPercentEncoding(directory, "/"));
    if (!m_password.isEmpty())
        request.setRawHeader("authorization",
                             "Basic " +
                                 QByteArray(m_options.username.toUtf8() + ':' + m_password).toBase64());
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    return request;
}

QString OpenCodeClient::unreachableMessage(const QString &detail) const
{
    if (m_explainUnreachable)
        return QStringLiteral("OpenCode is not reachable at %1 (%2): %3")
            .arg(m_options.baseUrl.toString(), detail, m_explainUnreachable());
    const int port = m_options.baseUrl.port(m_options.baseUrl.scheme() == QLatin1String("https") ? 443 : 80);
    return QStringLiteral("OpenCode is not reachable at %1 (%2). Start it with `opencode serve --port %3 "
                          "--hostname %4`, or point %5 (or openchamber.opencode_url in "
                          "~/.claude-peers-config.json) at the server that runs.")
        .arg(m_options.baseUrl.toString(), detail)
        .arg(port)
        .arg(m_options.baseUrl.host(), UrlEnvironmentVariable);
}

QString OpenCodeClient::sessionPath(const QString &sessionId, const QString &suffix)
{
    return QStringLiteral("/session/") + QString::fromLatin1(QUrl::toPercentEncoding(sessionId)) + suffix;
}

void OpenCodeClient::get(const QString &path, const QString &directory, const QUrlQuery &query,
                         QObject *context, Callback done, int timeoutMs)
{
    send("GET", path, directory, query, {}, context, std::move(done), timeoutMs);
}

void OpenCodeClient::post(const QString &path, const QString &directory, const QJsonValue &body,
                          QObject *context, Callback done, int timeoutMs)
{
    const QByteArray bytes = body.isArray() ? QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact)
                                            : QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact);
    send("POST", path, directory, {}, bytes, context, std::move(done), timeoutMs);
}

void OpenCodeClient::send(const QByteArray &verb, const QString &path, const QString &directory,
                          const QUrlQuery &query, const QByteArray &body, QObject *context, Callback done,
                          int timeoutMs)
{
    QNetworkRequest request = requestFor(path, directory, query);
    if (verb == "POST")
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = verb == "POST" ? m_network.post(request, body) : m_network.get(request);
    ++m_pending;
    qCDebug(lcOpenCode).noquote() << verb << request.url().toString(QUrl::RemoveUserInfo);
    QElapsedTimer started;
    started.start();

    struct State
    {
        QByteArray data;
        bool tooLarge = false;
        bool timedOut = false;
    };
    auto state = std::make_shared<State>();
    const qint64 cap = m_options.maxAnswerBytes;

    auto *deadline = new QTimer(reply);
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, reply, [reply, state] {
        state->timedOut = true;
        reply->abort();
    });
    deadline->start(timeoutMs > 0 ? timeoutMs : m_options.timeoutMs);

    connect(reply, &QNetworkReply::readyRead, reply, [reply, state, cap] {
        if (state->tooLarge)
            return;
        if (state->data.size() + reply->bytesAvailable() > cap) {
            state->tooLarge = true;
            reply->abort();
            return;
        }
        state->data += reply->readAll();
    });
    // A request whose context is gone is dropped: nobody waits for it.
    if (context)
        connect(context, &QObject::destroyed, reply, &QNetworkReply::abort);

    QPointer<QObject> guard(context);
    const bool hadContext = context != nullptr;
    connect(
        reply, &QNetworkReply::finished, this,
        [this, reply, state, guard, hadContext, verb, path, started, done = std::move(done)] {
            reply->deleteLater();
            --m_pending;
            if (hadContext && !guard)
                return;
            if (!state->tooLarge && !state->timedOut)
                state->data += reply->readAll();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QString what = QString::fromLatin1(verb) + QLatin1Char(' ') + path;
            qCDebug(lcOpenCode).noquote()
                << what << "answered" << status << "after" << started.elapsed() << "ms";
            auto fail = [&](OpenCodeError::Kind kind, QString message) {
                qCDebug(lcOpenCode).noquote() << what << "failed:" << message;
                done(std::unexpected(
                    OpenCodeError {kind, std::move(message), status, state->data.left(4096)}));
            };
            if (state->tooLarge)
                return fail(OpenCodeError::Kind::TooLarge,
                            QStringLiteral("OpenCode's answer to %1 is larger than %2 bytes")
                                .arg(what)
                                .arg(m_options.maxAnswerBytes));
            if (state->timedOut)
                return fail(OpenCodeError::Kind::Timeout,
                            QStringLiteral("OpenCode at %1 did not answer %2 in time")
                                .arg(m_options.baseUrl.toString(), what));
            if (status == 0)
                return fail(m_cannotRun ? OpenCodeError::Kind::CannotRun : OpenCodeError::Kind::Unreachable,
                            unreachableMessage(reply->errorString()));
            if (status == 401)
                return fail(OpenCodeError::Kind::Unauthorized,
                            QStringLiteral("OpenCode at %1 refused the request (401): its server password "
                                           "(OPENCODE_SERVER_PASSWORD) must be stored in claude-peers' "
                                           "secret store under \"opencode-password\"")
                                .arg(m_options.baseUrl.toString()));
            if (status < 200 || status > 299) {
                const QString excerpt = bodyExcerpt(state->data);
                return fail(OpenCodeError::Kind::Http,
                            excerpt.isEmpty()
                                ? QStringLiteral("%1 failed (%2)").arg(what).arg(status)
                                : QStringLiteral("%1 failed (%2): %3").arg(what).arg(status).arg(excerpt));
            }
            if (state->data.trimmed().isEmpty())
                return done(QJsonValue(QJsonValue::Undefined));
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(state->data, &error);
            if (error.error != QJsonParseError::NoError)
                return fail(OpenCodeError::Kind::BadJson,
                            QStringLiteral("OpenCode's answer to %1 is not JSON (%2)")
                                .arg(what, error.errorString()));
            done(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()));
        });
}

} // namespace OpenChamber
