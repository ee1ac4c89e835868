#pragma once

#include "broker/internal/privateheader.h"

#include "broker/brokermodule.h"

#include <QList>
#include <QObject>
#include <QTimer>

namespace Broker {

class Clock;

// Runs the modules' periodic jobs on the broker's event loop. Due times are measured by the
// broker's clock (monotonic), not by the timer: the timer only wakes the scheduler when the
// next job should be due, and runDue() runs what the clock says is due. So a ManualClock drives
// the jobs in tests (advance, then runDue()) and a system-clock pause or suspend does not make
// a job run twice.
class JobScheduler : public QObject
{
    Q_OBJECT
public:
    explicit JobScheduler(const Clock &clock, QObject *parent = nullptr);

    // A job's interval must be > 0 (code "module_job" otherwise).
    Result<void> add(const QString &module, ModuleJob job);
    // First runs one interval from now.
    void start();
    void stop();
    // Runs every job that is due by the clock now, once each, then re-arms the timer.
    void runDue();

    qsizetype size() const { return m_jobs.size(); }

private:
    struct Entry
    {
        QString module;
        ModuleJob job;
        qint64 dueMs = 0;
    };
    void arm();

    const Clock &m_clock;
    QList<Entry> m_jobs;
    QTimer m_timer;
    bool m_running = false;
};

} // namespace Broker
