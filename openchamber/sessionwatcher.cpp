#include "openchamber/sessionwatcher.h"

#include "openchamber/openchamberlogging.h"
#include "openchamber/opencodeevents.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QPointer>
#include <QTimer>

namespace OpenChamber {

namespace {

// Sessions remembered for the "changed" test; beyond that the memory starts again (a repeated
// status is then reported once more, which a display shrugs off).
constexpr qsizetype MaxRememberedSessions = 4096;
// Requests a session may have open at once (a run asks one at a time; more is a stuck server).
constexpr qsizetype MaxPendingRequests = 64;

QString errorMessage(const QJsonObject &error)
{
    const QString message =
        error.value(QStringLiteral("data")).toObject().value(QStringLiteral("message")).toString();
    if (!message.isEmpty())
        return message;
    const QString name = error.value(QStringLiteral("name")).toString();
    return name.isEmpty() ? QStringLiteral("OpenCode reported an error") : name;
}

QString stringValue(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

// What a permission request asks: the v1 title, else the permission and its patterns.
QString permissionDetail(const QJsonObject &properties)
{
    const QString title = stringValue(properties, "title");
    if (!title.isEmpty())
        return title;
    QStringList patterns;
    for (const QJsonValue &pattern : properties.value(QLatin1String("patterns")).toArray())
        patterns << pattern.toString();
    const QString permission = stringValue(properties, "permission");
    return patterns.isEmpty() ? permission
                              : permission + QStringLiteral(": ") + patterns.join(QStringLiteral(", "));
}

QString questionDetail(const QJsonObject &properties)
{
    const QJsonObject first = properties.value(QLatin1String("questions")).toArray().first().toObject();
    const QString question = stringValue(first, "question");
    return question.isEmpty() ? stringValue(first, "header") : question;
}

} // namespace

struct SessionWatcher::Watch
{
    QPointer<OpenCodeEventStream> stream;
    QTimer retry;
    int retryMs = SessionWatcher::firstRetryMs;

    ~Watch()
    {
        if (stream)
            stream->deleteLater();
    }
};

SessionWatcher::SessionWatcher(OpenCodeClient &client, QObject *parent) : QObject(parent), m_client(client)
{
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_network.setTransferTimeout(0);
}

SessionWatcher::~SessionWatcher() = default;

void SessionWatcher::watch(const QString &directory)
{
    if (directory.isEmpty() || m_watches.contains(directory))
        return;
    if (m_order.size() >= maxDirectories)
        m_watches.remove(m_order.takeFirst());
    auto watch = std::make_shared<Watch>();
    watch->retry.setSingleShot(true);
    connect(&watch->retry, &QTimer::timeout, this, [this, directory] { open(directory); });
    m_watches.insert(directory, watch);
    m_order.append(directory);
    open(directory);
}

bool SessionWatcher::isConnected(const QString &directory) const
{
    const auto watch = m_watches.value(directory);
    return watch && watch->stream && watch->stream->isConnected();
}

void SessionWatcher::open(const QString &directory)
{
    const auto watch = m_watches.value(directory);
    if (!watch)
        return;
    auto *stream = new OpenCodeEventStream(m_client, m_network, directory, this);
    watch->stream = stream;
    connect(stream, &OpenCodeEventStream::connected, this, [watch] { watch->retryMs = firstRetryMs; });
    connect(stream, &OpenCodeEventStream::received, this,
            [this, directory](const QJsonObject &event) { received(directory, event); });
    connect(stream, &OpenCodeEventStream::ended, this, [this, directory, stream](const QString &reason) {
        stream->deleteLater();
        const auto current = m_watches.value(directory);
        if (!current || current->stream != stream)
            return;
        qCDebug(lcOpenCode).noquote() << "session watch of" << directory << "ended (" << reason
                                      << "); again in" << current->retryMs << "ms";
        current->retry.start(current->retryMs);
        current->retryMs = std::min(current->retryMs * 2, maxRetryMs);
    });
}

void SessionWatcher::received(const QString &directory, const QJsonObject &event)
{
    const QString type = event.value(QStringLiteral("type")).toString();
    const QJsonObject properties = event.value(QStringLiteral("properties")).toObject();
    const QString sessionId = properties.value(QStringLiteral("sessionID")).toString();
    if (type == QLatin1String("session.status")) {
        const QString status =
            properties.value(QStringLiteral("status")).toObject().value(QStringLiteral("type")).toString();
        if (!sessionId.isEmpty() && !status.isEmpty())
            setStatus(directory, sessionId, status);
    } else if (type == QLatin1String("session.idle")) {
        if (!sessionId.isEmpty())
            setStatus(directory, sessionId, QStringLiteral("idle"));
    } else if (type == QLatin1String("session.error")) {
        Q_EMIT sessionFailed(directory, sessionId,
                             errorMessage(properties.value(QStringLiteral("error")).toObject()));
    } else if (type == QLatin1String("permission.asked") || type == QLatin1String("permission.updated")) {
        ask(directory, sessionId, stringValue(properties, "id"), QStringLiteral("permission"),
            permissionDetail(properties));
    } else if (type == QLatin1String("question.asked")) {
        ask(directory, sessionId, stringValue(properties, "id"), QStringLiteral("question"),
            questionDetail(properties));
    } else if (type == QLatin1String("permission.replied") || type == QLatin1String("question.replied") ||
               type == QLatin1String("question.rejected")) {
        const QString requestId = stringValue(properties, "requestID");
        answer(directory, sessionId,
               requestId.isEmpty() ? stringValue(properties, "permissionID") : requestId);
    }
}

void SessionWatcher::ask(const QString &directory, const QString &sessionId, const QString &requestId,
                         const QString &waitingFor, const QString &detail)
{
    if (sessionId.isEmpty())
        return;
    if (m_waiting.size() >= MaxRememberedSessions && !m_waiting.contains(sessionId))
        m_waiting.clear();
    QList<Request> &pending = m_waiting[sessionId];
    pending.removeIf([&requestId](const Request &r) { return r.id == requestId; });
    if (pending.size() >= MaxPendingRequests)
        pending.removeFirst();
    pending.append({requestId, waitingFor, detail});
    Q_EMIT sessionWaitingChanged(directory, sessionId, waitingFor, detail);
}

void SessionWatcher::answer(const QString &directory, const QString &sessionId, const QString &requestId)
{
    const auto it = m_waiting.find(sessionId);
    if (it == m_waiting.end() ||
        it->removeIf([&requestId](const Request &r) { return r.id == requestId; }) == 0)
        return;
    if (it->isEmpty()) {
        m_waiting.erase(it);
        Q_EMIT sessionWaitingChanged(directory, sessionId, QString(), QString());
        return;
    }
    Q_EMIT sessionWaitingChanged(directory, sessionId, it->last().waitingFor, it->last().detail);
}

void SessionWatcher::setStatus(const QString &directory, const QString &sessionId, const QString &status)
{
    if (m_status.value(sessionId) == status)
        return; // session.idle follows session.status idle: one change
    if (m_status.size() >= MaxRememberedSessions && !m_status.contains(sessionId))
        m_status.clear();
    m_status.insert(sessionId, status);
    Q_EMIT sessionStatusChanged(directory, sessionId, status);
    // An idle session asks nothing any more (an abort may end a question without a reply event).
    if (status == QLatin1String("idle") && m_waiting.remove(sessionId) > 0)
        Q_EMIT sessionWaitingChanged(directory, sessionId, QString(), QString());
}

} // namespace OpenChamber
