#pragma once

#include <QDateTime>
#include <QString>

#include <memory>

namespace Broker {

// Time as the broker sees it. Wall-clock time for timestamps stored in the database, the purge
// cut-off and rate-limit windows; monotonic time for how long a peer has been silent, so that an
// NTP step or a changed date cannot make a live peer look dead. Tests inject a fake to move time
// without waiting.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0; // UTC
    // Milliseconds from an arbitrary origin, never stepped; like Linux's CLOCK_MONOTONIC it
    // stands still while the machine is suspended.
    virtual qint64 monotonicMs() const = 0;

    qint64 msecsSinceEpoch() const { return now().toMSecsSinceEpoch(); }
    // "2026-03-27T12:00:00.000Z", the reference's timestamp format.
    QString nowIso() const { return toIso(now()); }
    static QString toIso(const QDateTime &time);
    static QDateTime fromIso(const QString &iso); // invalid QDateTime when unparsable
};

class SystemClock final : public Clock
{
public:
    QDateTime now() const override { return QDateTime::currentDateTimeUtc(); }
    qint64 monotonicMs() const override; // std::chrono::steady_clock (CLOCK_MONOTONIC)
};

// A clock that only moves when told to (tests, benchmarks).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime start = QDateTime::currentDateTimeUtc()) : m_now(start.toUTC()) { }
    QDateTime now() const override { return m_now; }
    qint64 monotonicMs() const override { return m_monotonicMs; }
    // Time passes: both clocks move.
    void advance(qint64 ms)
    {
        m_now = m_now.addMSecs(ms);
        m_monotonicMs += ms;
    }
    // The wall clock is set (an NTP step, the user changing the date): monotonic time stays.
    void set(const QDateTime &time) { m_now = time.toUTC(); }
    // The machine sleeps for ms: the wall clock moves on, monotonic time does not.
    void suspend(qint64 ms) { m_now = m_now.addMSecs(ms); }

private:
    QDateTime m_now;
    qint64 m_monotonicMs = 1'000'000;
};

std::shared_ptr<Clock> systemClock();

} // namespace Broker
