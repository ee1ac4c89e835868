#include "openchamber/cronexpression.h"

#include <QList>

namespace OpenChamber {

namespace {

struct FieldSpec
{
    QLatin1StringView name;
    int min;
    int max;
    const char *const *names = nullptr; // three-letter names, index + min
    int nameCount = 0;
};

const char *const monthNames[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                  "jul", "aug", "sep", "oct", "nov", "dec"};
const char *const dayNames[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

const FieldSpec secondSpec {QLatin1StringView("second"), 0, 59};
const FieldSpec minuteSpec {QLatin1StringView("minute"), 0, 59};
const FieldSpec hourSpec {QLatin1StringView("hour"), 0, 23};
const FieldSpec dayOfMonthSpec {QLatin1StringView("day-of-month"), 1, 31};
const FieldSpec monthSpec {QLatin1StringView("month"), 1, 12, monthNames, 12};
const FieldSpec dayOfWeekSpec {QLatin1StringView("day-of-week"), 0, 7, dayNames, 7};

using Bits = std::bitset<64>;
using Parsed = std::expected<void, QString>;

QString fieldError(const FieldSpec &spec, const QString &what)
{
    return QStringLiteral("cron field %1: %2").arg(spec.name, what);
}

std::expected<int, QString> parseValue(QStringView token, const FieldSpec &spec)
{
    if (token.isEmpty())
        return std::unexpected(fieldError(spec, QStringLiteral("a value is missing")));
    bool allDigits = true;
    for (QChar c : token)
        allDigits = allDigits && c >= u'0' && c <= u'9';
    if (allDigits) {
        const int value = token.size() > 4 ? spec.max + 1 : token.toInt();
        if (value < spec.min || value > spec.max)
            return std::unexpected(fieldError(
                spec, QStringLiteral("%1 is out of range %2-%3").arg(token).arg(spec.min).arg(spec.max)));
        return value;
    }
    for (int i = 0; i < spec.nameCount; ++i) {
        if (token.compare(QLatin1StringView(spec.names[i]), Qt::CaseInsensitive) == 0)
            return spec.min + i;
    }
    return std::unexpected(fieldError(spec, QStringLiteral("'%1' is not a valid value").arg(token)));
}

// "*", "a", "a-b", each optionally "/step": sets the bits of the values it names.
Parsed parseRangeItem(QStringView item, const FieldSpec &spec, Bits &bits)
{
    QStringView base = item;
    int step = 1;
    bool stepped = false;
    if (const qsizetype slash = item.indexOf(u'/'); slash >= 0) {
        base = item.first(slash);
        const QStringView stepText = item.sliced(slash + 1);
        bool ok = false;
        step = stepText.size() <= 4 ? stepText.toInt(&ok) : 0;
        if (!ok || step < 1 || stepText.startsWith(u'+') || stepText.startsWith(u'-'))
            return std::unexpected(
                fieldError(spec, QStringLiteral("step '%1' must be a positive number").arg(stepText)));
        stepped = true;
    }
    int from = spec.min;
    int to = spec.max;
    if (base == u"*") {
        // the whole range
    } else if (const qsizetype dash = base.indexOf(u'-'); dash >= 0) {
        const auto low = parseValue(base.first(dash), spec);
        if (!low)
            return std::unexpected(low.error());
        const auto high = parseValue(base.sliced(dash + 1), spec);
        if (!high)
            return std::unexpected(high.error());
        if (*low > *high)
            return std::unexpected(fieldError(spec, QStringLiteral("range %1 runs backwards").arg(base)));
        from = *low;
        to = *high;
    } else {
        const auto value = parseValue(base, spec);
        if (!value)
            return std::unexpected(value.error());
        from = *value;
        to = stepped ? spec.max : *value; // "a/n": from a to the end, as cron-parser
    }
    for (int value = from; value <= to; value += step)
        bits.set(size_t(value));
    return {};
}

struct DayExtras
{
    bool lastDayOfMonth = false;
    std::bitset<7> lastWeekday;
    std::bitset<42> nthWeekday;
};

Parsed parseField(QStringView text, const FieldSpec &spec, Bits &bits, DayExtras *extras)
{
    const bool isDayOfMonth = &spec == &dayOfMonthSpec;
    const bool isDayOfWeek = &spec == &dayOfWeekSpec;
    for (QStringView item : text.split(u',')) {
        if (item.isEmpty())
            return std::unexpected(fieldError(spec, QStringLiteral("a list has an empty item")));
        if (item == u"?" && (isDayOfMonth || isDayOfWeek)) {
            for (int value = spec.min; value <= spec.max; ++value)
                bits.set(size_t(value));
            continue;
        }
        if (isDayOfMonth && item.compare(u"L", Qt::CaseInsensitive) == 0) {
            extras->lastDayOfMonth = true;
            continue;
        }
        if (isDayOfWeek && item.size() > 1 && (item.endsWith(u'L') || item.endsWith(u'l'))) {
            const auto day = parseValue(item.chopped(1), spec);
            if (!day)
                return std::unexpected(day.error());
            extras->lastWeekday.set(size_t(*day % 7));
            continue;
        }
        if (isDayOfWeek && item.contains(u'#')) {
            const qsizetype hash = item.indexOf(u'#');
            const auto day = parseValue(item.first(hash), spec);
            if (!day)
                return std::unexpected(day.error());
            const QStringView nthText = item.sliced(hash + 1);
            const int nth = nthText.size() == 1 ? nthText.toInt() : 0;
            if (nth < 1 || nth > 5)
                return std::unexpected(
                    fieldError(spec, QStringLiteral("'%1': the week after # must be 1 to 5").arg(item)));
            extras->nthWeekday.set(size_t(*day % 7 * 6 + nth));
            continue;
        }
        if (const auto parsed = parseRangeItem(item, spec, bits); !parsed)
            return parsed;
    }
    if (isDayOfWeek && bits.test(7)) {
        bits.reset(7);
        bits.set(0);
    }
    return {};
}

template<size_t N> std::bitset<N> narrow(const Bits &bits)
{
    std::bitset<N> out;
    for (size_t i = 0; i < N; ++i)
        out.set(i, bits.test(i));
    return out;
}

QString expandAlias(QStringView text)
{
    static const struct
    {
        const char16_t *alias;
        const char16_t *expression;
    } aliases[] = {{u"@yearly", u"0 0 1 1 *"}, {u"@annually", u"0 0 1 1 *"}, {u"@monthly", u"0 0 1 * *"},
                   {u"@weekly", u"0 0 * * 0"}, {u"@daily", u"0 0 * * *"},    {u"@midnight", u"0 0 * * *"},
                   {u"@hourly", u"0 * * * *"}};
    for (const auto &entry : aliases) {
        if (text.compare(QStringView(entry.alias), Qt::CaseInsensitive) == 0)
            return QString::fromUtf16(entry.expression);
    }
    return text.toString();
}

constexpr qint64 secondsPerDay = 86400;
const QDate epochDate(1970, 1, 1);

qint64 floorDiv(qint64 a, qint64 b)
{
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

QDateTime utcAt(qint64 secs)
{
    return QDateTime::fromSecsSinceEpoch(secs, QTimeZone::utc());
}

} // namespace

std::expected<CronExpression, QString> CronExpression::parse(QStringView text)
{
    if (text.size() > maxLength)
        return std::unexpected(QStringLiteral("cron expression is longer than %1 characters").arg(maxLength));
    const QString expanded = expandAlias(text.trimmed());
    if (expanded.startsWith(u'@'))
        return std::unexpected(
            QStringLiteral("unknown cron alias %1 (use @yearly, @annually, @monthly, @weekly, "
                           "@daily, @midnight or @hourly)")
                .arg(expanded));
    const QList<QStringView> fields = QStringView(expanded).split(u' ', Qt::SkipEmptyParts);
    QList<QStringView> parts;
    for (QStringView field : fields) {
        for (QStringView part : field.split(u'\t', Qt::SkipEmptyParts))
            parts.append(part);
    }
    if (parts.size() != 5 && parts.size() != 6)
        return std::unexpected(
            QStringLiteral("cron expression needs 5 fields (minute hour day-of-month month "
                           "day-of-week) or 6 with seconds first; it has %1")
                .arg(parts.size()));

    CronExpression cron;
    cron.m_hasSeconds = parts.size() == 6;
    if (!cron.m_hasSeconds)
        parts.prepend(u"0");
    const FieldSpec *specs[] = {&secondSpec,     &minuteSpec, &hourSpec,
                                &dayOfMonthSpec, &monthSpec,  &dayOfWeekSpec};
    Bits bits[6];
    DayExtras extras;
    for (int i = 0; i < 6; ++i) {
        if (const auto parsed = parseField(parts[i], *specs[i], bits[i], &extras); !parsed)
            return std::unexpected(parsed.error());
    }
    cron.m_seconds = narrow<60>(bits[0]);
    cron.m_minutes = narrow<60>(bits[1]);
    cron.m_hours = narrow<24>(bits[2]);
    cron.m_daysOfMonth = narrow<32>(bits[3]);
    cron.m_months = narrow<13>(bits[4]);
    cron.m_daysOfWeek = narrow<7>(bits[5]);
    cron.m_lastDayOfMonth = extras.lastDayOfMonth;
    cron.m_lastWeekdayOfMonth = extras.lastWeekday;
    cron.m_nthWeekday = extras.nthWeekday;
    // As cron: a day field whose text starts with '*' (or is '?') does not widen the other.
    cron.m_dayOfMonthStar = parts[3].startsWith(u'*') || parts[3] == u"?";
    cron.m_dayOfWeekStar = parts[5].startsWith(u'*') || parts[5] == u"?";
    cron.m_hourStar = parts[2].startsWith(u'*');
    return cron;
}

bool CronExpression::dayMatches(QDate date) const
{
    const int day = date.day();
    const int daysInMonth = date.daysInMonth();
    const int weekday = date.dayOfWeek() % 7;
    const bool dayOfMonth = m_daysOfMonth.test(size_t(day)) || (m_lastDayOfMonth && day == daysInMonth);
    const bool dayOfWeek = m_daysOfWeek.test(size_t(weekday)) ||
        (m_lastWeekdayOfMonth.test(size_t(weekday)) && day + 7 > daysInMonth) ||
        m_nthWeekday.test(size_t(weekday * 6 + (day - 1) / 7 + 1));
    if (m_dayOfMonthStar || m_dayOfWeekStar)
        return dayOfMonth && dayOfWeek;
    return dayOfMonth || dayOfWeek;
}

std::optional<int> CronExpression::firstTimeFrom(int secondOfDay) const
{
    const int hour = secondOfDay / 3600;
    const int minute = secondOfDay / 60 % 60;
    const int second = secondOfDay % 60;
    for (int h = hour; h < 24; ++h) {
        if (!m_hours.test(size_t(h)))
            continue;
        for (int m = h == hour ? minute : 0; m < 60; ++m) {
            if (!m_minutes.test(size_t(m)))
                continue;
            for (int s = (h == hour && m == minute) ? second : 0; s < 60; ++s) {
                if (m_seconds.test(size_t(s)))
                    return h * 3600 + m * 60 + s;
            }
        }
    }
    return std::nullopt;
}

std::optional<CronExpression::LocalTime> CronExpression::nextLocalMatch(LocalTime from, QDate limit) const
{
    QDate date = from.date;
    int secondOfDay = from.secondOfDay;
    while (date.isValid() && date <= limit) {
        if (!m_months.test(size_t(date.month()))) {
            date = QDate(date.year(), date.month(), 1).addMonths(1);
            secondOfDay = 0;
            continue;
        }
        if (dayMatches(date)) {
            if (const auto time = firstTimeFrom(secondOfDay))
                return LocalTime {date, *time};
        }
        date = date.addDays(1);
        secondOfDay = 0;
    }
    return std::nullopt;
}

// Walks forward in UTC instants; at each step the wall-clock time is searched in the calendar,
// then mapped back with the offset in force. Crossing a transition restarts the search from it,
// so that a gap's skipped times and an overlap's repeated ones are seen (decisions.md).
std::optional<QDateTime> CronExpression::next(const QDateTime &after, const QTimeZone &zone) const
{
    if (!zone.isValid() || !after.isValid())
        return std::nullopt;
    const qint64 step = m_hasSeconds ? 1 : 60;
    const auto offsetAt = [&zone](qint64 secs) { return zone.offsetFromUtc(utcAt(secs)); };
    const auto toLocal = [](qint64 local) {
        const qint64 days = floorDiv(local, secondsPerDay);
        return LocalTime {epochDate.addDays(days), int(local - days * secondsPerDay)};
    };
    const auto fromLocal = [](const LocalTime &local) {
        return epochDate.daysTo(local.date) * secondsPerDay + local.secondOfDay;
    };
    // The end of the overlap whose second pass t is in, when it is.
    const auto repeatedUntil = [&](qint64 t) -> std::optional<qint64> {
        const QTimeZone::OffsetData previous = zone.previousTransition(utcAt(t + 1));
        if (!previous.atUtc.isValid())
            return std::nullopt;
        const qint64 at = previous.atUtc.toSecsSinceEpoch();
        const int before = offsetAt(at - 1);
        if (before > previous.offsetFromUtc && t < at + (before - previous.offsetFromUtc))
            return at + (before - previous.offsetFromUtc);
        return std::nullopt;
    };

    qint64 t = floorDiv(after.toMSecsSinceEpoch(), 1000) + 1;
    const QDate limit = toLocal(t + offsetAt(t)).date.addYears(searchYears);
    if (!limit.isValid())
        return std::nullopt;
    // Each pass moves t forward to a match, a transition or past an overlap: a few passes per
    // transition crossed, so the guard is never reached for a valid zone.
    for (int guard = 0; guard < 100000; ++guard) {
        const int offset = offsetAt(t);
        qint64 local = t + offset;
        if (const qint64 misaligned = local - floorDiv(local, step) * step; misaligned != 0) {
            t += step - misaligned;
            continue;
        }
        const auto match = nextLocalMatch(toLocal(local), limit);
        if (!match)
            return std::nullopt;
        const qint64 matchLocal = fromLocal(*match);
        if (matchLocal == local) {
            if (!m_hourStar) {
                if (const auto end = repeatedUntil(t)) {
                    t = *end; // a fixed wall time fires once in an overlap: at its first pass
                    continue;
                }
            }
            return utcAt(t);
        }
        const qint64 candidate = matchLocal - offset;
        const QTimeZone::OffsetData transition = zone.nextTransition(utcAt(t));
        const qint64 transitionAt = transition.atUtc.isValid() ? transition.atUtc.toSecsSinceEpoch() : 0;
        if (!transition.atUtc.isValid() || transitionAt <= t || transitionAt > candidate) {
            t = candidate;
            continue;
        }
        if (transition.offsetFromUtc > offset && matchLocal < transitionAt + transition.offsetFromUtc)
            return utcAt(transitionAt); // the wall time is in the gap: it fires when the gap ends
        t = transitionAt;
    }
    return std::nullopt;
}

} // namespace OpenChamber
