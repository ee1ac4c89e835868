#include "broker/internal/deliveryhub.h"
#include "broker/brokerlogging.h"
#include "broker/clock.h"
#include "broker/internal/messagejson.h"
#include "broker/internal/service.h"
#include "broker/internal/store.h"

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
    if (const auto messages = readPending(responder, peerId, afterId))
        answerWith(responder, *messages);
}

std::optional<QList<Message>> DeliveryHub::readPending(const Http::ResponderPtr &responder,
                                                       const QString &peerId, qint64 afterId)
{
    auto messages = m_service.undelivered(peerId, maxBatch, afterId);
    if (!messages) {
        m_knownPending.remove(peerId);
        responder->respond(Http::Response::json(
            500,
            QJsonDocument(QJsonObject {{QStringLiteral("error"), messages.error().message}})
                .toJson(QJsonDocument::Compact)));
        return std::nullopt;
    }
    if (afterId > 0)
        m_knownPending.remove(peerId); // what is pending up to afterId was not read
    else
        learn(peerId, *messages);
    return std::move(*messages);
}

void DeliveryHub::learn(const QString &peerId, const QList<Message> &messages)
{
    // A list read from the store is all that is pending unless the bounds cut it (counted as
    // the store counts; metadata at its largest).
    qsizetype bytes = 0;
    for (const Message &m : messages)
        bytes += 256 + m.text.size() + (m.metadata ? 10240 : 0);
    if (messages.size() >= maxBatch || bytes >= Store::maxListBytes) {
        m_knownPending.remove(peerId);
        return;
    }
    QList<qint64> ids;
    ids.reserve(messages.size());
    for (const Message &m : messages)
        ids.append(m.id);
    m_knownPending.insert(peerId, ids);
}

void DeliveryHub::answerWith(const Http::ResponderPtr &responder, const QList<Message> &messages)
{
    responder->respond(Http::Response::json(200, messagesAnswer(messages)));
    if (!messages.isEmpty())
        m_ledger.record(messages, PushLedger::Via::Stream, m_service.clock().msecsSinceEpoch());
}

void DeliveryHub::recordPolled(const QList<Message> &messages)
{
    if (!messages.isEmpty())
        m_ledger.record(messages, PushLedger::Via::Poll, m_service.clock().msecsSinceEpoch());
}

void DeliveryHub::wait(const QString &peerId, int timeoutMs, const Http::ResponderPtr &responder,
                       const QList<qint64> &acknowledged, qint64 afterId)
{
    if (!m_holding)
        timeoutMs = 0;
    // The usual round: the peer acknowledges its last answer with this wait (or leaves some of
    // it below afterId), so nothing is pending above afterId and it parks without a SELECT.
    const auto known = m_knownPending.constFind(peerId);
    const bool nothingPending = known != m_knownPending.cend() && !m_stored.contains(peerId) &&
        std::all_of(known->cbegin(), known->cend(),
                    [&](qint64 id) { return id <= afterId || acknowledged.contains(id); });
    if (nothingPending && timeoutMs > 0) {
        QList<qint64> left; // pending, held back by afterId
        for (qint64 id : *known) {
            if (!acknowledged.contains(id))
                left.append(id);
        }
        m_knownPending.insert(peerId, left);
    } else {
        const auto pending = readPending(responder, peerId, afterId);
        if (!pending)
            return; // answered 500
        if (!pending->isEmpty() || timeoutMs <= 0) {
            answerWith(responder, *pending); // the rows just read: no second SELECT
            return;
        }
    }
    if (auto older = m_waiters.take(peerId); older.responder) {
        qCDebug(lcDelivery).noquote() << "Newer wait supersedes the older one of" << peerId;
        answer(older.responder, peerId, false);
    }
    m_waiters.insert(peerId, Waiter {responder, QDeadlineTimer(timeoutMs, Qt::PreciseTimer), afterId});
    m_stored.remove(peerId); // nothing is pending above afterId now

    // The client went away: forget its wait (unless a newer one took its place).
    QPointer<DeliveryHub> self(this);
    const Http::Responder *raw = responder.get();
    responder->setOnClosed([self, peerId, raw] {
        if (!self)
            return;
        auto it = self->m_waiters.find(peerId);
        if (it != self->m_waiters.end() && it->responder.get() == raw) {
            self->m_waiters.erase(it);
            self->m_stored.remove(peerId);
            self->rearm();
        }
    });
    rearm();
}

void DeliveryHub::wake(const Message &message)
{
    const QString &peerId = message.toId;
    if (!m_waiters.contains(peerId)) {
        m_knownPending.remove(peerId); // pending beyond what the hub saw
        return;
    }
    Stored &stored = m_stored[peerId];
    if (!stored.overflow) {
        stored.messages.append(message);
        stored.bytes += message.text.size(); // as Store::maxListBytes counts, roughly
        stored.overflow = stored.messages.size() > maxBatch || stored.bytes > Store::maxListBytes;
        if (stored.overflow)
            stored.messages.clear();
    }
    if (m_woken.contains(peerId))
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
        if (it == m_waiters.end()) {
            m_stored.remove(peerId);
            continue;
        }
        const Waiter waiter = *it;
        m_waiters.erase(it);
        changed = true;
        Stored stored = m_stored.take(peerId);
        stored.messages.removeIf([&waiter](const Message &m) { return m.id <= waiter.afterId; });
        if (stored.overflow || stored.messages.isEmpty()) {
            answer(waiter.responder, peerId, true, waiter.afterId);
        } else {
            // Pending now: what was left below afterId when it parked, and these.
            if (auto known = m_knownPending.find(peerId); known != m_knownPending.end()) {
                for (const Message &m : std::as_const(stored.messages))
                    known->append(m.id);
            }
            answerWith(waiter.responder, stored.messages);
        }
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
    m_stored.remove(peerId);
    m_knownPending.remove(peerId);
    answer(responder, peerId, false);
    rearm();
}

void DeliveryHub::releaseAll()
{
    const auto waiters = std::exchange(m_waiters, {});
    m_stored.clear();
    m_knownPending.clear();
    for (auto it = waiters.begin(); it != waiters.end(); ++it)
        answer(it->responder, it.key(), false);
    m_timer.stop();
}

void DeliveryHub::forgetStored()
{
    m_stored.clear();
    m_knownPending.clear();
}

void DeliveryHub::expire()
{
    QList<QPair<QString, Waiter>> due;
    for (auto it = m_waiters.begin(); it != m_waiters.end();) {
        if (it->deadline.hasExpired()) {
            due.append({it.key(), *it});
            m_stored.remove(it.key());
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
