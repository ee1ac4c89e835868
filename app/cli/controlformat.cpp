#include "app/cli/controlformat.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace Cli::ControlFormat {

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QString orNone(const QString &value)
{
    return value.isEmpty() ? QStringLiteral("(none)") : value;
}

QString statusType(const QJsonValue &status)
{
    return orNone(status.toObject().value(QLatin1String("type")).toString());
}

QString modelText(const QJsonValue &model)
{
    if (model.isString())
        return model.toString();
    const QJsonObject m = model.toObject();
    if (m.isEmpty())
        return {};
    return str(m, "providerID") + QLatin1Char('/') + str(m, "modelID");
}

QString localTime(const QJsonValue &ms)
{
    if (!ms.isDouble())
        return QStringLiteral("-");
    return QDateTime::fromMSecsSinceEpoch(ms.toInteger()).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QStringList projects(const QJsonObject &r, bool quiet)
{
    QStringList lines;
    const QJsonArray list = r.value(QLatin1String("projects")).toArray();
    for (const QJsonValue &v : list) {
        const QJsonObject p = v.toObject();
        lines << (quiet ? str(p, "id")
                        : QStringLiteral("%1  %2  %3").arg(str(p, "id"), str(p, "label"), str(p, "path")));
    }
    if (lines.isEmpty() && !quiet)
        lines << QStringLiteral("No projects configured.");
    return lines;
}

QStringList models(const QJsonObject &r, bool quiet)
{
    if (quiet)
        return {str(r, "defaultModel")};
    auto list = [&r](const char *key) {
        QStringList names;
        for (const QJsonValue &v : r.value(QLatin1String(key)).toArray())
            names << modelText(v);
        return names.isEmpty() ? QStringLiteral("(none)") : names.join(QStringLiteral(", "));
    };
    return {QStringLiteral("Default model: ") + orNone(str(r, "defaultModel")),
            QStringLiteral("Default variant: ") + orNone(str(r, "defaultVariant")),
            QStringLiteral("Default agent: ") + orNone(str(r, "defaultAgent")),
            QStringLiteral("Favorite models: ") + list("favoriteModels"),
            QStringLiteral("Recent models: ") + list("recentModels")};
}

QStringList sessionList(const QJsonObject &r, bool quiet)
{
    QStringList lines;
    for (const QJsonValue &v : r.value(QLatin1String("sessions")).toArray()) {
        const QJsonObject s = v.toObject();
        if (quiet) {
            lines << str(s, "id");
            continue;
        }
        QString line = str(s, "id");
        if (s.contains(QLatin1String("status")))
            line += QStringLiteral("  ") + statusType(s.value(QLatin1String("status")));
        line += QStringLiteral("  %1  %2").arg(str(s, "title"), str(s, "directory"));
        lines << line;
    }
    if (lines.isEmpty() && !quiet)
        lines << QStringLiteral("No sessions.");
    return lines;
}

// create, send, fork.
QStringList dispatched(const QString &action, const QJsonObject &r, bool quiet)
{
    const QJsonValue last = r.value(QLatin1String("lastAssistantMessage"));
    if (quiet) {
        if (r.contains(QLatin1String("lastAssistantMessage")))
            return {last.toObject().value(QLatin1String("text")).toString()};
        return {str(r, "sessionId")};
    }
    QStringList lines;
    if (action == QLatin1String("session.fork"))
        lines << QStringLiteral("Forked session %1 into %2 (%3)")
                     .arg(str(r, "sourceSessionId"), str(r, "sessionId"), str(r, "directory"));
    else if (action == QLatin1String("session.create"))
        lines << QStringLiteral("Created session %1 (%2)").arg(str(r, "sessionId"), str(r, "directory"));
    else
        lines << QStringLiteral("Session %1 (%2)").arg(str(r, "sessionId"), str(r, "directory"));
    if (const QJsonObject worktree = r.value(QLatin1String("worktree")).toObject(); !worktree.isEmpty())
        lines
            << QStringLiteral("Worktree: %1 (branch %2)").arg(str(worktree, "path"), str(worktree, "branch"));
    const QString model = modelText(r.value(QLatin1String("model")));
    if (!model.isEmpty()) {
        QString selection = QStringLiteral("Model: ") + model;
        if (!str(r, "variant").isEmpty())
            selection += QStringLiteral(" (%1)").arg(str(r, "variant"));
        if (!str(r, "agent").isEmpty())
            selection += QStringLiteral(", agent: ") + str(r, "agent");
        lines << selection;
    }
    if (r.value(QLatin1String("promptDispatched")).toBool())
        lines << (r.value(QLatin1String("dispatchedAsCommand")).toBool()
                      ? QStringLiteral("Command dispatched.")
                      : QStringLiteral("Prompt dispatched."));
    else if (!str(r, "promptError").isEmpty())
        lines << QStringLiteral("Prompt not dispatched: ") + str(r, "promptError");
    if (r.contains(QLatin1String("sessionStatus")))
        lines << QStringLiteral("Status: ") + statusType(r.value(QLatin1String("sessionStatus")));
    if (r.contains(QLatin1String("lastAssistantMessage"))) {
        lines << QString();
        lines << (last.isObject() ? last.toObject().value(QLatin1String("text")).toString()
                                  : QStringLiteral("(no assistant message)"));
    }
    return lines;
}

QStringList messages(const QJsonObject &r, bool quiet)
{
    QStringList lines;
    if (!quiet)
        lines << QStringLiteral("Session %1: %2")
                     .arg(str(r, "sessionId"), statusType(r.value(QLatin1String("sessionStatus"))));
    for (const QJsonValue &v : r.value(QLatin1String("messages")).toArray()) {
        const QJsonObject m = v.toObject();
        if (!lines.isEmpty())
            lines << QString();
        if (!quiet) {
            QString head =
                QStringLiteral("[%1] %2").arg(str(m, "role"), localTime(m.value(QLatin1String("createdAt"))));
            if (!str(m, "model").isEmpty())
                head += QStringLiteral(" (%1)").arg(str(m, "model"));
            lines << head;
        }
        lines << str(m, "text");
    }
    return lines;
}

QString scheduleText(const QJsonObject &schedule)
{
    const QString kind = str(schedule, "kind");
    QString text;
    if (kind == QLatin1String("daily")) {
        QStringList times;
        for (const QJsonValue &t : schedule.value(QLatin1String("times")).toArray())
            times << t.toString();
        text = QStringLiteral("daily at ") + times.join(QStringLiteral(", "));
    } else if (kind == QLatin1String("weekly")) {
        QStringList days, times;
        for (const QJsonValue &d : schedule.value(QLatin1String("weekdays")).toArray())
            days << QString::number(d.toInt());
        for (const QJsonValue &t : schedule.value(QLatin1String("times")).toArray())
            times << t.toString();
        text = QStringLiteral("weekly on %1 at %2")
                   .arg(days.join(QLatin1Char(',')), times.join(QStringLiteral(", ")));
    } else if (kind == QLatin1String("once")) {
        text = QStringLiteral("once on %1 at %2").arg(str(schedule, "date"), str(schedule, "time"));
    } else if (kind == QLatin1String("cron")) {
        text = QStringLiteral("cron '%1'").arg(str(schedule, "cron"));
    } else {
        text = kind;
    }
    if (!str(schedule, "timezone").isEmpty())
        text += QStringLiteral(" (%1)").arg(str(schedule, "timezone"));
    return text;
}

QString taskLine(const QJsonObject &task)
{
    const QJsonObject state = task.value(QLatin1String("state")).toObject();
    QString line =
        QStringLiteral("%1  %2  %3  %4")
            .arg(str(task, "id"),
                 task.value(QLatin1String("enabled")).toBool(true) ? QStringLiteral("enabled")
                                                                   : QStringLiteral("disabled"),
                 str(task, "name"), scheduleText(task.value(QLatin1String("schedule")).toObject()));
    const QString peer = str(task.value(QLatin1String("execution")).toObject(), "peer");
    if (!peer.isEmpty())
        line += QStringLiteral("  to peer: ") + peer;
    if (state.contains(QLatin1String("nextRunAt")))
        line += QStringLiteral("  next: ") + localTime(state.value(QLatin1String("nextRunAt")));
    if (!str(state, "lastStatus").isEmpty())
        line += QStringLiteral("  last: ") + str(state, "lastStatus");
    return line;
}

QStringList schedulerStatus(const QJsonObject &s)
{
    return {QStringLiteral("Scheduled tasks: %1 enabled, %2 running")
                .arg(s.value(QLatin1String("enabledScheduledTasksCount")).toInt())
                .arg(s.value(QLatin1String("runningScheduledTasksCount")).toInt())};
}

QStringList taskList(const QJsonObject &r, bool quiet)
{
    QStringList lines;
    if (!quiet)
        lines << schedulerStatus(r.value(QLatin1String("scheduler")).toObject());
    const QJsonArray tasks = r.value(QLatin1String("tasks")).toArray();
    for (const QJsonValue &v : tasks)
        lines << (quiet ? str(v.toObject(), "id") : taskLine(v.toObject()));
    if (tasks.isEmpty() && !quiet)
        lines << QStringLiteral("No scheduled tasks.");
    return lines;
}

} // namespace

