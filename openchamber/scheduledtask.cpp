#include "openchamber/scheduledtask.h"

#include "openchamber/cronexpression.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimeZone>

#include <algorithm>

namespace OpenChamber {

namespace {

const QString kindNames[] = {QStringLiteral("daily"), QStringLiteral("weekly"), QStringLiteral("once"),
                             QStringLiteral("cron")};

void setOptional(QJsonObject &json, const QString &key, const std::optional<qint64> &value)
{
    if (value)
        json.insert(key, double(*value));
}

void setNonEmpty(QJsonObject &json, const QString &key, const QString &value)
{
    if (!value.isEmpty())
        json.insert(key, value);
}

QTimeZone zoneOf(const TaskSchedule &schedule)
{
    QTimeZone zone(schedule.timezone.toUtf8());
    return zone.isValid() ? zone : QTimeZone::utc();
}

// The next time the wall clock in zone shows hh:mm on one of weekdays (empty: any day), after
// `after`; DST gaps and overlaps as cron (CronExpression).
std::optional<qint64> nextWallTime(const QString &hhmm, const QString &weekdays, const QTimeZone &zone,
                                   const QDateTime &after)
{
    const auto cron = CronExpression::parse(QStringLiteral("%1 %2 * * %3")
                                                .arg(hhmm.mid(3, 2).toInt())
                                                .arg(hhmm.left(2).toInt())
                                                .arg(weekdays.isEmpty() ? QStringLiteral("*") : weekdays));
    if (!cron)
        return std::nullopt;
    const auto next = cron->next(after, zone);
    return next ? std::optional<qint64>(next->toMSecsSinceEpoch()) : std::nullopt;
}

// The instant the wall clock in zone shows date + hh:mm (a time in a DST gap: the gap's end).
std::optional<qint64> wallTimeOn(const QDate &date, const QString &hhmm, const QTimeZone &zone)
{
    const auto cron = CronExpression::parse(QStringLiteral("%1 %2 %3 %4 *")
                                                .arg(hhmm.mid(3, 2).toInt())
                                                .arg(hhmm.left(2).toInt())
                                                .arg(date.day())
                                                .arg(date.month()));
    if (!cron)
        return std::nullopt;
    const QDateTime searchFrom(date.addDays(-2), QTime(0, 0), QTimeZone::utc());
    const auto next = cron->next(searchFrom, zone);
    if (!next || *next >= QDateTime(date.addDays(2), QTime(0, 0), QTimeZone::utc()))
        return std::nullopt;
    return next->toMSecsSinceEpoch();
}

} // namespace

QString scheduleKindName(TaskSchedule::Kind kind)
{
    return kindNames[int(kind)];
}

bool isValidClockTime(const QString &text)
{
    if (text.size() != 5 || text.at(2) != u':')
        return false;
    for (int i : {0, 1, 3, 4}) {
        if (text.at(i) < u'0' || text.at(i) > u'9')
            return false;
    }
    return text.left(2).toInt() <= 23 && text.mid(3).toInt() <= 59;
}

bool isIanaTimeZone(const QString &id)
{
    // Qt 6.4's isTimeZoneIdAvailable() knows only the zones of tzdata's zone.tab and UTC, so it refuses
    // "Etc/UTC", the system zone of many servers; QTimeZone itself loads them. The id is a file
    // name under /usr/share/zoneinfo there, so it is checked as a zone name first (no "..", no
    // leading '/', the characters of tzdata's names).
    if (id.isEmpty() || id.size() > 64 || id.startsWith(u'/') || id.contains(QLatin1String("..")))
        return false;
    for (const QChar c : id) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != u'/' && c != u'_' && c != u'-' && c != u'+')
            return false;
    }
    return QTimeZone::isTimeZoneIdAvailable(id.toUtf8()) || QTimeZone(id.toUtf8()).isValid();
}

