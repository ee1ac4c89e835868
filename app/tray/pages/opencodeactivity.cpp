#include "app/tray/pages/opencodeactivity.h"

#include "openchamber/controlevents.h"

#include <algorithm>

namespace App {

Broker::Attention OpenCodeSession::attention() const
{
    if (needsYou())
        return Broker::Attention::NeedsYou;
    if (status == QLatin1String("busy") || status == QLatin1String("retry"))
        return Broker::Attention::Busy;
    if (status == QLatin1String("idle"))
        return Broker::Attention::Idle;
    return Broker::Attention::Unknown;
}

bool OpenCodeSession::isCurrent() const
{
    const Broker::Attention state = attention();
    return watched || state == Broker::Attention::NeedsYou || state == Broker::Attention::Busy;
}

OpenCodeActivity::OpenCodeActivity(QObject *parent) : QObject(parent) { }

void OpenCodeActivity::follow(OpenChamber::ControlEvents *events)
{
    // Queued: the events come from the broker thread; this object lives on the GUI thread.
    connect(events, &OpenChamber::ControlEvents::sessionStatusChanged, this, &OpenCodeActivity::setStatus,
            Qt::QueuedConnection);
    connect(events, &OpenChamber::ControlEvents::sessionWaitingChanged, this, &OpenCodeActivity::setWaiting,
            Qt::QueuedConnection);
    connect(events, &OpenChamber::ControlEvents::sessionFailed, this, &OpenCodeActivity::setFailed,
            Qt::QueuedConnection);
}

std::optional<OpenCodeSession> OpenCodeActivity::session(const QString &sessionId) const
{
    const auto it = m_sessions.constFind(sessionId);
    if (it == m_sessions.cend())
        return std::nullopt;
    return *it;
}

QList<AttentionItem> OpenCodeActivity::attentionItems() const
{
    QList<AttentionItem> items;
    for (const OpenCodeSession &s : m_sessions) {
        const Broker::Attention state = s.attention();
        if (state != Broker::Attention::NeedsYou && state != Broker::Attention::Busy)
            continue;
        const QString name = s.title.isEmpty() ? tr("OpenCode %1").arg(s.sessionId) : s.title;
        items.append({s.sessionId, name, state, s.since, s.needsYou() ? s.detail : s.error});
    }
    std::sort(items.begin(), items.end(), [](const AttentionItem &a, const AttentionItem &b) {
        if (a.state != b.state)
            return a.state < b.state;
        return a.peerId < b.peerId;
    });
    return items;
}

OpenCodeSession &OpenCodeActivity::entry(const QString &directory, const QString &sessionId)
{
    auto it = m_sessions.find(sessionId);
    if (it == m_sessions.end()) {
        if (m_sessions.size() >= MaxSessions)
            forgetOldest();
        it = m_sessions.insert(sessionId, OpenCodeSession {sessionId, directory, {}, {}, {}, {}, {}, now()});
    }
    if (!directory.isEmpty())
        it->directory = directory;
    return *it;
}

void OpenCodeActivity::forgetOldest()
{
    // An idle session first (it asks nothing); the one in its state the longest.
    auto victim = m_sessions.end();
    for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it) {
        const bool idle =
            it->attention() != Broker::Attention::NeedsYou && it->attention() != Broker::Attention::Busy;
        if (victim == m_sessions.end())
            victim = it;
        const bool victimIdle = victim->attention() != Broker::Attention::NeedsYou &&
            victim->attention() != Broker::Attention::Busy;
        if ((idle && !victimIdle) || (idle == victimIdle && it->since < victim->since))
            victim = it;
    }
    if (victim != m_sessions.end())
        m_sessions.erase(victim);
}

void OpenCodeActivity::changed(const QString &sessionId, const QList<AttentionItem> &before)
{
    Q_EMIT sessionChanged(sessionId);
    if (attentionItems() != before)
        Q_EMIT attentionChanged();
}

void OpenCodeActivity::setStatus(const QString &directory, const QString &sessionId, const QString &status)
{
    if (sessionId.isEmpty())
        return;
    const QList<AttentionItem> before = attentionItems();
    OpenCodeSession &s = entry(directory, sessionId);
    const Broker::Attention was = s.attention();
    s.watched = true;
    s.status = status;
    if (status == QLatin1String("idle")) {
        s.waitingFor.clear();
        s.detail.clear();
    } else if (status == QLatin1String("busy")) {
        s.error.clear(); // a new run
    }
    if (s.attention() != was)
        s.since = now();
    changed(sessionId, before);
}

void OpenCodeActivity::setWaiting(const QString &directory, const QString &sessionId,
                                  const QString &waitingFor, const QString &detail)
{
    if (sessionId.isEmpty())
        return;
    const QList<AttentionItem> before = attentionItems();
    OpenCodeSession &s = entry(directory, sessionId);
    const Broker::Attention was = s.attention();
    s.watched = true;
    s.waitingFor = waitingFor;
    s.detail = waitingFor.isEmpty() ? QString() : detail;
    if (s.attention() != was)
        s.since = now();
    changed(sessionId, before);
}

void OpenCodeActivity::setFailed(const QString &directory, const QString &sessionId, const QString &message)
{
    if (sessionId.isEmpty())
        return;
    const QList<AttentionItem> before = attentionItems();
    OpenCodeSession &s = entry(directory, sessionId);
    s.watched = true;
    s.error = message;
    changed(sessionId, before);
}

void OpenCodeActivity::noteListed(const QString &directory, const QString &sessionId, const QString &title,
                                  const QString &status)
{
    if (sessionId.isEmpty())
        return;
    const auto known = m_sessions.constFind(sessionId);
    if (known != m_sessions.cend() && known->title == title && (status.isEmpty() || known->status == status))
        return;
    const QList<AttentionItem> before = attentionItems();
    OpenCodeSession &s = entry(directory, sessionId);
    s.title = title;
    if (!status.isEmpty() && status != s.status) {
        const Broker::Attention was = s.attention();
        s.status = status;
        if (status == QLatin1String("idle")) {
            s.waitingFor.clear();
            s.detail.clear();
        }
        if (s.attention() != was)
            s.since = now();
    }
    changed(sessionId, before);
}

} // namespace App