QStringList result(const QString &action, const QJsonObject &r, bool quiet)
{
    const QJsonObject task = r.value(QLatin1String("task")).toObject();
    if (action == QLatin1String("projects.list"))
        return projects(r, quiet);
    if (action == QLatin1String("models.list"))
        return models(r, quiet);
    if (action == QLatin1String("session.list"))
        return sessionList(r, quiet);
    if (action == QLatin1String("session.create") || action == QLatin1String("session.send") ||
        action == QLatin1String("session.fork"))
        return dispatched(action, r, quiet);
    if (action == QLatin1String("session.status"))
        return {quiet ? statusType(r.value(QLatin1String("sessionStatus")))
                      : QStringLiteral("%1: %2").arg(str(r, "sessionId"),
                                                     statusType(r.value(QLatin1String("sessionStatus"))))};
    if (action == QLatin1String("session.messages"))
        return messages(r, quiet);
    if (action == QLatin1String("schedule.status"))
        return quiet ? QStringList {} : schedulerStatus(r);
    if (action == QLatin1String("schedule.list"))
        return taskList(r, quiet);
    if (action == QLatin1String("schedule.create"))
        return {quiet ? str(task, "id")
                      : QStringLiteral("%1 task %2 (%3): %4")
                            .arg(r.value(QLatin1String("created")).toBool(true) ? QStringLiteral("Created")
                                                                                : QStringLiteral("Updated"),
                                 str(task, "id"), str(task, "name"),
                                 scheduleText(task.value(QLatin1String("schedule")).toObject()))};
    if (action == QLatin1String("schedule.run")) {
        const bool toPeer = r.contains(QLatin1String("messageId"));
        const QString messageId = QString::number(r.value(QLatin1String("messageId")).toInteger());
        if (quiet)
            return {toPeer ? messageId : str(r, "sessionId")};
        QStringList lines {
            toPeer ? QStringLiteral("Ran task %1: message #%2 to peer %3")
                         .arg(str(task, "id"), messageId, str(r, "peerId"))
                   : QStringLiteral("Ran task %1: session %2").arg(str(task, "id"), str(r, "sessionId"))};
        if (!str(r, "persistError").isEmpty())
            lines << QStringLiteral("Warning: the run's state was not saved: ") + str(r, "persistError");
        return lines;
    }
    if (action == QLatin1String("schedule.delete"))
        return quiet ? QStringList {}
                     : QStringList {QStringLiteral("Deleted the task; %1 task(s) left.")
                                        .arg(r.value(QLatin1String("tasks")).toArray().size())};
    if (action == QLatin1String("schedule.toggle"))
        return quiet
            ? QStringList {}
            : QStringList {QStringLiteral("Task %1 %2.")
                               .arg(str(task, "id"),
                                    r.value(QLatin1String("enabled")).toBool() ? QStringLiteral("enabled")
                                                                               : QStringLiteral("disabled"))};
    return {QString::fromUtf8(QJsonDocument(r).toJson(QJsonDocument::Indented)).trimmed()};
}

QString failure(const Broker::ControlFailure &failure)
{
    QString text = failure.message;
    const QString action = failure.partial.value(QLatin1String("partialAction")).toString();
    const QString session = failure.partial.value(QLatin1String("sessionId")).toString();
    if (action == QLatin1String("fork-created"))
        text += QStringLiteral(" Forked session %1 remains available in %2.")
                    .arg(session, failure.partial.value(QLatin1String("directory")).toString());
    else if (action == QLatin1String("session-created"))
        text += QStringLiteral(" Session %1 remains available in %2.")
                    .arg(session, failure.partial.value(QLatin1String("directory")).toString());
    else if (action == QLatin1String("worktree-created"))
        text += QStringLiteral(" Worktree %1 remains.")
                    .arg(failure.partial.value(QLatin1String("directory")).toString());
    else if (action == QLatin1String("goal-configured"))
        text += QStringLiteral(" Goal on session %1 remains configured.").arg(session);
    return text;
}

} // namespace Cli::ControlFormat
