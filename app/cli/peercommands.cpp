// status, peers, send, broadcast, set-name, rename, auto-summary.
#include "app/cli/context.h"
#include "app/cli/formatting.h"
#include "app/cli/handlers.h"
#include "common/workspace.h"

#include <QFileInfo>

#include <functional>
#include <memory>
#include <optional>

namespace Cli::Handlers {

namespace {

constexpr int HealthTimeoutMs = 3000;

Broker::ListPeersRequest machineScope()
{
    return Broker::ListPeersRequest {QStringLiteral("machine"), QStringLiteral("/"), {}, {}};
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

// "secrets" of `status --json`: the answer, null from a broker that does not say, {"error"}.
QJsonValue secretsJson(const Broker::Result<Broker::SecretsAnswer> &secrets)
{
    if (secrets)
        return secrets->toJson();
    if (secrets.error().httpStatus == 404) // a 0.7 broker
        return QJsonValue(QJsonValue::Null);
    return QJsonObject {{QStringLiteral("error"), secrets.error().message}};
}

void listStatusPeers(Context &ctx, bool json, const Broker::HealthAnswer &health, const QJsonValue &secrets)
{
    ctx.api().call(machineScope(),
                   [&ctx, json, health, secrets](Broker::Result<Broker::ListPeersAnswer> peers) {
                       QJsonObject status {{QStringLiteral("running"), true},
                                           {QStringLiteral("url"), ctx.url()},
                                           {QStringLiteral("health"), health.toJson()},
                                           {QStringLiteral("secrets"), secrets}};
                       if (!peers) {
                           if (json)
                               ctx.outRaw(Format::prettyJson(status));
                           ctx.fail(peers.error());
                           return;
                       }
                       if (json) {
                           status.insert(QStringLiteral("peers"), peers->toJson());
                           ctx.outRaw(Format::prettyJson(status));
                       } else {
                           ctx.out(Format::statusPeers(peers->peers).join(QLatin1Char('\n')));
                       }
                       ctx.finish(ExitOk);
                   });
}

QString joined(const QStringList &words)
{
    return words.join(QLatin1Char(' '));
}

// The tray's operator peer (app/tray/operatorpeer.h): the sender its Messages page uses.
const QString kOperatorId = QStringLiteral("operator");

// Runs then() once the operator peer is registered; otherwise says how to get one. A message from
// an operator nobody holds would leave the session's answer with no one to read it.
void whenOperatorRegistered(Context &ctx, std::function<void()> then)
{
    ctx.api().call(Broker::ListPeersRequest {QStringLiteral("machine"), ctx.workingDirectory(), {}, {}},
                   [&ctx, then = std::move(then)](Broker::Result<Broker::ListPeersAnswer> peers) {
                       if (!peers) {
                           ctx.fail(peers.error());
                           return;
                       }
                       for (const Broker::Peer &peer : peers->peers) {
                           if (peer.id == kOperatorId) {
                               then();
                               return;
                           }
                       }
                       ctx.err(
                           QStringLiteral("Error: the operator peer is not registered with the broker. "
                                          "Start claude-peers-tray (it registers the operator), or send "
                                          "without --as-operator (as \"cli\", which cannot be answered)."));
                       ctx.finish(ExitFailed);
                   });
}

// --json: the broker's answer on stdout, also a refusal ({"ok":false,"error":…}, exit 2).
void printAnswer(Context &ctx, QJsonObject answer, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it)
        answer.insert(it.key(), it.value());
    ctx.outRaw(Format::prettyJson(answer));
    ctx.finish(answer.value(QLatin1String("ok")).toBool() ? ExitOk : ExitFailed);
}

// One answer of send or broadcast: with --json it is printed (a refusal too); else the
// refusal goes to stderr, or line(answer) to stdout.
template<typename Answer, typename Line>
void reportSent(Context &ctx, const Broker::Result<Answer> &sent, bool json, const QJsonObject &extra,
                Line line)
{
    if (json && sent) {
        printAnswer(ctx, sent->toJson(), extra);
        return;
    }
    if (failedOrRefused(ctx, sent))
        return;
    ctx.out(line(*sent));
    ctx.finish(ExitOk);
}

std::optional<qint64> parseMessageId(const QString &text)
{
    bool ok = false;
    const qint64 id = text.toLongLong(&ok);
    if (!ok || id <= 0)
        return std::nullopt;
    return id;
}

} // namespace

void status(Context &ctx, const Invocation &inv)
{
    const bool json = inv.flag("json");
    ctx.api().health(
        [&ctx, json](Broker::Result<Broker::HealthAnswer> health) {
            if (!health) {
                brokerDown(ctx, health.error(), json);
                return;
            }
            // Where the secrets live: only our broker says (POST /secrets, main token).
            ctx.api().call(
                Broker::SecretsRequest {},
                [&ctx, json, health = *health](Broker::Result<Broker::SecretsAnswer> secrets) {
                    if (!json) {
                        ctx.out(Format::statusHeader(health, ctx.url()).join(QLatin1Char('\n')));
                        ctx.out(
                            Format::statusSecrets(secrets, ctx.location().tokenPath).join(QLatin1Char('\n')));
                        if (health.peers <= 0) {
                            ctx.finish(ExitOk);
                            return;
                        }
                    }
                    listStatusPeers(ctx, json, health, secretsJson(secrets));
                });
        },
        HealthTimeoutMs);
}

void peers(Context &ctx, const Invocation &inv)
{
    const bool json = inv.flag("json");
    ctx.api().call(machineScope(), [&ctx, json](Broker::Result<Broker::ListPeersAnswer> peers) {
        if (!peers) {
            if (isUnreachable(peers.error()) && !json)
                ctx.out(QStringLiteral("Broker is not running."));
            ctx.fail(peers.error());
            return;
        }
        if (json)
            ctx.outRaw(Format::prettyJson(peers->toJson()));
        else
            ctx.out(Format::peerList(peers->peers).join(QLatin1Char('\n')));
        ctx.finish(ExitOk);
    });
}

void send(Context &ctx, const Invocation &inv)
{
    const QString to = inv.positional.first();
    const QString text = joined(inv.positional.mid(1));
    const bool asOperator = inv.flag("as-operator");
    const bool json = inv.flag("json");
    std::optional<qint64> replyTo;
    if (inv.hasValue("reply-to")) {
        replyTo = parseMessageId(inv.value("reply-to"));
        if (!replyTo) {
            ctx.usageError(*findCommand(QStringLiteral("send")),
                           QStringLiteral("--reply-to takes a message id (a positive number), not '%1'.")
                               .arg(inv.value("reply-to")));
            return;
        }
    }
    const QString from = asOperator ? kOperatorId : QStringLiteral("cli");
    const QString type = replyTo ? QStringLiteral("response") : QStringLiteral("text");
    const QJsonObject extra {{QStringLiteral("from_id"), from}, {QStringLiteral("to_id"), to}};
    // Without the new options: 0.7's request (from_id "cli", no type) and text, byte for byte.
    const auto done = [&ctx, json, asOperator, to, from, type,
                       extra](Broker::Result<Broker::SendMessageAnswer> sent) {
        reportSent(ctx, sent, json, extra, [&](const Broker::SendMessageAnswer &answer) {
            return asOperator ? QStringLiteral("Message sent to %1 as %2 (msg#%3, type: %4)")
                                    .arg(to, from)
                                    .arg(answer.messageId)
                                    .arg(type)
                              : QStringLiteral("Message sent to %1 (msg#%2, type: %3)")
                                    .arg(to)
                                    .arg(answer.messageId)
                                    .arg(type);
        });
    };
    const auto sendIt = [&ctx, asOperator, to, from, text, type, replyTo, json, extra, done] {
        if (asOperator && to.contains(QLatin1Char(':'))) {
            // A remote peer, as the Messages page reaches it: relayed by federation.
            Broker::SendToRemoteRequest request;
            request.toId = to;
            request.fromId = from;
            request.text = text;
            request.type = type;
            request.replyTo = replyTo;
            ctx.api().call(
                request, [&ctx, json, to, from, type, extra](Broker::Result<Broker::FederationAnswer> sent) {
                    reportSent(ctx, sent, json, extra, [&](const Broker::FederationAnswer &) {
                        return QStringLiteral("Message relayed to %1 as %2 (type: %3)").arg(to, from, type);
                    });
                });
            return;
        }
        Broker::SendMessageRequest request;
        request.fromId = from;
        request.toId = to;
        request.text = text;
        if (replyTo) {
            request.type = type;
            request.replyTo = replyTo;
        }
        ctx.api().call(request, done);
    };
    if (asOperator)
        whenOperatorRegistered(ctx, sendIt);
    else
        sendIt();
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
    const bool asOperator = inv.flag("as-operator");
    const bool json = inv.flag("json");
    const QString from = asOperator ? kOperatorId : QStringLiteral("cli");
    const auto broadcastIt = [&ctx, scope, text, cwd, from, json] {
        Broker::Workspace::probeGit(
            cwd, &ctx,
            [&ctx, scope, text, cwd, from, json](Broker::Workspace::GitInfo git) {
                Broker::BroadcastRequest request;
                request.fromId = from;
                request.text = text;
                request.type = QStringLiteral("broadcast");
                request.scope = scope;
                request.cwd = cwd;
                request.gitRoot = git.isRepository() ? git.root : QString();
                ctx.api().call(
                    request, [&ctx, scope, from, json](Broker::Result<Broker::BroadcastAnswer> sent) {
                        reportSent(
                            ctx, sent, json,
                            {{QStringLiteral("from_id"), from}, {QStringLiteral("scope"), scope}},
                            [&](const Broker::BroadcastAnswer &answer) {
                                return answer.recipients == 0
                                    ? QStringLiteral("No peers in scope '%1'").arg(scope)
                                    : QStringLiteral("Broadcast sent to %1 peer(s)").arg(answer.recipients);
                            });
                    });
            },
            Broker::Workspace::DefaultGitTimeoutMs, false);
    };
    if (asOperator)
        whenOperatorRegistered(ctx, broadcastIt);
    else
        broadcastIt();
}

void setName(Context &ctx, const Invocation &inv)
{
    const QString id = inv.positional.first();
    const QString name = joined(inv.positional.mid(1));
    ctx.api().call(Broker::SetNameRequest {id, name},
                   [&ctx, id, name](Broker::Result<Broker::OkAnswer> answer) {
                       if (!answer) {
                           ctx.fail(answer.error());
                           return;
                       }
                       if (!answer->ok) {
                           ctx.err(QStringLiteral("Failed to set session name."));
                           ctx.finish(ExitFailed);
                           return;
                       }
                       ctx.out(QStringLiteral("Session name set for %1: \"%2\"").arg(id, name));
                       ctx.finish(ExitOk);
                   });
}

void rename(Context &ctx, const Invocation &inv)
{
    const bool json = inv.flag("json");
    const QString id = inv.positional.first();
    const QString name = joined(inv.positional.mid(1)).trimmed();
    if (name.isEmpty()) {
        ctx.usageError(*findCommand(QStringLiteral("rename")), QStringLiteral("The new name is empty."));
        return;
    }
    ctx.api().call(
        Broker::SetNameRequest {id, name}, [&ctx, json, id, name](Broker::Result<Broker::OkAnswer> answer) {
            if (!answer) {
                ctx.fail(answer.error());
                return;
            }
            if (json)
                ctx.outRaw(Format::prettyJson(QJsonObject {{QStringLiteral("ok"), answer->ok},
                                                           {QStringLiteral("id"), id},
                                                           {QStringLiteral("session_name"), name}}));
            if (!answer->ok) {
                if (!json)
                    ctx.err(QStringLiteral("The broker did not rename %1: is it still registered?").arg(id));
                ctx.finish(ExitFailed);
                return;
            }
            if (!json)
                ctx.out(QStringLiteral("Renamed %1 to \"%2\"").arg(id, name));
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
        ctx.api().call(Broker::SetSummaryRequest {id, summary},
                       [&ctx](Broker::Result<Broker::OkAnswer> answer) {
                           if (!answer) {
                               ctx.fail(answer.error());
                               return;
                           }
                           if (!answer->ok) {
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
