#pragma once

#include "dto.h"
#include "http/httptypes.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QTimer>

namespace Broker {

class Service;

// POST /wait-messages (docs/protocol.md): holds one responder per peer and answers it once a
// message for that peer is stored, or with an empty list when its timeout passes. One timer,
// armed for the earliest deadline, serves every wait.
// wake() only marks the peer; the answers go out in one queued pass after the current
// event-loop pass, so every message stored meanwhile (a burst of pipelined sends) shares one
// answer, one SELECT and one acknowledging wait per peer instead of one each per message.
class DeliveryHub : public QObject
{
    Q_OBJECT
public:
    static constexpr int maxBatch = 200;
    static constexpr int defaultTimeoutMs = 25000;
    static constexpr int maxTimeoutMs = 60000;

    explicit DeliveryHub(Service &service, QObject *parent = nullptr);
    ~DeliveryHub() override;

    // Answers at once when the peer has pending messages with an id above afterId (or
    // timeoutMs is 0); otherwise keeps the responder, answering an older wait of the same peer
    // with an empty list. afterId lets a helper leave messages it holds unacknowledged (shown
    // to nobody yet) at the broker without being answered them again at once.
    void wait(const QString &peerId, int timeoutMs, const Http::ResponderPtr &responder, qint64 afterId = 0);
    // A message for peerId was stored: answer its wait, if any, after this event-loop pass.
    void wake(const QString &peerId);
    // Answers the waits of the peers woken so far now (queued after wake(); tests may call it).
    void flushWakes();
    // The peer is gone: answer its wait with an empty list.
    void release(const QString &peerId);
    // Broker stops: answer every wait with an empty list.
    void releaseAll();

    int waitingCount() const { return int(m_waiters.size()); }

private:
    struct Waiter
    {
        Http::ResponderPtr responder;
        QDeadlineTimer deadline;
        qint64 afterId = 0;
    };

    void answer(const Http::ResponderPtr &responder, const QString &peerId, bool withMessages,
                qint64 afterId = 0);
    void answerWith(const Http::ResponderPtr &responder, const QList<Message> &messages);
    void expire();
    void rearm();

    Service &m_service;
    QHash<QString, Waiter> m_waiters;
    QList<QString> m_woken; // peers with a held wait and a new message, in wake order
    bool m_flushScheduled = false;
    QTimer m_timer;
};

} // namespace Broker