QJsonObject TaskSchedule::toJson() const
{
    QJsonObject json {{QStringLiteral("kind"), scheduleKindName(kind)}};
    switch (kind) {
    case Kind::Weekly:
        json.insert(QStringLiteral("weekdays"), QJsonArray::fromVariantList([this] {
                        QVariantList list;
                        for (int day : weekdays)
                            list.append(day);
                        return list;
                    }()));
        [[fallthrough]];
    case Kind::Daily:
        json.insert(QStringLiteral("times"), QJsonArray::fromStringList(times));
        break;
    case Kind::Once:
        json.insert(QStringLiteral("date"), date);
        json.insert(QStringLiteral("time"), time);
        break;
    case Kind::Cron:
        json.insert(QStringLiteral("cron"), cron);
        break;
    }
    json.insert(QStringLiteral("timezone"), timezone);
    return json;
}

std::expected<TaskSchedule, QString> TaskSchedule::fromJson(const QJsonObject &json)
{
    TaskSchedule schedule;
    const QString kind = json.value(QStringLiteral("kind")).toString();
    const auto found = std::find(std::begin(kindNames), std::end(kindNames), kind);
    if (found == std::end(kindNames))
        return std::unexpected(QStringLiteral("schedule.kind must be daily, weekly, once, or cron"));
    schedule.kind = Kind(found - std::begin(kindNames));
    for (const QJsonValue &time : json.value(QStringLiteral("times")).toArray())
        schedule.times.append(time.toString());
    if (schedule.times.isEmpty() && json.value(QStringLiteral("time")).isString() &&
        schedule.kind != Kind::Once)
        schedule.times.append(json.value(QStringLiteral("time")).toString()); // legacy single time
    for (const QJsonValue &day : json.value(QStringLiteral("weekdays")).toArray())
        schedule.weekdays.append(day.isDouble() && day.toDouble() == double(day.toInt()) ? day.toInt() : -1);
    schedule.date = json.value(QStringLiteral("date")).toString();
    schedule.time = json.value(QStringLiteral("time")).toString();
    schedule.cron = json.value(QStringLiteral("cron")).toString();
    schedule.timezone = json.value(QStringLiteral("timezone")).toString();
    return schedule;
}

QJsonObject TaskExecution::toJson() const
{
    if (!peer.isEmpty())
        return {{QStringLiteral("prompt"), prompt}, {QStringLiteral("peer"), peer}};
    QJsonObject json {{QStringLiteral("prompt"), prompt},
                      {QStringLiteral("providerID"), providerID},
                      {QStringLiteral("modelID"), modelID}};
    setNonEmpty(json, QStringLiteral("variant"), variant);
    setNonEmpty(json, QStringLiteral("agent"), agent);
    if (goalEnabled)
        json.insert(QStringLiteral("goalEnabled"), true);
    setOptional(json, QStringLiteral("goalTokenBudget"), goalTokenBudget);
    return json;
}

TaskExecution TaskExecution::fromJson(const QJsonObject &json)
{
    TaskExecution execution;
    execution.prompt = json.value(QStringLiteral("prompt")).toString();
    execution.peer = json.value(QStringLiteral("peer")).toString();
    execution.providerID = json.value(QStringLiteral("providerID")).toString();
    execution.modelID = json.value(QStringLiteral("modelID")).toString();
    execution.variant = json.value(QStringLiteral("variant")).toString();
    execution.agent = json.value(QStringLiteral("agent")).toString();
    execution.goalEnabled = json.value(QStringLiteral("goalEnabled")).toBool();
    if (json.value(QStringLiteral("goalTokenBudget")).isDouble())
        execution.goalTokenBudget = qint64(json.value(QStringLiteral("goalTokenBudget")).toDouble());
    return execution;
}

