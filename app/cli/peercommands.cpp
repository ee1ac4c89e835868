// status, peers, send, broadcast, set-name, auto-summary.
#include "context.h"
#include "formatting.h"
#include "handlers.h"
#include "workspace.h"

#include <QFileInfo>
#include <QJsonArray>

#include <memory>

namespace Cli::Handlers {

namespace {

constexpr int HealthTimeoutMs = 3000;

QJsonObject machineScope()
{
    return QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")},
                        {QStringLiteral("cwd"), QStringLiteral("/")},
                        {QStringLiteral("git_root"), QJsonValue(QJsonValue::Null)}};
}

bool isUnreachable(const Broker::Error &error)
{
    return error.kind == Broker::ErrorKind::Unreachable;
}

// "Broker is not running." on stdout as the reference prints it, the reason on stderr.
void brokerDown(Context &ctx, const Broker::Error &error, bool json)
{
    if (json)
        ctx.outRaw(Format::prettyJson(
            QJsonObject {{QStringLiteral("running"), false}, {QStringLiteral("url"), ctx.url()}}));
    else if (isUnreachable(error))
        ctx.out(QStringLiteral("Broker is not running."));
    ctx.fail(error);
}

void listStatusPeers(Context &ctx, bool json, const QJsonObject &h, const QJsonValue &secrets)
{
    ctx.client().post(QStringLiteral("/list-peers"), machineScope(),
                      [&ctx, json, h, secrets](Broker::Result<QJsonValue> peers) {
                          QJsonObject status {{QStringLiteral("running"), true},
                                              {QStringLiteral("url"), ctx.url()},
                                              {QStringLiteral("health"), h},
                                              {QStringLiteral("secrets"), secrets}};
                          if (!peers) {
                              if (json)
                                  ctx.outRaw(Format::prettyJson(status));
                              ctx.fail(peers.error());
                              return;
                          }
                          const QJsonArray list = peers->toArray();
                          if (json) {
                              status.insert(QStringLiteral("peers"), list);
                              ctx.outRaw(Format::prettyJson(status));
                          } else {
                              ctx.out(Format::statusPeers(list).join(QLatin1Char('\n')));
                          }
                          ctx.finish(ExitOk);
                      });
}

QString joined(const QStringList &words)
{
    return words.join(QLatin1Char(' '));
}

} // namespace

void status(Context &ctx, const Invocation &inv)
{
    const bool json = inv.flag("json");
    ctx.client().get(
        QStringLiteral("/health"),
        [&ctx, json](Broker::Result<QJsonValue> health) {
            if (!health) {
                brokerDown(ctx, health.error(), json);
                return;
            }
            const QJsonObject h = health->toObject();
            // Where the secrets live: only our broker says (POST /secrets, main token).
            ctx.client().post(
                QStringLiteral("/secrets"), QJsonObject {},
                [&ctx, json, h](Broker::Result<QJsonValue> secretsAnswer) {
                    QJsonObject secrets = secretsAnswer ? secretsAnswer->toObject() : QJsonObject {};
                    if (!secretsAnswer && secretsAnswer.error().httpStatus != 404) // 404: a 0.7 broker
                        secrets.insert(QStringLiteral("error"), secretsAnswer.error().message);
                    const QJsonValue secretsJson = secrets.isEmpty() ? QJsonValue(QJsonValue::Null) : secrets;
                    if (!json) {
                        ctx.out(Format::statusHeader(h, ctx.url()).join(QLatin1Char('\n')));
                        ctx.out(
                            Format::statusSecrets(secrets, ctx.location().tokenPath).join(QLatin1Char('\n')));
                        if (h.value(QStringLiteral("peers")).toInt() <= 0) {
                            ctx.finish(ExitOk);
                            return;
                        }
                    }
                    listStatusPeers(ctx, json, h, secretsJson);
                });
        },
        HealthTimeoutMs);
}

void peers(Context &ctx, const Invocation &inv)
{
    const bool json = inv.flag("json");
    ctx.client().post(QStringLiteral("/list-peers"), machineScope(),
                      [&ctx, json](Broker::Result<QJsonValue> peers) {
                          if (!peers) {
                              if (isUnreachable(peers.error()) && !json)
                                  ctx.out(QStringLiteral("Broker is not running."));
                              ctx.fail(peers.error());
                              return;
                          }
                          if (!peers->isArray()) {
                              ctx.fail(Broker::Error {Broker::ErrorKind::BadJson,
                                                      QStringLiteral("/list-peers did not answer an array")});
                              return;
                          }
                          if (json)
                              ctx.outRaw(Format::prettyJson(peers->toArray()));
                          else
                              ctx.out(Format::peerList(peers->toArray()).join(QLatin1Char('\n')));
                          ctx.finish(ExitOk);
                      });
}

void send(Context &ctx, const Invocation &inv)
{
    const QString to = inv.positional.first();
    const QString text = joined(inv.positional.mid(1));
    const QJsonObject body {{QStringLiteral("from_id"), QStringLiteral("cli")},
                            {QStringLiteral("to_id"), to},
                            {QStringLiteral("text"), text}};
    ctx.client().post(QStringLiteral("/send-message"), body, [&ctx, to](Broker::Result<QJsonValue> answer) {
        if (!answer) {
            ctx.fail(answer.error());
            return;
        }
        const QJsonObject o = answer->toObject();
        if (!o.value(QStringLiteral("ok")).toBool()) {
            ctx.err(QStringLiteral("Failed: ") + Format::scalar(o.value(QStringLiteral("error"))));
            ctx.finish(ExitFailed);
            return;
        }
        ctx.out(QStringLiteral("Message sent to %1 (msg#%2, type: text)")
                    .arg(to, Format::scalar(o.value(QStringLiteral("message_id")))));
        ctx.finish(ExitOk);
    });
}

