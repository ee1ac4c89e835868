#include "mcp_stdio/pushgate.h"

#include "mcp_stdio/mcplogging.h"

#include <QTimer>

namespace Mcp {

PushGate::Options PushGate::defaultOptions()
{
    Options o;
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("CLAUDE_PEERS_PUSH_READY_MS", &ok);
    if (ok && ms >= 0)
        o.maxDelayMs = ms;
    return o;
}

PushGate::PushGate(Options options, QObject *parent)
    : QObject(parent), m_options(options), m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] { open("the delay after initialized passed"); });
}

void PushGate::onInitialized()
{
    if (m_initialized)
        return;
    m_initialized = true;
    if (!m_pingWanted) { // no channel handler to wait for (messages go to the inbox or the banner)
        open("the client shows no pushes: nothing to wait for");
        return;
    }
    m_timer->start(m_options.maxDelayMs);
}

void PushGate::onRequest(const QString &method)
{
    if (m_open || !m_initialized)
        return;
    if (method == QLatin1String("tools/call")) {
        open("the client called a tool");
        return;
    }
    if (method != QLatin1String("tools/list") || !m_pingWanted || m_pingSent)
        return;
    m_pingSent = true;
    // Queued: the tools/list answer is written in this call chain; the ping must follow it.
    QMetaObject::invokeMethod(
        this, [this] { Q_EMIT sendPing(QJsonValue(QLatin1String(PingId))); }, Qt::QueuedConnection);
}

void PushGate::onResponse(const QJsonValue &id)
{
    if (m_pingSent && id == QJsonValue(QLatin1String(PingId)))
        open("the client answered the ping after tools/list");
}

void PushGate::open(const char *why)
{
    if (m_open)
        return;
    m_open = true;
    m_timer->stop();
    qCDebug(lcStdio) << "client ready for channel pushes:" << why;
    Q_EMIT opened();
}

} // namespace Mcp