QJsonObject TaskState::toJson() const
{
    QJsonObject json {{QStringLiteral("createdAt"), double(createdAt)},
                      {QStringLiteral("updatedAt"), double(updatedAt)},
                      {QStringLiteral("lastStatus"), lastStatus}};
    setOptional(json, QStringLiteral("lastRunAt"), lastRunAt);
    setOptional(json, QStringLiteral("lastDurationMs"), lastDurationMs);
    setOptional(json, QStringLiteral("nextRunAt"), nextRunAt);
    setOptional(json, QStringLiteral("lastScheduledFor"), lastScheduledFor);
    setNonEmpty(json, QStringLiteral("lastSessionId"), lastSessionId);
    setNonEmpty(json, QStringLiteral("lastError"), lastError);
    setOptional(json, QStringLiteral("lastMessageId"), lastMessageId);
    setNonEmpty(json, QStringLiteral("lastPeerId"), lastPeerId);
    return json;
}

QJsonObject ScheduledTask::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("name"), name},
            {QStringLiteral("enabled"), enabled},
            {QStringLiteral("schedule"), schedule.toJson()},
            {QStringLiteral("execution"), execution.toJson()},
            {QStringLiteral("state"), state.toJson()}};
}

std::expected<void, QString> ScheduledTask::validate()
{
    name = name.trimmed();
    if (name.isEmpty())
        return std::unexpected(QStringLiteral("name is required"));
    if (name.size() > maxNameLength)
        return std::unexpected(
            QStringLiteral("name is invalid: longer than %1 characters").arg(maxNameLength));
    if (execution.prompt.trimmed().isEmpty())
        return std::unexpected(QStringLiteral("execution.prompt is required"));
    if (execution.prompt.size() > maxPromptLength)
        return std::unexpected(
            QStringLiteral("execution.prompt is invalid: longer than %1 characters").arg(maxPromptLength));
    if (targetsPeer()) {
        execution.peer = execution.peer.trimmed();
        if (execution.peer.isEmpty() || execution.peer.size() > maxPeerLength)
            return std::unexpected(
                QStringLiteral("execution.peer is invalid: 1 to %1 characters").arg(maxPeerLength));
        if (execution.prompt.size() > maxPeerPromptLength)
            return std::unexpected(
                QStringLiteral("execution.prompt is invalid: a message to a peer holds at most %1 characters")
                    .arg(maxPeerPromptLength));
    } else if (execution.providerID.isEmpty()) {
        return std::unexpected(QStringLiteral("execution.providerID is required"));
    } else if (execution.modelID.isEmpty()) {
        return std::unexpected(QStringLiteral("execution.modelID is required"));
    }

    if (schedule.timezone.isEmpty()) {
        const QByteArray system = QTimeZone::systemTimeZoneId();
        schedule.timezone = QTimeZone(system).isValid() ? QString::fromUtf8(system) : QStringLiteral("UTC");
    } else if (!isIanaTimeZone(schedule.timezone)) {
        return std::unexpected(QStringLiteral("schedule.timezone is invalid: %1 is not an IANA time zone")
                                   .arg(schedule.timezone));
    }

    using Kind = TaskSchedule::Kind;
    if (schedule.kind == Kind::Daily || schedule.kind == Kind::Weekly) {
        if (schedule.times.isEmpty())
            return std::unexpected(QStringLiteral("schedule.times is required"));
        for (QString &time : schedule.times) {
            time = time.trimmed();
            if (!isValidClockTime(time))
                return std::unexpected(
                    QStringLiteral("schedule.times is invalid: '%1' is not HH:mm").arg(time));
        }
        std::sort(schedule.times.begin(), schedule.times.end());
        schedule.times.erase(std::unique(schedule.times.begin(), schedule.times.end()), schedule.times.end());
    }
    if (schedule.kind == Kind::Weekly) {
        if (schedule.weekdays.isEmpty())
            return std::unexpected(QStringLiteral("schedule.weekdays is required"));
        for (int day : std::as_const(schedule.weekdays)) {
            if (day < 0 || day > 6)
                return std::unexpected(QStringLiteral(
                    "schedule.weekdays is invalid: weekdays are integers from 0 (Sunday) to 6"));
        }
        std::sort(schedule.weekdays.begin(), schedule.weekdays.end());
        schedule.weekdays.erase(std::unique(schedule.weekdays.begin(), schedule.weekdays.end()),
                                schedule.weekdays.end());
    }
    if (schedule.kind == Kind::Once) {
        schedule.date = schedule.date.trimmed();
        schedule.time = schedule.time.trimmed();
        if (schedule.date.isEmpty())
            return std::unexpected(QStringLiteral("schedule.date is required"));
        if (schedule.date.size() != 10 ||
            !QDate::fromString(schedule.date, QStringLiteral("yyyy-MM-dd")).isValid())
            return std::unexpected(
                QStringLiteral("schedule.date is invalid: '%1' is not a real YYYY-MM-DD date")
                    .arg(schedule.date));
        if (schedule.time.isEmpty())
            return std::unexpected(QStringLiteral("schedule.time is required"));
        if (!isValidClockTime(schedule.time))
            return std::unexpected(
                QStringLiteral("schedule.time is invalid: '%1' is not HH:mm").arg(schedule.time));
    }
    if (schedule.kind == Kind::Cron) {
        schedule.cron = schedule.cron.trimmed();
        if (schedule.cron.isEmpty())
            return std::unexpected(QStringLiteral("schedule.cron is required"));
        if (schedule.cron.size() > maxCronLength)
            return std::unexpected(
                QStringLiteral("schedule.cron is invalid: longer than %1 characters").arg(maxCronLength));
        if (const auto cron = CronExpression::parse(schedule.cron); !cron)
            return std::unexpected(QStringLiteral("schedule.cron is invalid: %1").arg(cron.error()));
    }
    return {};
}

