// config: the settings of the tray's Settings page, read and written from the command line
// (the same table and writer, Broker::ConfigSettings).
#include "app/cli/context.h"
#include "app/cli/formatting.h"
#include "app/cli/handlers.h"
#include "common/configsettings.h"

#include <QJsonArray>
#include <QJsonObject>

namespace Cli::Handlers {

namespace {

QString appliesName(Broker::ConfigSettings::Applies applies)
{
    return applies == Broker::ConfigSettings::Applies::OnReload ? QStringLiteral("reload")
                                                                : QStringLiteral("restart");
}

QJsonObject keyJson(const Broker::ConfigFile &config, const Broker::ConfigSettings::Key &key)
{
    return {{QStringLiteral("key"), QLatin1String(key.name)},
            {QStringLiteral("value"), Broker::ConfigSettings::get(config, key)},
            {QStringLiteral("applies"), appliesName(key.applies)},
            {QStringLiteral("help"), QLatin1String(key.help)}};
}

void configGet(Context &ctx, const Invocation &inv, bool json)
{
    const QString path = ctx.location().configPath;
    const Broker::ConfigFile config = Broker::ConfigFile::load(path);
    if (!config.warning().isEmpty())
        ctx.err(QStringLiteral("Warning: ") + config.warning());
    QList<Broker::ConfigSettings::Key> keys = Broker::ConfigSettings::keys();
    if (inv.positional.size() > 1) {
        const Broker::ConfigSettings::Key *key = Broker::ConfigSettings::find(inv.positional.at(1));
        if (!key)
            return ctx.usageError(*findCommand(QStringLiteral("config")),
                                  QStringLiteral("Unknown setting: %1").arg(inv.positional.at(1)));
        if (json)
            ctx.outRaw(Format::prettyJson(keyJson(config, *key)));
        else
            ctx.out(Broker::ConfigSettings::get(config, *key));
        return ctx.finish(ExitOk);
    }
    if (json) {
        QJsonArray settings;
        for (const auto &key : keys)
            settings.append(keyJson(config, key));
        ctx.outRaw(Format::prettyJson(
            QJsonObject {{QStringLiteral("path"), path}, {QStringLiteral("settings"), settings}}));
    } else {
        ctx.out(QStringLiteral("Config file: ") + path);
        for (const auto &key : keys) {
            const QString value = Broker::ConfigSettings::get(config, key);
            ctx.out(QStringLiteral("%1 = %2   (%3; applies on %4)")
                        .arg(QLatin1String(key.name), value.isEmpty() ? QStringLiteral("(default)") : value,
                             QLatin1String(key.help), appliesName(key.applies)));
        }
    }
    ctx.finish(ExitOk);
}

void configSet(Context &ctx, const Invocation &inv, bool json)
{
    if (inv.positional.size() < 2)
        return ctx.usageError(*findCommand(QStringLiteral("config")),
                              QStringLiteral("set needs a setting name"));
    const QString name = inv.positional.at(1);
    const QString value = inv.positional.mid(2).join(QLatin1Char(' '));
    const Broker::ConfigSettings::Key *key = Broker::ConfigSettings::find(name);
    if (auto done = Broker::ConfigSettings::setInFile(ctx.location().configPath, name, value); !done) {
        if (done.error().kind == Broker::ErrorKind::Usage) {
            ctx.err(QStringLiteral("Error: ") + done.error().message);
            return ctx.finish(ExitUsage);
        }
        return ctx.fail(done.error());
    }
    const Broker::ConfigFile config = Broker::ConfigFile::load(ctx.location().configPath);
    QJsonObject answer = keyJson(config, *key);
    answer.insert(QStringLiteral("ok"), true);
    if (key->applies == Broker::ConfigSettings::Applies::OnRestart) {
        answer.insert(QStringLiteral("reloaded"), false);
        if (json)
            ctx.outRaw(Format::prettyJson(answer));
        else
            ctx.out(
                QStringLiteral("Saved %1. The broker reads it when it starts: run `claude-peers restart` (or "
                               "restart the tray) to apply it.")
                    .arg(name));
        return ctx.finish(ExitOk);
    }
    // A running broker applies it now; one that is not running reads it when it starts.
    ctx.api().call(
        Broker::ReloadRequest {},
        [&ctx, json, name, answer](Broker::Result<Broker::ReloadAnswer> reloaded) mutable {
            answer.insert(QStringLiteral("reloaded"), bool(reloaded));
            if (json)
                ctx.outRaw(Format::prettyJson(answer));
            else if (reloaded)
                ctx.out(QStringLiteral("Saved %1; the broker applied it.").arg(name));
            else
                ctx.out(QStringLiteral(
                            "Saved %1; the broker did not take it now (%2) and reads it when it starts.")
                            .arg(name, reloaded.error().message));
            ctx.finish(ExitOk);
        });
}

} // namespace

void config(Context &ctx, const Invocation &inv)
{
    const bool json = inv.flag("json");
    const QString action = inv.positional.value(0, QStringLiteral("get"));
    if (action == QLatin1String("get"))
        return configGet(ctx, inv, json);
    if (action == QLatin1String("set"))
        return configSet(ctx, inv, json);
    ctx.usageError(*findCommand(QStringLiteral("config")),
                   QStringLiteral("Unknown action '%1' (get or set).").arg(action));
}

} // namespace Cli::Handlers
