#pragma once

#include "broker/internal/privateheader.h"

#include "broker/http/httptypes.h"
#include "broker/internal/pushledger.h"
#include "common/dto.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QTimer>

#include <optional>

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
    // acknowledged: the ids the wait has just acknowledged. When they and afterId cover
    // everything the hub knows to be pending for the peer, it parks without reading the store.
    void wait(const QString &peerId, int timeoutMs, const Http::ResponderPtr &responder,
              const QList<qint64> &acknowledged = {}, qint64 afterId = 0);
    // A message was stored: answer its recipient's wait, if any, after this event-loop pass.
    // A parked wait had nothing pending when it parked, so the messages stored since are all
    // it needs: they are kept and answered as they are, without reading them back (unless
    // more than one answer holds; then the store is asked, with its bounds).
    void wake(const Message &message);
    // Answers the waits of the peers woken so far now (queued after wake(); tests may call it).
    void flushWakes();
    // The peer is gone: answer its wait with an empty list.
    void release(const QString &peerId);
    // Broker stops: answer every wait with an empty list.
    void releaseAll();
    // Handing over: answer every wait at once (releaseAll) and hold no new one, so that the
    // helpers post their next wait to the successor.
    void stopHolding()
    {
        m_holding = false;
        releaseAll();
    }
    // The messages stored in this pass were rolled back: forget them (and what is pending),
    // so that held waits read the store instead of answering with what does not exist.
    void forgetStored();

    int waitingCount() const { return int(m_waiters.size()); }
    // When each message was first handed to its recipient (the log's "pushed" tick).
    const PushLedger &ledger() const { return m_ledger; }
    // /poll-messages handed these out.
    void recordPolled(const QList<Message> &messages);

private:
    struct Waiter
    {
        Http::ResponderPtr responder;
        QDeadlineTimer deadline;
        qint64 afterId = 0;
    };

    void answer(const Http::ResponderPtr &responder, const QString &peerId, bool withMessages,
                qint64 afterId = 0);
    // The peer's pending messages above afterId from the store (bounded), or nothing after
    // answering 500.
    std::optional<QList<Message>> readPending(const Http::ResponderPtr &responder, const QString &peerId,
                                              qint64 afterId);
    // Read from the store (no afterId): what the peer has pending is exactly `messages`,
    // unless the bounds cut them.
    void learn(const QString &peerId, const QList<Message> &messages);
    void answerWith(const Http::ResponderPtr &responder, const QList<Message> &messages);
    void expire();
    void rearm();

    Service &m_service;
    QHash<QString, Waiter> m_waiters;
    QList<QString> m_woken; // peers with a held wait and a new message, in wake order
    struct Stored
    {
        QList<Message> messages;
        qsizetype bytes = 0;
        bool overflow = false; // more than one answer's worth: read them from the store
    };
    QHash<QString, Stored> m_stored; // by peer: messages stored since its wait parked
    // By peer, when known: the ids pending for it (those of its last answers that it has not
    // acknowledged). A message stored while it has no parked wait, an answer cut by the
    // bounds, or a read above an afterId makes it unknown.
    QHash<QString, QList<qint64>> m_knownPending;
    bool m_flushScheduled = false;
    QTimer m_timer;
    bool m_holding = true;
    PushLedger m_ledger;
};

} // namespace Broker
