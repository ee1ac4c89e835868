// rotate-token, reload-broker, kill-broker, restart.
#include "app/cli/brokercontrol.h"
#include "app/cli/context.h"
#include "app/cli/handlers.h"
#include "common/launcher.h"
#include "common/tokenfile.h"

#include <csignal>

namespace Cli::Handlers {

namespace {

// POST /reload, with SIGHUP to the verified pid as the fallback for a broker without /reload.
// done(peers, how) with how = "reload" or "sighup"; done(-1, reason) when neither worked.
void reload(Context &ctx, BrokerControl *control, const BrokerControl::Health &health,
            std::function<void(int peers, QString how)> done)
{
    ctx.api().call(
        Broker::ReloadRequest {},
        [&ctx, control, health, done = std::move(done)](Broker::Result<Broker::ReloadAnswer> answer) {
            if (answer) {
                done(answer->peers ? int(*answer->peers) : health.broker.peers, QStringLiteral("reload"));
                return;
            }
            auto target = control->verifiedPid(health);
            if (!target) {
                done(-1,
                     QStringLiteral("/reload failed (%1) and no signal was sent: %2")
                         .arg(answer.error().message, target.error().message));
                return;
            }
            if (auto sent = Broker::Launcher::sendSignal(*target, SIGHUP); !sent) {
                done(-1, sent.error().message);
                return;
            }
            done(health.broker.peers, QStringLiteral("sighup"));
        });
}

} // namespace

namespace {

// The 0.7 way, and ours where the token file is the source of truth: write a fresh token file,
// then have the broker re-read it (authenticated with the old token).
void rotateInFile(Context &ctx, BrokerControl *control, const BrokerControl::Health &health)
{
    const QString path = ctx.location().tokenPath;
    const auto oldToken = Broker::TokenFile::read(path);
    const QByteArray fresh = Broker::TokenFile::generate();
    if (auto written = Broker::TokenFile::write(path, fresh); !written) {
        ctx.fail(written.error());
        return;
    }
    const QString rotated = QStringLiteral("Token rotated. New token written to %1.").arg(path);
    if (!health.up) {
        ctx.out(rotated +
                QStringLiteral(" The broker is not running; it will use the new token when it starts."));
        ctx.finish(ExitOk);
        return;
    }
    ctx.client().setToken(oldToken ? *oldToken : QByteArray());
    reload(ctx, control, health, [&ctx, rotated](int peers, const QString &how) {
        if (peers < 0) {
            ctx.out(rotated + QStringLiteral(" Broker will pick it up within 60 seconds."));
            ctx.err(QStringLiteral("Warning: ") + how);
        } else if (how == QLatin1String("sighup")) {
            ctx.out(rotated + QStringLiteral(" The broker picked it up (SIGHUP sent)."));
        } else {
            ctx.out(rotated +
                    QStringLiteral(" The broker picked it up; sessions switch to it on their next "
                                   "request."));
        }
        ctx.finish(ExitOk);
    });
}

// Our broker rotates where the token lives (OS keychain and token file); a broker without
// POST /rotate-token (0.7, or older) gets the file way.
void rotateInBroker(Context &ctx, BrokerControl *control, const BrokerControl::Health &health)
{
    ctx.api().call(
        Broker::RotateTokenRequest {}, [&ctx, control, health](Broker::Result<Broker::SecretsAnswer> answer) {
            if (!answer && answer.error().httpStatus == 404) {
                rotateInFile(ctx, control, health);
                return;
            }
            if (!answer) {
                ctx.fail(answer.error());
                return;
            }
            const Broker::SecretsAnswer::LocalToken &local = answer->localToken;
            const QString file = local.tokenFile.isEmpty() ? ctx.location().tokenPath : local.tokenFile;
            const QString in = answer->inKeychain()
                ? QStringLiteral(" in the OS keychain (%1)").arg(local.where)
                : QString();
            ctx.out(
                QStringLiteral("Token rotated%1. New token written to %2. The broker picked it up; sessions "
                               "switch to it on their next request.")
                    .arg(in, file));
            ctx.finish(ExitOk);
        });
}

} // namespace

void rotateToken(Context &ctx, const Invocation &)
{
    auto *control = new BrokerControl(ctx, &ctx);
    control->probe([&ctx, control](BrokerControl::Health health) {
        if (health.up) {
            rotateInBroker(ctx, control, health);
            return;
        }
        if (ctx.location().tokenPathExplicit) {
            rotateInFile(ctx, control, health);
            return;
        }
        // The token may live in the OS keychain, which only the broker reaches (the CLI links
        // no keychain); a new token file alone would be replaced by the keychain's at the next
        // start. So start the broker and let it rotate.
        ctx.out(
            QStringLiteral("The broker is not running; starting it to rotate the token where it is kept."));
        control->start([&ctx, control](int code) {
            if (code != ExitOk) {
                ctx.finish(code);
                return;
            }
            control->probe([&ctx, control](BrokerControl::Health started) {
                if (!started.up) {
                    ctx.fail(started.error);
                    return;
                }
                rotateInBroker(ctx, control, started);
            });
        });
    });
}

void reloadBroker(Context &ctx, const Invocation &)
{
    auto *control = new BrokerControl(ctx, &ctx);
    control->probe([&ctx, control](BrokerControl::Health health) {
        if (!health.up) {
            if (health.error.kind == Broker::ErrorKind::Unreachable)
                ctx.out(QStringLiteral("Broker is not running."));
            ctx.fail(health.error);
            return;
        }
        reload(ctx, control, health, [&ctx](int peers, const QString &how) {
            if (peers < 0) {
                ctx.out(QStringLiteral("Broker PID not found."));
                ctx.err(QStringLiteral("Error: ") + how);
                ctx.finish(ExitFailed);
                return;
            }
            ctx.out(QStringLiteral("Broker hot-reloaded%1. %2 peer(s) stay connected.")
                        .arg(how == QLatin1String("sighup") ? QStringLiteral(" (SIGHUP sent)") : QString())
                        .arg(peers));
            ctx.finish(ExitOk);
        });
    });
}

void killBroker(Context &ctx, const Invocation &)
{
    auto *control = new BrokerControl(ctx, &ctx);
    control->stop([&ctx](int code) { ctx.finish(code); });
}

void restart(Context &ctx, const Invocation &invocation)
{
    auto *control = new BrokerControl(ctx, &ctx);
    control->replace(invocation.flag("json"), [&ctx](int code) { ctx.finish(code); });
}

} // namespace Cli::Handlers
