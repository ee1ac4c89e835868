#pragma once

#include "broker/internal/privateheader.h"

#include <QHash>
#include <QString>

namespace Broker {

// Fixed 60 s window per key (docs/spec/peers-api.md §11.6, but keyed by the sending peer instead of the
// shared X-Forwarded-For bucket): the first request opens a window with count 1, each later
// one in the window adds 1, count > limit is refused (refused requests count too).
class RateLimiter
{
public:
    explicit RateLimiter(int limitPerWindow = 60, qint64 windowMs = 60000);

    void setLimit(int limitPerWindow) { m_limit = limitPerWindow; } // 0 disables
    int limit() const { return m_limit; }

    // Counts the request; false when it is over the limit.
    bool allow(const QString &key, qint64 nowMs);
    // Drops expired windows (run every minute).
    void collectGarbage(qint64 nowMs);
    qsizetype size() const { return m_windows.size(); }

private:
    struct Window
    {
        qint64 resetAtMs = 0;
        qint64 count = 0;
    };
    int m_limit;
    qint64 m_windowMs;
    QHash<QString, Window> m_windows;
};

} // namespace Broker
