#pragma once

#include <QDateTime>
#include <QString>
#include <QStringView>
#include <QTimeZone>

#include <bitset>
#include <expected>
#include <optional>

namespace OpenChamber {

// A cron expression as the reference's scheduler accepts it (docs/spec/control-service.md §9: the npm
// cron-parser syntax): five fields "minute hour day-of-month month day-of-week", or six with a
// leading seconds field; `*`, `?` (day fields), values, ranges `a-b`, steps `*/n`, `a-b/n`, `a/n`,
// lists, names (jan…dec, sun…sat, any case), day-of-week 0-7 (0 and 7 are Sunday), `L` (last day
// of the month), `nL` (last weekday n of the month), `n#k` (k-th weekday n), and the aliases
// @yearly @annually @monthly @weekly @daily @midnight @hourly. Day-of-month and day-of-week: when
// both are restricted a day matches either (as cron); a field starting with `*` counts as
// unrestricted. Time zones and DST: docs/decisions.md ("Cron in a time zone").
class CronExpression
{
public:
    static constexpr int maxLength = 1024; // parse refuses longer text (storage caps at 200)

    // A clear message naming the field and the value on failure.
    static std::expected<CronExpression, QString> parse(QStringView text);

    // The first occurrence strictly after `after`, as a UTC QDateTime, with the fields read as
    // wall-clock time in `zone`. A wall time that a DST gap skips fires once, at the end of the
    // gap; one that an overlap repeats fires once (at its first instant) unless the hour field is
    // unrestricted, then at both. Empty when nothing matches within searchYears (Feb 30) or the
    // zone is invalid.
    std::optional<QDateTime> next(const QDateTime &after, const QTimeZone &zone) const;

    static constexpr int searchYears = 50;
    bool hasSeconds() const { return m_hasSeconds; }

private:
    struct LocalTime
    {
        QDate date;
        int secondOfDay = 0;
    };
    bool dayMatches(QDate date) const;
    std::optional<int> firstTimeFrom(int secondOfDay) const;
    std::optional<LocalTime> nextLocalMatch(LocalTime from, QDate limit) const;

    std::bitset<60> m_seconds;
    std::bitset<60> m_minutes;
    std::bitset<24> m_hours;
    std::bitset<32> m_daysOfMonth; // 1..31
    std::bitset<13> m_months; // 1..12
    std::bitset<7> m_daysOfWeek; // 0 = Sunday
    std::bitset<7> m_lastWeekdayOfMonth; // "5L"
    std::bitset<7 * 6> m_nthWeekday; // "5#3" → bit 5*6+3
    bool m_lastDayOfMonth = false;
    bool m_dayOfMonthStar = false;
    bool m_dayOfWeekStar = false;
    bool m_hourStar = false;
    bool m_hasSeconds = false;
};

} // namespace OpenChamber
