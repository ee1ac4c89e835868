#include "mcp_stdio/bannerqueue.h"

namespace Mcp {

BannerQueue::BannerQueue(int capacity) : m_capacity(capacity > 0 ? capacity : DefaultCapacity) { }

void BannerQueue::push(Entry entry)
{
    if (contains(entry.messageId))
        return;
    while (m_entries.size() >= m_capacity) {
        m_entries.removeFirst();
        ++m_omitted;
    }
    m_entries.append(std::move(entry));
}

QList<BannerQueue::Entry> BannerQueue::takeDue(qint64 nowMs, qint64 graceMs)
{
    QList<Entry> due;
    QList<Entry> keep;
    for (Entry &e : m_entries) {
        if (nowMs - e.pushedAtMs >= graceMs)
            due.append(std::move(e));
        else
            keep.append(std::move(e));
    }
    m_entries = std::move(keep);
    return due;
}

QList<BannerQueue::Entry> BannerQueue::takeAll()
{
    QList<Entry> all = std::move(m_entries);
    m_entries = {};
    return all;
}

int BannerQueue::takeOmitted()
{
    const int n = m_omitted;
    m_omitted = 0;
    return n;
}

bool BannerQueue::contains(qint64 messageId) const
{
    for (const Entry &e : m_entries) {
        if (e.messageId == messageId)
            return true;
    }
    return false;
}

bool BannerQueue::remove(qint64 messageId)
{
    return m_entries.removeIf([messageId](const Entry &e) { return e.messageId == messageId; }) > 0;
}

} // namespace Mcp
