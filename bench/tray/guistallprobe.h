#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <vector>

namespace Bench {

// Measures how long the event loop of the thread it lives on goes without running: a precise
// timer ticks every intervalMs, and each tick records its lateness (time since the previous
// tick minus the interval). A lateness of 80 ms means nothing on this thread ran for ~80 ms:
// the thread was busy, blocked, or runnable but not given a CPU. The kernel's schedstat of the
// thread (CPU time, time waiting in the run queue) splits each gap: lateness minus run-queue
// wait is what the process itself caused (work on this thread, or waiting for a lock or for
// another thread), the figure that a loaded machine does not inflate.
class GuiStallProbe : public QObject
{
    Q_OBJECT
public:
    explicit GuiStallProbe(int intervalMs = 5, QObject *parent = nullptr);
    ~GuiStallProbe() override;

    // On the thread to probe.
    void start();
    // Lateness of the gap that is still open (e.g. the time a shutdown took since the last tick).
    double openGapMs() const;
    QJsonObject result() const;

private:
    struct SchedStat
    {
        qint64 cpuNs = 0; // on a CPU
        qint64 waitNs = 0; // runnable, waiting in the run queue
    };
    void tick();
    SchedStat readSchedStat() const;

    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_intervalMs;
    int m_schedStatFd = -1; // /proc/thread-self/schedstat of the probed thread
    qint64 m_lastTickNs = 0;
    SchedStat m_last;
    SchedStat m_first;
    std::vector<float> m_latenessMs;
    std::vector<float> m_ownLatenessMs; // lateness minus run-queue wait
    double m_maxLatenessMs = 0;
    SchedStat m_worstGap; // what the thread did during the worst gap
};

} // namespace Bench
