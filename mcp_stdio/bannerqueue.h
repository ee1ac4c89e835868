#pragma once

#include <QList>
#include <QString>

namespace Mcp {

// Layer 2 (docs/spec/peers-api.md §7.5): messages written into the session are repeated in a banner on
// the next tool result once a grace period has passed, for sessions where the channel push
// is not shown. Pure data with the time passed in, so it tests without waiting.
//
// Overflow rule: at most `capacity` entries; when full, the OLDEST entry is dropped and
// counted. The next banner says how many were left out and where to read them (the broker's
// history), so nothing disappears without a trace.
class BannerQueue
{
public:
    struct Entry
    {
        qint64 messageId = 0;
        QString fromId;
        QString fromName;
        QString text;
        QString type;
        QString sentAt;
        qint64 replyTo = 0; // 0 = none
        QString metadataJson; // compact JSON, empty = none
        qint64 pushedAtMs = 0;
    };

    static constexpr int DefaultCapacity = 50;
    static constexpr qint64 DefaultGraceMs = 5000;

    explicit BannerQueue(int capacity = DefaultCapacity);

    void push(Entry entry);
    // Entries pushed at least graceMs before nowMs, removed from the queue, oldest first.
    QList<Entry> takeDue(qint64 nowMs, qint64 graceMs = DefaultGraceMs);
    QList<Entry> takeAll();
    // Entries dropped by the overflow rule since the last call; resets the count.
    int takeOmitted();
    int omitted() const { return m_omitted; }

    int size() const { return int(m_entries.size()); }
    int capacity() const { return m_capacity; }
    bool contains(qint64 messageId) const;
    bool remove(qint64 messageId); // false when it is not queued
    qint64 oldestPushedAtMs() const { return m_entries.isEmpty() ? 0 : m_entries.constFirst().pushedAtMs; }

private:
    int m_capacity;
    QList<Entry> m_entries;
    int m_omitted = 0;
};

} // namespace Mcp
