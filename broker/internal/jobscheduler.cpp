#include "broker/internal/jobscheduler.h"
#include "broker/brokerlogging.h"
#include "broker/clock.h"

#include <algorithm>
#include <exception>

namespace Broker {

JobScheduler::JobScheduler(const Clock &clock, QObject *parent) : QObject(parent), m_clock(clock)
{
    m_timer.setSingleShot(true);
    m_timer.callOnTimeout(this, &JobScheduler::runDue);
}

Result<void> JobScheduler::add(const QString &module, ModuleJob job)
{
    if (job.intervalMs <= 0 || !job.run)
        return fail(
            ErrorKind::ModuleJob,
            QStringLiteral("Module \"%1\": its job \"%2\" needs an interval above 0 ms and a function "
                           "to run (a bug in the module). The broker did not start.")
                .arg(module, job.name));
    m_jobs.append({module, std::move(job), 0});
    if (m_running) {
        m_jobs.last().dueMs = m_clock.monotonicMs() + m_jobs.last().job.intervalMs;
        arm();
    }
    return {};
}

void JobScheduler::start()
{
    m_running = true;
    const qint64 now = m_clock.monotonicMs();
    for (Entry &entry : m_jobs)
        entry.dueMs = now + entry.job.intervalMs;
    arm();
}

void JobScheduler::stop()
{
    m_running = false;
    m_timer.stop();
}

void JobScheduler::runDue()
{
    if (!m_running)
        return;
    // By index: a job may add another one.
    for (qsizetype i = 0; i < m_jobs.size() && m_running; ++i) {
        const qint64 now = m_clock.monotonicMs();
        if (m_jobs.at(i).dueMs > now)
            continue;
        m_jobs[i].dueMs = now + m_jobs.at(i).job.intervalMs; // no catching up on missed runs
        const std::function<void()> run = m_jobs.at(i).job.run;
        try {
            run();
        } catch (const std::exception &e) {
            qCWarning(lcMaintenance).noquote() << "Job" << m_jobs.at(i).job.name << "of module"
                                               << m_jobs.at(i).module << "threw:" << e.what();
        }
    }
    arm();
}

void JobScheduler::arm()
{
    if (!m_running || m_jobs.isEmpty()) {
        m_timer.stop();
        return;
    }
    qint64 next = m_jobs.first().dueMs;
    for (const Entry &entry : std::as_const(m_jobs))
        next = qMin(next, entry.dueMs);
    // A fake clock does not move with the timer: the wait is re-checked at least every minute.
    const qint64 wait = std::clamp<qint64>(next - m_clock.monotonicMs(), 0, 60000);
    m_timer.start(int(wait));
}

} // namespace Broker
