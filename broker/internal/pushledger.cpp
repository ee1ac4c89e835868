#include "broker/internal/pushledger.h"

#include <QDateTime>

namespace Broker {

void PushLedger::record(const QList<Message> &messages, Via via, qint64 nowMsSinceEpoch)
{
    for (const Message &m : messages) {
        if (m_byId.contains(m.id))
            continue;
        m_byId.insert(m.id, Entry {nowMsSinceEpoch, via});
        m_order.push_back(m.id);
        while (qsizetype(m_order.size()) > m_capacity) {
            m_byId.remove(m_order.front());
            m_order.pop_front();
        }
    }
}

MessageHandout PushLedger::handout(qint64 messageId) const
{
    const auto it = m_byId.constFind(messageId);
    if (it == m_byId.cend())
        return {};
    return {QDateTime::fromMSecsSinceEpoch(it->atMs, Qt::UTC).toString(Qt::ISODateWithMs),
            it->via == Via::Stream ? QStringLiteral("stream") : QStringLiteral("poll")};
}

} // namespace Broker
