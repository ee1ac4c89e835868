#include "guistallprobe.h"

#include <algorithm>
#include <ctime>

namespace Bench {

GuiStallProbe::GuiStallProbe(int intervalMs, QObject *parent) : QObject(parent), m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    m_timer.callOnTimeout(this, &GuiStallProbe::tick);
}

void GuiStallProbe::start()
{
    m_latenessMs.reserve(1 << 16);
    m_clock.start();
    m_lastTickNs = m_clock.nsecsElapsed();
    m_cpuStartNs = m_lastCpuNs = threadCpuNs();
    m_timer.start();
}

qint64 GuiStallProbe::threadCpuNs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void GuiStallProbe::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const qint64 cpu = threadCpuNs();
    const double lateness = std::max(0.0, double(now - m_lastTickNs) / 1e6 - m_intervalMs);
    m_latenessMs.push_back(float(lateness));
    if (lateness > m_maxLatenessMs) {
        m_maxLatenessMs = lateness;
        m_maxGapCpuMs = double(cpu - m_lastCpuNs) / 1e6;
    }
    m_lastTickNs = now;
    m_lastCpuNs = cpu;
}

double GuiStallProbe::openGapMs() const
{
    return m_clock.isValid() ? double(m_clock.nsecsElapsed() - m_lastTickNs) / 1e6 : 0;
}

QJsonObject GuiStallProbe::result() const
{
    std::vector<float> sorted = m_latenessMs;
    std::sort(sorted.begin(), sorted.end());
    const auto quantile = [&](double q) {
        return sorted.empty() ? 0.0 : double(sorted[size_t(q * double(sorted.size() - 1))]);
    };
    const auto over = [&](double ms) {
        return qint64(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), float(ms)));
    };
    return QJsonObject {
        {QStringLiteral("interval_ms"), m_intervalMs},
        {QStringLiteral("ticks"), qint64(sorted.size())},
        {QStringLiteral("max_stall_ms"), m_maxLatenessMs},
        {QStringLiteral("max_stall_gui_cpu_ms"), m_maxGapCpuMs},
        {QStringLiteral("p50_ms"), quantile(0.5)},
        {QStringLiteral("p99_ms"), quantile(0.99)},
        {QStringLiteral("p999_ms"), quantile(0.999)},
        {QStringLiteral("stalls_over_16ms"), over(16)},
        {QStringLiteral("stalls_over_50ms"), over(50)},
        {QStringLiteral("gui_thread_cpu_ms"), double(m_lastCpuNs - m_cpuStartNs) / 1e6},
        {QStringLiteral("seconds"), double(m_lastTickNs) / 1e9},
    };
}

} // namespace Bench
