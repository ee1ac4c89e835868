#pragma once

#include "broker/internal/privateheader.h"

#include <QElapsedTimer>
#include <QHash>
#include <QString>

namespace Broker {

class Clock;

// How long each local peer has been silent, measured so that neither the wall clock nor a pause
// of the broker itself makes a live peer look dead (issue 7 §1.6):
// - silence runs on the clock's monotonic time: NTP steps and date changes do not count;
// - a jump of the wall clock against monotonic time (suspend and resume, an NTP step) or a
//   pause of the broker's own event loop (SIGSTOP, a debugger, a starved machine) starts a
//   grace period: every peer's silence is counted again from that moment, so the helpers have a
//   full heartbeat timeout to reconnect before anyone is evicted or has mail bounced.
// Silence is never counted from before the broker started (a restart is a grace period too).
class PeerSilence
{
public:
    explicit PeerSilence(const Clock &clock);

    void heard(const QString &peerId); // any request of the peer
    void forget(const QString &peerId);
    qint64 silentMs(const QString &peerId); // looks at the clocks first

    // Compares the clocks with the previous look; run on a timer so that an idle broker notices
    // its own pauses. A gap of more than pauseThresholdMs of real time between two looks counts
    // as a pause of the broker.
    void observe();
    void setPauseThresholdMs(qint64 ms) { m_pauseThresholdMs = ms; }

    // Wall and monotonic time may drift apart this much between two looks before it counts
    // as a jump (NTP slews at most 0.5 ms/s).
    static constexpr qint64 jumpToleranceMs = 2000;

private:
    void startGrace(qint64 monotonicNow);

    const Clock &m_clock;
    QHash<QString, qint64> m_lastHeard; // monotonic ms
    qint64 m_graceFrom = 0; // monotonic ms: broker start or the last jump or pause
    qint64 m_lastWallMs = 0;
    qint64 m_lastMonotonicMs = 0;
    // Real time, not the injected clock: a pause is the broker not running, which a test clock
    // moved forward by hand is not.
    QElapsedTimer m_sinceLastLook;
    qint64 m_pauseThresholdMs = 15000;
};

} // namespace Broker