void broadcast(Context &ctx, const Invocation &inv)
{
    const QString scope = inv.positional.first();
    static const QStringList scopes {QStringLiteral("machine"), QStringLiteral("directory"),
                                     QStringLiteral("repo")};
    if (!scopes.contains(scope)) {
        ctx.usageError(*findCommand(QStringLiteral("broadcast")),
                       QStringLiteral("Unknown scope: %1 (machine, directory or repo)").arg(scope));
        return;
    }
    const QString text = joined(inv.positional.mid(1));
    const QString cwd = ctx.workingDirectory();
    Broker::Workspace::probeGit(
        cwd, &ctx,
        [&ctx, scope, text, cwd](Broker::Workspace::GitInfo git) {
            const QJsonObject body {
                {QStringLiteral("from_id"), QStringLiteral("cli")},
                {QStringLiteral("text"), text},
                {QStringLiteral("type"), QStringLiteral("broadcast")},
                {QStringLiteral("scope"), scope},
                {QStringLiteral("cwd"), cwd},
                {QStringLiteral("git_root"),
                 git.isRepository() ? QJsonValue(git.root) : QJsonValue(QJsonValue::Null)}};
            ctx.client().post(QStringLiteral("/broadcast"), body,
                              [&ctx, scope](Broker::Result<QJsonValue> answer) {
                                  if (!answer) {
                                      ctx.fail(answer.error());
                                      return;
                                  }
                                  const QJsonObject o = answer->toObject();
                                  if (!o.value(QStringLiteral("ok")).toBool()) {
                                      ctx.err(QStringLiteral("Failed: ") +
                                              Format::scalar(o.value(QStringLiteral("error"))));
                                      ctx.finish(ExitFailed);
                                      return;
                                  }
                                  const int recipients = o.value(QStringLiteral("recipients")).toInt();
                                  if (recipients == 0)
                                      ctx.out(QStringLiteral("No peers in scope '%1'").arg(scope));
                                  else
                                      ctx.out(QStringLiteral("Broadcast sent to %1 peer(s)").arg(recipients));
                                  ctx.finish(ExitOk);
                              });
        },
        Broker::Workspace::DefaultGitTimeoutMs, false);
}

void setName(Context &ctx, const Invocation &inv)
{
    const QString id = inv.positional.first();
    const QString name = joined(inv.positional.mid(1));
    const QJsonObject body {{QStringLiteral("id"), id}, {QStringLiteral("session_name"), name}};
    ctx.client().post(QStringLiteral("/set-name"), body, [&ctx, id, name](Broker::Result<QJsonValue> answer) {
        if (!answer) {
            ctx.fail(answer.error());
            return;
        }
        if (!answer->toObject().value(QStringLiteral("ok")).toBool()) {
            ctx.err(QStringLiteral("Failed to set session name."));
            ctx.finish(ExitFailed);
            return;
        }
        ctx.out(QStringLiteral("Session name set for %1: \"%2\"").arg(id, name));
        ctx.finish(ExitOk);
    });
}

void autoSummary(Context &ctx, const Invocation &inv)
{
    const QString id = inv.positional.first();
    const QString cwd = ctx.workingDirectory();

    // git and task-master run in parallel; the summary is built when both have answered.
    struct Pending
    {
        std::optional<Broker::Workspace::GitInfo> git;
        std::optional<std::optional<int>> tasks;
    };
    auto pending = std::make_shared<Pending>();
    auto proceed = [&ctx, pending, id, cwd] {
        if (!pending->git || !pending->tasks)
            return;
        const Broker::Workspace::GitInfo &git = *pending->git;
        const QString repo = git.isRepository() ? QFileInfo(git.root).fileName() : QString();
        const QString summary = Broker::Workspace::cliAutoSummary(repo, git.branch, cwd, *pending->tasks);
        // Printed before the request, so it shows even when the broker is down.
        ctx.out(summary);
        const QJsonObject body {{QStringLiteral("id"), id}, {QStringLiteral("summary"), summary}};
        ctx.client().post(QStringLiteral("/set-summary"), body, [&ctx](Broker::Result<QJsonValue> answer) {
            if (!answer) {
                ctx.fail(answer.error());
                return;
            }
            if (!answer->toObject().value(QStringLiteral("ok")).toBool()) {
                ctx.err(QStringLiteral("Error: Broker returned failure for /set-summary."));
                ctx.finish(ExitFailed);
                return;
            }
            ctx.finish(ExitOk);
        });
    };
    Broker::Workspace::probeGit(
        cwd, &ctx,
        [pending, proceed](Broker::Workspace::GitInfo git) {
            pending->git = std::move(git);
            proceed();
        },
        Broker::Workspace::DefaultGitTimeoutMs, false);
    Broker::Workspace::taskMasterInProgress(cwd, &ctx, [pending, proceed](std::optional<int> tasks) {
        pending->tasks = tasks;
        proceed();
    });
}

} // namespace Cli::Handlers
