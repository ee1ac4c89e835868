#include "sessionwatcher.h"

#include "openchamberlogging.h"
#include "opencodeevents.h"

#include <QJsonObject>
#include <QPointer>
#include <QTimer>

namespace OpenChamber {

namespace {

// Sessions remembered for the "changed" test; beyond that the memory starts again (a repeated
// status is then reported once more, which a display shrugs off).
constexpr qsizetype MaxRememberedSessions = 4096;

QString errorMessage(const QJsonObject &error)
{
    const QString message =
        error.value(QStringLiteral("data")).toObject().value(QStringLiteral("message")).toString();
    if (!message.isEmpty())
        return message;
    const QString name = error.value(QStringLiteral("name")).toString();
    return name.isEmpty() ? QStringLiteral("OpenCode reported an error") : name;
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
    }
}

void SessionWatcher::setStatus(const QString &directory, const QString &sessionId, const QString &status)
{
    if (m_status.value(sessionId) == status)
        return; // session.idle follows session.status idle: one change
    if (m_status.size() >= MaxRememberedSessions && !m_status.contains(sessionId))
        m_status.clear();
    m_status.insert(sessionId, status);
    Q_EMIT sessionStatusChanged(directory, sessionId, status);
}

} // namespace OpenChamber
