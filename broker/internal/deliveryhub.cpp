#include "deliveryhub.h"
#include "logging.h"
#include "service.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

#include <algorithm>
#include <limits>
#include <utility>

namespace Broker {

DeliveryHub::DeliveryHub(Service &service, QObject *parent) : QObject(parent), m_service(service)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &DeliveryHub::expire);
}

DeliveryHub::~DeliveryHub()
{
    releaseAll();
}

void DeliveryHub::answer(const Http::ResponderPtr &responder, const QString &peerId, bool withMessages,
                         qint64 afterId)
{
    if (!withMessages) {
        responder->respond(Http::Response::json(200, QByteArrayLiteral("{\"messages\":[]}")));
        return;
    }
    auto messages = m_service.undelivered(peerId, maxBatch, afterId);
    if (!messages) {
        responder->respond(Http::Response::json(
            500,
            QJsonDocument(QJsonObject {{QStringLiteral("error"), messages.error().message}})
                .toJson(QJsonDocument::Compact)));
        return;
    }
    answerWith(responder, *messages);
}

void DeliveryHub::answerWith(const Http::ResponderPtr &responder, const QList<Message> &messages)
{
    QJsonArray array;
    for (const Message &m : messages)
        array.append(m.toJson());
    responder->respond(Http::Response::json(
        200,
        QJsonDocument(QJsonObject {{QStringLiteral("messages"), array}}).toJson(QJsonDocument::Compact)));
}

void DeliveryHub::wait(const QString &peerId, int timeoutMs, const Http::ResponderPtr &responder,
                       qint64 afterId)
{
    auto pending = m_service.undelivered(peerId, maxBatch, afterId);
    if (!pending) {
        responder->respond(Http::Response::json(
            500,
            QJsonDocument(QJsonObject {{QStringLiteral("error"), pending.error().message}})
                .toJson(QJsonDocument::Compact)));
        return;
    }
    if (!pending->isEmpty() || timeoutMs <= 0) {
        answerWith(responder, *pending); // the rows just read: no second SELECT
        return;
    }
    if (auto older = m_waiters.take(peerId); older.responder) {
        qCDebug(lcDelivery).noquote() << "Newer wait supersedes the older one of" << peerId;
        answer(older.responder, peerId, false);
    }
    m_waiters.insert(peerId, Waiter {responder, QDeadlineTimer(timeoutMs, Qt::PreciseTimer), afterId});

    // The client went away: forget its wait (unless a newer one took its place).
    QPointer<DeliveryHub> self(this);
    const Http::Responder *raw = responder.get();
    responder->setOnClosed([self, peerId, raw] {
        if (!self)
            return;
        auto it = self->m_waiters.find(peerId);
        if (it != self->m_waiters.end() && it->responder.get() == raw) {
            self->m_waiters.erase(it);
            self->rearm();
        }
    });
    rearm();
}

void DeliveryHub::wake(const QString &peerId)
{
    if (!m_waiters.contains(peerId) || m_woken.contains(peerId))
        return;
    m_woken.append(peerId);
    if (!m_flushScheduled) {
        m_flushScheduled = true;
        QMetaObject::invokeMethod(this, &DeliveryHub::flushWakes, Qt::QueuedConnection);
    }
}

void DeliveryHub::flushWakes()
{
    m_flushScheduled = false;
    const QList<QString> woken = std::exchange(m_woken, {});
    bool changed = false;
    for (const QString &peerId : woken) {
        // The wait may have been answered (superseded, released, timed out) meanwhile.
        auto it = m_waiters.find(peerId);
        if (it == m_waiters.end())
            continue;
        const Waiter waiter = *it;
        m_waiters.erase(it);
        changed = true;
        answer(waiter.responder, peerId, true, waiter.afterId);
    }
    if (changed)
        rearm();
}

void DeliveryHub::release(const QString &peerId)
{
    auto it = m_waiters.find(peerId);
    if (it == m_waiters.end())
        return;
    const Http::ResponderPtr responder = it->responder;
    m_waiters.erase(it);
    answer(responder, peerId, false);
    rearm();
}

void DeliveryHub::releaseAll()
{
    const auto waiters = std::exchange(m_waiters, {});
    for (auto it = waiters.begin(); it != waiters.end(); ++it)
        answer(it->responder, it.key(), false);
    m_timer.stop();
}

void DeliveryHub::expire()
{
    QList<QPair<QString, Waiter>> due;
    for (auto it = m_waiters.begin(); it != m_waiters.end();) {
        if (it->deadline.hasExpired()) {
            due.append({it.key(), *it});
            it = m_waiters.erase(it);
        } else {
            ++it;
        }
    }
    // Messages stored behind the broker's back (none today) still go out on expiry.
    for (const auto &[peerId, waiter] : std::as_const(due))
        answer(waiter.responder, peerId, true, waiter.afterId);
    rearm();
}

void DeliveryHub::rearm()
{
    if (m_waiters.isEmpty()) {
        m_timer.stop();
        return;
    }
    qint64 earliest = std::numeric_limits<qint64>::max();
    for (const Waiter &waiter : std::as_const(m_waiters))
        earliest = std::min(earliest, waiter.deadline.remainingTime());
    m_timer.start(int(std::clamp<qint64>(earliest, 0, maxTimeoutMs)));
}

} // namespace Broker
