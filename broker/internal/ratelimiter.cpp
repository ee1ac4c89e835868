#include "broker/internal/ratelimiter.h"

namespace Broker {

RateLimiter::RateLimiter(int limitPerWindow, qint64 windowMs) : m_limit(limitPerWindow), m_windowMs(windowMs)
{
}

bool RateLimiter::allow(const QString &key, qint64 nowMs)
{
    if (m_limit <= 0)
        return true;
    auto it = m_windows.find(key);
    if (it == m_windows.end() || nowMs >= it->resetAtMs) {
        m_windows.insert(key, Window {nowMs + m_windowMs, 1});
        return true;
    }
    ++it->count;
    return it->count <= m_limit;
}

void RateLimiter::collectGarbage(qint64 nowMs)
{
    for (auto it = m_windows.begin(); it != m_windows.end();) {
        if (nowMs >= it->resetAtMs)
            it = m_windows.erase(it);
        else
            ++it;
    }
}

} // namespace Broker
