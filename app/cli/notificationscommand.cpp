// notifications: the tray's notification preferences, the CLI twin of its menu and Settings
// ("Pause notifications", per-peer mute, quiet hours, per-kind switches). Edits the same
// "notifications" object of ~/.claude-peers-config.json that the tray reads (it notices the change
// before its next notification); the broker need not run.
#include "app/cli/context.h"
#include "app/cli/formatting.h"
#include "app/cli/handlers.h"
#include "app/tray/notifications/notificationpreferences.h"

#include <QJsonArray>
#include <QJsonObject>

namespace Cli::Handlers {

namespace {

using App::NotificationPreferences;

QJsonObject toJson(const NotificationPreferences &p, const QString &path, const QDateTime &now)
{
    QJsonObject kinds;
    for (const App::NotificationKind kind : App::allNotificationKinds())
        kinds.insert(App::notificationKindKey(kind), p.kindEnabled(kind));
    const bool paused = p.isPaused(now);
    return {
        {QStringLiteral("config_file"), path},
        {QStringLiteral("enabled"), p.enabled},
        {QStringLiteral("paused"), paused},
        {QStringLiteral("paused_until"),
         paused && p.pausedUntil.isValid() ? QJsonValue(p.pausedUntil.toUTC().toString(Qt::ISODate))
                                           : QJsonValue()},
        {QStringLiteral("quiet_hours"), p.quietHours ? QJsonValue(p.quietHours->toText()) : QJsonValue()},
        {QStringLiteral("in_quiet_hours"), p.quietHours && p.quietHours->contains(now.toLocalTime().time())},
        {QStringLiteral("only_waiting_for_me"), p.onlyWaitingForYou},
        {QStringLiteral("muted_peers"), QJsonArray::fromStringList(p.mutedPeers)},
        {QStringLiteral("kinds"), kinds},
    };
}

QStringList toText(const NotificationPreferences &p, const QDateTime &now)
{
    QStringList lines;
    if (!p.enabled)
        lines << QStringLiteral("Notifications: off (turn them on with `claude-peers notifications on`)");
    else if (p.isPaused(now))
        lines << (p.pausedUntil.isValid()
                      ? QStringLiteral("Notifications: paused until %1")
                            .arg(p.pausedUntil.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                      : QStringLiteral("Notifications: paused until resumed"));
    else
        lines << QStringLiteral("Notifications: on");
    lines << QStringLiteral("Quiet hours: %1")
                 .arg(p.quietHours ? p.quietHours->toText() +
                              (p.quietHours->contains(now.toLocalTime().time()) ? QStringLiteral(" (now)")
                                                                                : QString())
                                   : QStringLiteral("none"));
    lines << QStringLiteral("Only when waiting for me: %1").arg(p.onlyWaitingForYou ? u"yes" : u"no");
    lines << QStringLiteral("Muted peers: %1")
                 .arg(p.mutedPeers.isEmpty() ? QStringLiteral("none")
                                             : p.mutedPeers.join(QStringLiteral(", ")));
    QStringList on;
    QStringList off;
    for (const App::NotificationKind kind : App::allNotificationKinds())
        (p.kindEnabled(kind) ? on : off) << App::notificationKindKey(kind);
    lines << QStringLiteral("Kinds on: %1").arg(on.isEmpty() ? QStringLiteral("none") : on.join(u' '));
    lines << QStringLiteral("Kinds off: %1").arg(off.isEmpty() ? QStringLiteral("none") : off.join(u' '));
    return lines;
}

std::optional<bool> onOff(const QString &word)
{
    if (word == QLatin1String("on"))
        return true;
    if (word == QLatin1String("off"))
        return false;
    return std::nullopt;
}

QString kindKeys()
{
    QStringList keys;
    for (const App::NotificationKind kind : App::allNotificationKinds())
        keys << App::notificationKindKey(kind);
    return keys.join(QStringLiteral(", "));
}

} // namespace

void notifications(Context &ctx, const Invocation &inv)
{
    const Command &command = *findCommand(QStringLiteral("notifications"));
    const QString path = ctx.location().configPath;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QStringList args = inv.positional;
    const QString action = args.value(0, QStringLiteral("status"));
    const auto wantArgs = [&](qsizetype n, const QString &usage) {
        if (args.size() == n)
            return true;
        ctx.usageError(command, QStringLiteral("Usage: claude-peers notifications %1").arg(usage));
        return false;
    };
    if (inv.hasValue("for") && action != QLatin1String("pause"))
        return ctx.usageError(command, QStringLiteral("--for goes with pause only."));

    auto loaded = NotificationPreferences::load(path);
    if (!loaded) {
        ctx.err(QStringLiteral("Error: %1\nFix or remove %2, then run this again (nothing was changed).")
                    .arg(loaded.error().message, path));
        return ctx.finish(ExitFailed);
    }
    NotificationPreferences p = *loaded;
    bool change = true;
    // The edit is worked out (and checked) on what was just read, then applied again under the
    // config file's lock to what is there then: concurrent commands each keep their change.
    std::function<void(NotificationPreferences &)> apply;
    if (action == QLatin1String("status")) {
        if (args.size() > 1)
            return ctx.usageError(command, QStringLiteral("status takes no arguments."));
        change = false;
    } else if (action == QLatin1String("on") || action == QLatin1String("off")) {
        if (!wantArgs(1, action))
            return;
        apply = [on = action == QLatin1String("on")](NotificationPreferences &q) { q.enabled = on; };
    } else if (action == QLatin1String("mute") || action == QLatin1String("unmute")) {
        if (!wantArgs(2, action + QStringLiteral(" <peer-id>")))
            return;
        if (action == QLatin1String("mute"))
            apply = [id = args.at(1)](NotificationPreferences &q) { q.mute(id); };
        else
            apply = [id = args.at(1)](NotificationPreferences &q) { q.unmute(id); };
    } else if (action == QLatin1String("pause")) {
        if (!wantArgs(1, QStringLiteral("pause [--for DURATION]")))
            return;
        if (inv.hasValue("for")) {
            const auto seconds = App::parseDuration(inv.value("for"));
            if (!seconds)
                return ctx.usageError(command, seconds.error().message);
            apply = [until = now.addSecs(*seconds)](NotificationPreferences &q) { q.pause(until); };
        } else {
            apply = [](NotificationPreferences &q) { q.pause(); };
        }
    } else if (action == QLatin1String("resume")) {
        if (!wantArgs(1, action))
            return;
        apply = [](NotificationPreferences &q) { q.resume(); };
    } else if (action == QLatin1String("quiet-hours")) {
        if (!wantArgs(2, QStringLiteral("quiet-hours HH:MM-HH:MM|off")))
            return;
        if (args.at(1) == QLatin1String("off")) {
            apply = [](NotificationPreferences &q) { q.quietHours.reset(); };
        } else {
            const auto hours = App::QuietHours::parse(args.at(1));
            if (!hours)
                return ctx.usageError(command, hours.error().message);
            apply = [hours = *hours](NotificationPreferences &q) { q.quietHours = hours; };
        }
    } else if (action == QLatin1String("kind")) {
        if (!wantArgs(3, QStringLiteral("kind <kind> on|off")))
            return;
        const auto kind = App::notificationKindFromKey(args.at(1));
        if (!kind)
            return ctx.usageError(
                command, QStringLiteral("Unknown kind '%1' (one of: %2).").arg(args.at(1), kindKeys()));
        const auto on = onOff(args.at(2));
        if (!on)
            return ctx.usageError(command, QStringLiteral("Say on or off, not '%1'.").arg(args.at(2)));
        apply = [kind = *kind, on = *on](NotificationPreferences &q) { q.setKindEnabled(kind, on); };
    } else if (action == QLatin1String("only-waiting")) {
        if (!wantArgs(2, QStringLiteral("only-waiting on|off")))
            return;
        const auto on = onOff(args.at(1));
        if (!on)
            return ctx.usageError(command, QStringLiteral("Say on or off, not '%1'.").arg(args.at(1)));
        apply = [on = *on](NotificationPreferences &q) { q.onlyWaitingForYou = on; };
    } else {
        return ctx.usageError(
            command,
            QStringLiteral("Unknown action '%1' (status, on, off, mute, unmute, pause, resume, "
                           "quiet-hours, kind or only-waiting).")
                .arg(action));
    }
    if (change) {
        const auto saved = NotificationPreferences::update(path, [&apply](NotificationPreferences &q) {
            apply(q);
            return true;
        });
        if (!saved)
            return ctx.fail(saved.error());
        p = *saved;
    }
    if (inv.flag("json"))
        ctx.outRaw(Format::prettyJson(toJson(p, path, now)));
    else
        for (const QString &line : toText(p, now))
            ctx.out(line);
    ctx.finish(ExitOk);
}

} // namespace Cli::Handlers
