// autostart: the tray's start at login, the CLI twin of the tray's menu toggle.
#include "app/autostart/autostart.h"
#include "app/cli/context.h"
#include "app/cli/formatting.h"
#include "app/cli/handlers.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace Cli::Handlers {

namespace {

QJsonObject toJson(const App::AutostartStatus &status)
{
    return {
        {QStringLiteral("enabled"), status.enabled},
        {QStringLiteral("user_entry"), status.userEntry},
        {QStringLiteral("system_entry"), status.systemEntry},
        {QStringLiteral("decided_by"), status.decidedBy},
    };
}

QStringList toText(const App::AutostartStatus &status)
{
    QStringList lines;
    lines << (status.enabled ? QStringLiteral("Autostart: enabled (the tray starts at login)")
                             : QStringLiteral("Autostart: disabled"));
    if (!status.decidedBy.isEmpty())
        lines << QStringLiteral("Entry: ") + status.decidedBy;
    if (!status.systemEntry.isEmpty() && status.systemEntry != status.decidedBy)
        lines << QStringLiteral("System entry (shadowed by the user's): ") + status.systemEntry;
    return lines;
}

} // namespace

void autostart(Context &ctx, const Invocation &inv)
{
    const QString action = inv.positional.value(0, QStringLiteral("status"));
    const App::Autostart autostart =
        App::Autostart::fromEnvironment(ctx.environment(), QCoreApplication::applicationDirPath());
    Broker::Result<App::AutostartStatus> result;
    if (action == QLatin1String("status"))
        result = autostart.status();
    else if (action == QLatin1String("enable"))
        result = autostart.enable();
    else if (action == QLatin1String("disable"))
        result = autostart.disable();
    else
        return ctx.usageError(*findCommand(QStringLiteral("autostart")),
                              QStringLiteral("Unknown action '%1' (enable, disable or status).").arg(action));
    if (!result)
        return ctx.fail(result.error());
    if (inv.flag("json"))
        ctx.outRaw(Format::prettyJson(toJson(*result)));
    else
        for (const QString &line : toText(*result))
            ctx.out(line);
    ctx.finish(ExitOk);
}

} // namespace Cli::Handlers
