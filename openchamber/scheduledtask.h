#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <expected>
#include <optional>

namespace OpenChamber {

// A scheduled task as the contract's data model (docs/spec/control-service.md §9.1), kept in
// the broker's database by ScheduleStore; times are milliseconds since the epoch (UTC).
struct TaskSchedule
{
    enum class Kind { Daily, Weekly, Once, Cron };
    Kind kind = Kind::Daily;
    QStringList times; // "HH:mm", sorted, unique (daily, weekly)
    QList<int> weekdays; // 0 = Sunday, sorted, unique (weekly)
    QString date; // "YYYY-MM-DD" (once)
    QString time; // "HH:mm" (once)
    QString cron; // (cron)
    QString timezone; // IANA id; empty until normalized

    QJsonObject toJson() const;
    static std::expected<TaskSchedule, QString> fromJson(const QJsonObject &json);
};

struct TaskExecution
{
    QString prompt;
    // Our extension (docs/divergences.md "Scheduled tasks that message a peer"): the session name
    // (or id) of a local peer the prompt goes to as a broker message, instead of a new OpenCode
    // session. Empty for the contract's tasks, which need providerID and modelID.
    QString peer;
    QString providerID;
    QString modelID;
    QString variant;
    QString agent;
    bool goalEnabled = false;
    std::optional<qint64> goalTokenBudget;

    QJsonObject toJson() const;
    static TaskExecution fromJson(const QJsonObject &json);
};

struct TaskState
{
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    QString lastStatus = QStringLiteral("idle"); // idle | running | success | error
    std::optional<qint64> lastRunAt;
    std::optional<qint64> lastDurationMs;
    std::optional<qint64> nextRunAt;
    std::optional<qint64> lastScheduledFor;
    QString lastSessionId;
    QString lastError; // ≤ 2000 characters
    // A peer task's last run: the broker message it stored and the peer it resolved to.
    std::optional<qint64> lastMessageId;
    QString lastPeerId;

    QJsonObject toJson() const;
};

struct ScheduledTask
{
    static constexpr int maxNameLength = 80;
    static constexpr int maxPromptLength = 20000;
    static constexpr int maxErrorLength = 2000;
    static constexpr int maxCronLength = 200;
    // docs/spec/control-service.md §9.2: an occurrence must be later than now + 5 s
    static constexpr qint64 slackMs = 5000;
    // A peer task's prompt is one broker message: text + metadata ≤ 10240 UTF-16 code units
    // (docs/spec/peers-api.md §11.4), the metadata naming the task takes the rest.
    static constexpr int maxPeerPromptLength = 9000;
    static constexpr int maxPeerLength = 200;

    QString id;
    QString projectId;
    QString name;
    bool enabled = true;
    TaskSchedule schedule;
    TaskExecution execution;
    TaskState state;

    QJsonObject toJson() const; // docs/spec/control-service.md §9.1's Task object

    bool targetsPeer() const { return !execution.peer.isEmpty(); }

    // docs/spec/control-service.md §9.1's checks on write; normalizes times, weekdays and the time
    // zone (default: the system's, else UTC). The message names the field
    // ("schedule.timezone is invalid: …").
    std::expected<void, QString> validate();

    // docs/spec/control-service.md §9.2: none when disabled; the next occurrence later than
    // now + 5 s in the task's zone.
    std::optional<qint64> computeNextRunAt(qint64 nowMs) const;

    // "<name> YYYY-MM-DD HH:mm" in the task's zone, at most 120 characters
    // (docs/spec/control-service.md §9.3).
    QString runTitle(qint64 atMs) const;
};

QString scheduleKindName(TaskSchedule::Kind kind);
bool isValidClockTime(const QString &text); // "HH:mm", 00:00 to 23:59
bool isIanaTimeZone(const QString &id); // "Europe/Kyiv", "Etc/UTC", "UTC"; never a path

} // namespace OpenChamber
