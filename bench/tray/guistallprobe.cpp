#include "bench/tray/guistallprobe.h"

#include <algorithm>

#include <fcntl.h>
#include <unistd.h>

namespace Bench {

GuiStallProbe::GuiStallProbe(int intervalMs, QObject *parent) : QObject(parent), m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    m_timer.callOnTimeout(this, &GuiStallProbe::tick);
}

GuiStallProbe::~GuiStallProbe()
{
    if (m_schedStatFd >= 0)
        ::close(m_schedStatFd);
}

void GuiStallProbe::start()
{
    m_schedStatFd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    m_latenessMs.reserve(1 << 16);
    m_ownLatenessMs.reserve(1 << 16);
    m_clock.start();
    m_lastTickNs = m_clock.nsecsElapsed();
    m_first = m_last = readSchedStat();
    m_timer.start();
}

GuiStallProbe::SchedStat GuiStallProbe::readSchedStat() const
{
    char buffer[128];
    const ssize_t n = m_schedStatFd < 0 ? -1 : ::pread(m_schedStatFd, buffer, sizeof buffer - 1, 0);
    if (n <= 0)
        return {};
    const QList<QByteArray> fields = QByteArray(buffer, n).simplified().split(' ');
    if (fields.size() < 2)
        return {};
    return {fields.at(0).toLongLong(), fields.at(1).toLongLong()};
}

void GuiStallProbe::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const SchedStat stat = readSchedStat();
    const double lateness = std::max(0.0, double(now - m_lastTickNs) / 1e6 - m_intervalMs);
    const double waitMs = double(stat.waitNs - m_last.waitNs) / 1e6;
    m_latenessMs.push_back(float(lateness));
    m_ownLatenessMs.push_back(float(std::max(0.0, lateness - waitMs)));
    if (lateness > m_maxLatenessMs) {
        m_maxLatenessMs = lateness;
        m_worstGap = {stat.cpuNs - m_last.cpuNs, stat.waitNs - m_last.waitNs};
    }
    m_lastTickNs = now;
    m_last = stat;
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
    const auto over = [](const std::vector<float> &values, double ms) {
        return qint64(std::count_if(values.begin(), values.end(), [&](float v) { return v > ms; }));
    };
    const double maxOwn = m_ownLatenessMs.empty()
        ? 0.0
        : double(*std::max_element(m_ownLatenessMs.begin(), m_ownLatenessMs.end()));
    return QJsonObject {
        {QStringLiteral("interval_ms"), m_intervalMs},
        {QStringLiteral("ticks"), qint64(sorted.size())},
        {QStringLiteral("max_stall_ms"), m_maxLatenessMs},
        {QStringLiteral("max_stall_gui_cpu_ms"), double(m_worstGap.cpuNs) / 1e6},
        {QStringLiteral("max_stall_runqueue_wait_ms"), double(m_worstGap.waitNs) / 1e6},
        {QStringLiteral("max_stall_not_waiting_for_cpu_ms"), maxOwn},
        {QStringLiteral("p50_ms"), quantile(0.5)},
        {QStringLiteral("p99_ms"), quantile(0.99)},
        {QStringLiteral("p999_ms"), quantile(0.999)},
        {QStringLiteral("stalls_over_16ms"), over(m_latenessMs, 16)},
        {QStringLiteral("stalls_over_50ms"), over(m_latenessMs, 50)},
        {QStringLiteral("stalls_over_50ms_not_waiting_for_cpu"), over(m_ownLatenessMs, 50)},
        {QStringLiteral("gui_thread_cpu_ms"), double(m_last.cpuNs - m_first.cpuNs) / 1e6},
        {QStringLiteral("gui_thread_runqueue_wait_ms"), double(m_last.waitNs - m_first.waitNs) / 1e6},
        {QStringLiteral("seconds"), double(m_lastTickNs) / 1e9},
    };
}

} // namespace Bench
