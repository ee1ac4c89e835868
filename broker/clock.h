#pragma once

#include <QDateTime>
#include <QString>

#include <memory>

namespace Broker {

// Wall-clock time as the broker sees it: timestamps stored in the database, heartbeat age,
// purge cut-off and rate-limit windows. Tests inject a fake to move time without waiting.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0; // UTC

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
};

// A clock that only moves when told to (tests, benchmarks).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime start = QDateTime::currentDateTimeUtc()) : m_now(start.toUTC()) { }
    QDateTime now() const override { return m_now; }
    void advance(qint64 ms) { m_now = m_now.addMSecs(ms); }
    void set(const QDateTime &time) { m_now = time.toUTC(); }

private:
    QDateTime m_now;
};

std::shared_ptr<Clock> systemClock();

} // namespace Broker
