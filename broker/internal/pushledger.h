#pragma once

#include "broker/internal/privateheader.h"

#include "common/dto.h"
#include "common/wire.h"

#include <QHash>
#include <QList>

#include <deque>

namespace Broker {

// When the broker first handed each message to its recipient: an answer of the recipient's
// /wait-messages stream or of /poll-messages that carried it. The message log (/messages)
// shows it as the "pushed" tick. Memory only (a restart forgets it) and bounded: the newest
// `capacity` messages recorded; older ones read as "not known". The database keeps no such
// column on purpose: a write per push would cost the delivery path a statement per message.
class PushLedger
{
public:
    static constexpr qsizetype defaultCapacity = 65536;

    explicit PushLedger(qsizetype capacity = defaultCapacity) : m_capacity(capacity) { }

    enum class Via { Stream, Poll };
    // Records the messages not recorded yet (a repeat keeps the first handout).
    void record(const QList<Message> &messages, Via via, qint64 nowMsSinceEpoch);
    MessageHandout handout(qint64 messageId) const; // empty when not known
    qsizetype size() const { return m_byId.size(); }

private:
    struct Entry
    {
        qint64 atMs = 0;
        Via via = Via::Stream;
    };
    qsizetype m_capacity;
    QHash<qint64, Entry> m_byId;
    std::deque<qint64> m_order; // oldest recorded first: evicted first
};

} // namespace Broker
