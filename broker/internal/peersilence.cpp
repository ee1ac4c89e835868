#include "broker/internal/peersilence.h"
#include "broker/brokerlogging.h"
#include "broker/clock.h"

#include <cstdlib>

namespace Broker {

PeerSilence::PeerSilence(const Clock &clock)
    : m_clock(clock),
      m_graceFrom(clock.monotonicMs()),
      m_lastWallMs(clock.msecsSinceEpoch()),
      m_lastMonotonicMs(m_graceFrom)
{
    m_sinceLastLook.start();
}

void PeerSilence::heard(const QString &peerId)
{
    m_lastHeard.insert(peerId, m_clock.monotonicMs());
}

void PeerSilence::forget(const QString &peerId)
{
    m_lastHeard.remove(peerId);
}

qint64 PeerSilence::silentMs(const QString &peerId)
{
    observe();
    const qint64 since = qMax(m_graceFrom, m_lastHeard.value(peerId, m_graceFrom));
    return qMax<qint64>(0, m_clock.monotonicMs() - since);
}

void PeerSilence::observe()
{
    const qint64 wall = m_clock.msecsSinceEpoch();
    const qint64 monotonic = m_clock.monotonicMs();
    const qint64 jump = (wall - m_lastWallMs) - (monotonic - m_lastMonotonicMs);
    const qint64 paused = m_sinceLastLook.restart();
    m_lastWallMs = wall;
    m_lastMonotonicMs = monotonic;
    if (std::llabs(jump) > jumpToleranceMs) {
        qCInfo(lcMaintenance).noquote()
            << QStringLiteral("The wall clock jumped by %1 s (suspend and resume, or the time was set): "
                              "every peer gets a full heartbeat timeout again")
                   .arg(double(jump) / 1000.0, 0, 'f', 1);
        startGrace(monotonic);
    } else if (paused > m_pauseThresholdMs) {
        qCInfo(lcMaintenance).noquote()
            << QStringLiteral("The broker did not run for %1 s (stopped or starved): every peer gets a "
                              "full heartbeat timeout again")
                   .arg(double(paused) / 1000.0, 0, 'f', 1);
        startGrace(monotonic);
    }
}

void PeerSilence::startGrace(qint64 monotonicNow)
{
    m_graceFrom = monotonicNow;
}

} // namespace Broker
