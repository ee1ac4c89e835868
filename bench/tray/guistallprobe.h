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
// the thread was busy, blocked, or not scheduled. The thread's own CPU time over the worst gap
// tells the first apart from the other two.
class GuiStallProbe : public QObject
{
    Q_OBJECT
public:
    explicit GuiStallProbe(int intervalMs = 5, QObject *parent = nullptr);

    void start();
    // Lateness of the gap that is still open (e.g. the time a shutdown took since the last tick).
    double openGapMs() const;
    QJsonObject result() const;

private:
    void tick();
    static qint64 threadCpuNs();

    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_intervalMs;
    qint64 m_lastTickNs = 0;
    qint64 m_lastCpuNs = 0;
    std::vector<float> m_latenessMs;
    double m_maxLatenessMs = 0;
    double m_maxGapCpuMs = 0; // this thread's CPU time during the worst gap
    qint64 m_cpuStartNs = 0;
};

} // namespace Bench