std::optional<qint64> ScheduledTask::computeNextRunAt(qint64 nowMs) const
{
    if (!enabled)
        return std::nullopt;
    const QTimeZone zone = zoneOf(schedule);
    const QDateTime afterSlack = QDateTime::fromMSecsSinceEpoch(nowMs + slackMs, QTimeZone::utc());
    using Kind = TaskSchedule::Kind;
    switch (schedule.kind) {
    case Kind::Daily:
    case Kind::Weekly: {
        QStringList days;
        for (int day : schedule.weekdays)
            days.append(QString::number(day));
        const QString weekdays = schedule.kind == Kind::Weekly ? days.join(u',') : QString();
        if (schedule.kind == Kind::Weekly && weekdays.isEmpty())
            return std::nullopt;
        std::optional<qint64> earliest;
        for (const QString &time : schedule.times) {
            if (!isValidClockTime(time))
                continue;
            const auto next = nextWallTime(time, weekdays, zone, afterSlack);
            if (next && (!earliest || *next < *earliest))
                earliest = next;
        }
        return earliest;
    }
    case Kind::Once: {
        const QDate date = QDate::fromString(schedule.date, QStringLiteral("yyyy-MM-dd"));
        if (!date.isValid() || !isValidClockTime(schedule.time))
            return std::nullopt;
        const auto at = wallTimeOn(date, schedule.time, zone);
        if (!at || *at <= nowMs + slackMs)
            return std::nullopt;
        return at;
    }
    case Kind::Cron: {
        const auto cron = CronExpression::parse(schedule.cron);
        if (!cron)
            return std::nullopt;
        const auto next = cron->next(QDateTime::fromMSecsSinceEpoch(nowMs, QTimeZone::utc()), zone);
        return next ? std::optional<qint64>(next->toMSecsSinceEpoch()) : std::nullopt;
    }
    }
    return std::nullopt;
}

QString ScheduledTask::runTitle(qint64 atMs) const
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(atMs, zoneOf(schedule));
    const QString title = name + u' ' + at.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    return title.left(120);
}

} // namespace OpenChamber
