#include "app/tray/snapshotpublisher.h"

#include <algorithm>

namespace App {

SnapshotPublisher::SnapshotPublisher(Compute compute, QObject *parent)
    : QObject(parent), m_compute(std::move(compute))
{
    m_timer.setSingleShot(true);
    m_timer.callOnTimeout(this, &SnapshotPublisher::publish);
}

void SnapshotPublisher::setIntervalMs(int ms)
{
    m_intervalMs = std::max(0, ms);
}

void SnapshotPublisher::markDirty()
{
    if (m_timer.isActive())
        return;
    const qint64 wait = m_sinceLast.isValid() ? m_intervalMs - m_sinceLast.elapsed() : 0;
    m_timer.start(int(std::clamp<qint64>(wait, 0, m_intervalMs)));
}

void SnapshotPublisher::reset()
{
    m_timer.stop();
    m_hasValue = false;
    m_value = {};
}

void SnapshotPublisher::publish()
{
    m_sinceLast.start();
    ++m_computes;
    BrokerSnapshot next = m_compute();
    if (m_hasValue && next == m_value)
        return;
    m_value = std::move(next);
    m_hasValue = true;
    Q_EMIT published(m_value);
}

} // namespace App
