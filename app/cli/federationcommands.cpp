// claude-peers federation <subcommand>: docs/spec/peers-api.md §8 where 0.7 has the command, ours for
// pairing. Everything that needs the broker's state (PSK, certificate, links) goes through its
// authenticated routes; the CLI itself only edits the config file and asks the broker to
// re-read it.
#include "app/cli/federationcommands.h"

#include "app/cli/brokercontrol.h"
#include "app/cli/context.h"
#include "app/cli/federationformat.h"
#include "app/cli/formatting.h"
#include "app/cli/handlers.h"
#include "common/config.h"
#include "common/federationunignore.h"
#include "common/jsonfields.h"

#include <QDateTime>
#include <QFile>

#include <algorithm>
#include <cstdio>

namespace Cli::Handlers {

namespace {

using FederationFormat::HostPort;

// Connecting may wait for the remote's 5 s handshake timeout and a certificate check.
constexpr int LinkTimeoutMs = 20000;

// "Failed: …" for a refusal; for a route the broker does not have, what to do about it.
template<typename Answer> bool failed(Context &ctx, const Broker::Result<Answer> &answer, const char *path)
{
    if (!answer) {
        if (answer.error().httpStatus == 404) {
            const QString route = QLatin1String(path);
            const bool pairing = route == QLatin1String("/federation/pending") ||
                route == QLatin1String("/federation/accept") || route == QLatin1String("/federation/reject");
            ctx.err(pairing
                        ? QStringLiteral("Failed: the broker at %1 does not take pairing requests (no %2: it "
                                         "has no discovery yet). Pair by URL: `claude-peers federation "
                                         "token` on one machine, `claude-peers federation join <url>` on "
                                         "the other.")
                              .arg(ctx.url(), route)
                        : QStringLiteral("Failed: the broker at %1 has no %2 (it is older than this "
                                         "claude-peers, or 0.7). Update claude-peers-broker, then run: "
                                         "claude-peers restart")
                              .arg(ctx.url(), route));
            ctx.finish(ExitFailed);
            return true;
        }
    }
    return failedOrRefused(ctx, answer);
}

// --json: the broker's answer as it came.
bool printedJson(Context &ctx, bool json, const Broker::FederationAnswer &answer)
{
    if (!json)
        return false;
    ctx.outRaw(Format::prettyJson(answer.toJson()));
    ctx.finish(ExitOk);
    return true;
}

// A field of the answer as text; empty when the answer lacks it (a 0.7 broker's lacks ours).
QString detail(const Broker::FederationAnswer &answer, const char *key)
{
    const QJsonValue value = answer.details.value(QLatin1String(key));
    return value.isUndefined() || value.isNull() ? QString() : Format::scalar(value);
}

std::optional<HostPort> target(Context &ctx, const QString &text)
{
    auto hp = FederationFormat::hostPort(text);
    if (!hp) {
        ctx.err(QStringLiteral("Invalid port in \"%1\". Expected <host>:<port>.").arg(text));
        ctx.finish(ExitUsage);
    }
    return hp;
}

// Applies change to the config file (locked: Broker::ConfigFile::update); false (command
// finished) when the file could not be read or written.
bool editConfig(Context &ctx, const std::function<void(Broker::ConfigFile &)> &change)
{
    const auto saved = Broker::ConfigFile::update(ctx.location().configPath, [&](Broker::ConfigFile &config) {
        change(config);
        return true;
    });
    if (!saved) {
        if (saved.error().kind == Broker::ErrorKind::Unreadable) {
            ctx.err(QStringLiteral("Error: ") + saved.error().message);
            ctx.finish(ExitFailed);
        } else {
            ctx.fail(saved.error());
        }
        return false;
    }
    return true;
}

void status(Context &ctx, const Invocation &inv, const QStringList &)
{
    const bool json = inv.flag("json");
    ctx.api().federationStatus([&ctx, json](Broker::Result<Broker::FederationStatusAnswer> status) {
        if (!status) {
            if (status.error().kind == Broker::ErrorKind::Unreachable)
                ctx.out(QStringLiteral("Broker is not running."));
            ctx.fail(status.error());
            return;
        }
        if (json)
            ctx.outRaw(Format::prettyJson(status->raw));
        else
            ctx.out(
                FederationFormat::status(*status, QDateTime::currentDateTimeUtc()).join(QLatin1Char('\n')));
        ctx.finish(ExitOk);
    });
}

void connectRemote(Context &ctx, const Invocation &inv, const QStringList &args)
{
    const auto hp = target(ctx, args.at(0));
    if (!hp)
        return;
    // A pin the user gives goes where the broker reads pins on every outbound request.
    if (const QString fingerprint = inv.value("fingerprint"); !fingerprint.isEmpty()) {
        if (!fingerprint.startsWith(QLatin1String("sha256-")) || fingerprint.size() != 50) {
            ctx.err(
                QStringLiteral("Invalid fingerprint \"%1\". Expected sha256-<43 base64url characters>, as "
                               "`claude-peers federation status` prints it on the other machine.")
                    .arg(fingerprint));
            ctx.finish(ExitUsage);
            return;
        }
        if (!editConfig(ctx, [&](Broker::ConfigFile &c) { c.setPin(hp->host, hp->port, fingerprint); }))
            return;
    }
    Broker::FederationConnectRequest request;
    request.host = hp->host;
    request.port = hp->port;
    ctx.api().call(
        request,
        [&ctx, json = inv.flag("json"), hp = *hp,
         pinned = inv.value("fingerprint")](Broker::Result<Broker::FederationAnswer> answer) {
            if (failed(ctx, answer, Broker::FederationConnectRequest::path) ||
                printedJson(ctx, json, *answer))
                return;
            const QString hostname = detail(*answer, "hostname");
            // A 0.7 remote says nothing of its certificate: the one the user pinned is the one used.
            QString fingerprint = detail(*answer, "fingerprint");
            if (fingerprint.isEmpty())
                fingerprint = pinned;
            auto done = [&ctx, hp, hostname, fingerprint](qint64 peers) {
                ctx.out(QStringLiteral("Connected to %1:%2 (%3). %4 remote peer(s) available.")
                            .arg(hp.host)
                            .arg(hp.port)
                            .arg(hostname)
                            .arg(peers));
                if (!fingerprint.isEmpty())
                    ctx.out(
                        QStringLiteral("Its certificate: %1 (pinned; `claude-peers federation status` on %2 "
                                       "shows the same)")
                            .arg(fingerprint, hostname));
                ctx.finish(ExitOk);
            };
            if (const auto count = Broker::integerValue(answer->details.value(QLatin1String("peer_count")))) {
                done(*count);
                return;
            }
            // 0.7's answer has no peer count (its CLI printed 0): the status has it.
            ctx.api().federationStatus([hp, done](Broker::Result<Broker::FederationStatusAnswer> status) {
                qint64 peers = 0;
                for (const auto &r :
                     status ? status->remotes : QList<Broker::FederationStatusAnswer::Remote> {}) {
                    if (r.host == hp.host && r.port == hp.port)
                        peers = r.peerCount;
                }
                done(peers);
            });
        },
        LinkTimeoutMs);
}

void disconnectRemote(Context &ctx, const Invocation &inv, const QStringList &args)
{
    const auto hp = target(ctx, args.at(0));
    if (!hp)
        return;
    Broker::FederationDisconnectRequest request;
    request.host = hp->host;
    request.port = hp->port;
    ctx.api().call(
        request, [&ctx, json = inv.flag("json"), hp = *hp](Broker::Result<Broker::FederationAnswer> answer) {
            if (failed(ctx, answer, Broker::FederationDisconnectRequest::path) ||
                printedJson(ctx, json, *answer))
                return;
            ctx.out(QStringLiteral("Disconnected from %1:%2.").arg(hp.host).arg(hp.port));
            ctx.finish(ExitOk);
        });
}

// The Federation page's Revoke: the link, the saved remote and the pin go, and the broker refuses
// that machine until it is paired or connected again.
void revoke(Context &ctx, const Invocation &inv, const QStringList &args)
{
    const auto hp = target(ctx, args.at(0));
    if (!hp)
        return;
    Broker::FederationRevokeRequest request;
    request.host = hp->host;
    request.port = hp->port;
    ctx.api().call(
        request, [&ctx, json = inv.flag("json"), hp = *hp](Broker::Result<Broker::FederationAnswer> answer) {
            if (failed(ctx, answer, Broker::FederationRevokeRequest::path) || printedJson(ctx, json, *answer))
                return;
            const QString hostname = detail(*answer, "hostname");
            ctx.out(QStringLiteral(
                        "Revoked %1:%2%3: disconnected, its pin and saved address removed; it is refused "
                        "until you pair it again.")
                        .arg(hp.host)
                        .arg(hp.port)
                        .arg(hostname.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(hostname)));
            if (const QString note = detail(*answer, "note"); !note.isEmpty())
                ctx.out(note);
            ctx.finish(ExitOk);
        });
}

// The audit trail: refusals on the federation port and the pairing decisions.
void attempts(Context &ctx, const Invocation &inv, const QStringList &)
{
    ctx.api().call(Broker::FederationAttemptsRequest {},
                   [&ctx, json = inv.flag("json")](Broker::Result<Broker::FederationAnswer> answer) {
                       if (failed(ctx, answer, Broker::FederationAttemptsRequest::path) ||
                           printedJson(ctx, json, *answer))
                           return;
                       ctx.out(FederationFormat::attempts(answer->details).join(QLatin1Char('\n')));
                       ctx.finish(ExitOk);
                   });
}

// The Federation page's "Un-ignore": a machine whose request was ignored may ask again.
void unignore(Context &ctx, const Invocation &inv, const QStringList &args)
{
    Broker::FederationUnignoreRequest request;
    request.fingerprint = args.at(0);
    ctx.api().call(
        request,
        [&ctx, json = inv.flag("json"), pin = args.at(0)](Broker::Result<Broker::FederationAnswer> answer) {
            if (failed(ctx, answer, Broker::FederationUnignoreRequest::path) ||
                printedJson(ctx, json, *answer))
                return;
            ctx.out(
                QStringLiteral("%1 is no longer ignored: when it is found again it is offered for pairing.")
                    .arg(pin));
            ctx.finish(ExitOk);
        });
}

void token(Context &ctx, const Invocation &inv, const QStringList &)
{
    Broker::FederationTokenRequest request;
    request.host = inv.value("host");
    request.legacy = inv.flag("legacy");
    ctx.api().call(request,
                   [&ctx, json = inv.flag("json")](Broker::Result<Broker::FederationTokenAnswer> answer) {
                       if (failed(ctx, answer, Broker::FederationTokenRequest::path))
                           return;
                       if (json) {
                           ctx.outRaw(Format::prettyJson(answer->toJson()));
                           ctx.finish(ExitOk);
                           return;
                       }
                       ctx.out(answer->url);
                       ctx.err(QStringLiteral(
                           "Warning: this URL contains the federation secret. Give it only to your own "
                           "machines (claude-peers federation join <url> there); if it leaks, run: "
                           "claude-peers federation rotate-psk"));
                       ctx.finish(ExitOk);
                   });
}

// Runs next once the broker answers, starting it first when it is not running.
void withBroker(Context &ctx, std::function<void()> next)
{
    auto *control = new BrokerControl(ctx, &ctx);
    control->probe([&ctx, control, next = std::move(next)](BrokerControl::Health health) {
        if (health.up) {
            next();
            return;
        }
        ctx.out(QStringLiteral("  ..   The broker is not running; starting it."));
        control->start([&ctx, next](int code) {
            if (code != ExitOk) {
                ctx.finish(code);
                return;
            }
            next();
        });
    });
}

// The user's answer to a yes/no question, read from stdin; nullopt when there is no answer to
// read (stdin closed or not given: a script), so the caller fails instead of assuming yes.
std::optional<bool> ask(Context &ctx, const QString &question)
{
    ctx.errRaw(question + QStringLiteral(" [y/N] "));
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray line = in.readLine(256);
    if (line.isEmpty()) {
        ctx.err(QString());
        return std::nullopt;
    }
    const QByteArray answer = line.trimmed().toLower();
    return answer == "y" || answer == "yes";
}

void notInteractive(Context &ctx, const QString &what)
{
    ctx.err(QStringLiteral(
                "Failed: no answer on standard input. Compare the code with the other machine, then run "
                "this again in a terminal, or add --yes to %1.")
                .arg(what));
    ctx.finish(ExitFailed);
}

void pairCode(Context &ctx, const Invocation &inv, const QStringList &)
{
    const bool json = inv.flag("json");
    ctx.api().call(
        Broker::FederationPairCodeRequest {}, [&ctx, json](Broker::Result<Broker::FederationAnswer> answer) {
            if (failed(ctx, answer, Broker::FederationPairCodeRequest::path))
                return;
            if (json) {
                ctx.outRaw(Format::prettyJson(answer->toJson()));
                ctx.finish(ExitOk);
                return;
            }
            const QString code = detail(*answer, "code");
            ctx.out(QStringLiteral("Pairing code: %1  (one use, valid %2 minutes)")
                        .arg(code)
                        .arg(Broker::integerValue(answer->details.value(QLatin1String("expires_in_s")))
                                 .value_or(600) /
                             60));
            ctx.out(QStringLiteral("This machine: %1 at %2:%3, certificate %4")
                        .arg(detail(*answer, "hostname"), detail(*answer, "host"), detail(*answer, "port"),
                             detail(*answer, "fingerprint")));
            ctx.out(QString());
            ctx.out(QStringLiteral("On the other machine run:"));
            ctx.out(QStringLiteral("  claude-peers federation join %1:%2 %3")
                        .arg(detail(*answer, "host"), detail(*answer, "port"), code));
            ctx.out(QStringLiteral("then here: claude-peers federation pending, and accept the request "
                                   "whose 6-digit code both machines show."));
            ctx.finish(ExitOk);
        });
}

// Machine B after the user confirmed: waits (20 s per call) until machine A accepts or rejects.
void waitForAccept(Context &ctx, const QString &id, const QString &hostname)
{
    Broker::FederationPairConfirmRequest request;
    request.id = id;
    ctx.api().call(
        request,
        [&ctx, id, hostname](Broker::Result<Broker::FederationAnswer> answer) {
            if (answer && !answer->ok) {
                ctx.out(QStringLiteral("  3. FAIL ") + answer->error);
                ctx.err(QStringLiteral("Failed: %1").arg(answer->error));
                ctx.finish(ExitFailed);
                return;
            }
            if (failed(ctx, answer, Broker::FederationPairConfirmRequest::path))
                return;
            if (detail(*answer, "state") == QLatin1String("pending")) {
                waitForAccept(ctx, id, hostname);
                return;
            }
            ctx.out(
                QStringLiteral("  3. OK   %1 accepted: the federation key arrived, its certificate is pinned "
                               "and the link is up")
                    .arg(hostname));
            ctx.finish(ExitOk);
        },
        LinkTimeoutMs + 60000);
}

void joinByCode(Context &ctx, const Invocation &inv, const QString &target, const QString &code)
{
    auto hp = FederationFormat::hostPort(target);
    if (!hp && !target.contains(QLatin1Char(':')) && !target.isEmpty())
        hp = HostPort {target, 7900};
    if (!hp) {
        ctx.err(QStringLiteral("Invalid address \"%1\". Expected <host>[:<port>] as `claude-peers federation "
                               "pair-code` printed it on the other machine.")
                    .arg(target));
        ctx.finish(ExitUsage);
        return;
    }
    const bool yes = inv.flag("yes");
    ctx.out(QStringLiteral("[Federation Join]"));
    withBroker(ctx, [&ctx, hp = *hp, code, yes] {
        ctx.out(QStringLiteral("  1. ..   Proving the code to %1:%2 (nothing secret is sent)...")
                    .arg(hp.host)
                    .arg(hp.port));
        Broker::FederationPairRequest request;
        request.host = hp.host;
        request.port = hp.port;
        request.code = code;
        ctx.api().call(
            request,
            [&ctx, yes](Broker::Result<Broker::FederationAnswer> answer) {
                if (answer && !answer->ok) {
                    ctx.out(QStringLiteral("  1. FAIL ") + answer->error);
                    ctx.err(QStringLiteral("Failed: %1").arg(answer->error));
                    ctx.finish(ExitFailed);
                    return;
                }
                if (failed(ctx, answer, Broker::FederationPairRequest::path))
                    return;
                const QString id = detail(*answer, "id");
                const QString hostname = detail(*answer, "hostname");
                ctx.out(QStringLiteral("  1. OK   %1 knows the code; its certificate: %2")
                            .arg(hostname, detail(*answer, "fingerprint")));
                ctx.out(QStringLiteral("  2. ..   Verification code: %1").arg(detail(*answer, "sas")));
                const auto confirmed = yes ? std::optional<bool>(true)
                                           : ask(ctx,
                                                 QStringLiteral("Does %1 show the same code (claude-peers "
                                                                "federation pending there)?")
                                                     .arg(hostname));
                if (!confirmed || !*confirmed) {
                    Broker::FederationPairCancelRequest cancel;
                    cancel.id = id;
                    ctx.api().call(cancel, [&ctx, confirmed](Broker::Result<Broker::FederationAnswer>) {
                        if (!confirmed) {
                            notInteractive(ctx,
                                           QStringLiteral("claude-peers federation join <host:port> <code>"));
                            return;
                        }
                        ctx.err(QStringLiteral(
                            "Failed: the codes differ, so pairing stopped; nothing was shared. "
                            "Something may sit between the two machines: pair on a network you "
                            "trust."));
                        ctx.finish(ExitFailed);
                    });
                    return;
                }
                ctx.out(QStringLiteral("  2. OK   Codes match"));
                ctx.out(QStringLiteral(
                            "  3. ..   Waiting for %1 to accept (claude-peers federation accept %2 there)")
                            .arg(hostname, id));
                waitForAccept(ctx, id, hostname);
            },
            LinkTimeoutMs + 10000);
    });
}

void join(Context &ctx, const Invocation &inv, const QStringList &args)
{
    if (args.size() == 2) {
        joinByCode(ctx, inv, args.at(0).trimmed(), args.at(1).trimmed());
        return;
    }
    const QString url = args.at(0).trimmed();
    const auto hp = FederationFormat::joinTarget(url);
    if (!hp) {
        ctx.err(QStringLiteral(
            "Error: Invalid URL format. Expected cpt://<host>:<port>/<token> (from `claude-peers "
            "federation token` on the other machine)"));
        ctx.finish(ExitUsage);
        return;
    }
    ctx.out(QStringLiteral("[Federation Join]"));
    ctx.out(QStringLiteral("  1. OK   Join URL for %1:%2%3")
                .arg(hp->host)
                .arg(hp->port)
                .arg(url.contains(QLatin1String(";fp="))
                         ? QStringLiteral(" (with its certificate fingerprint)")
                         : QStringLiteral(" (no fingerprint: its certificate is trusted on first use)")));
    withBroker(ctx, [&ctx, url, hp = *hp] {
        ctx.out(
            QStringLiteral("  2. ..   Pairing with %1:%2 through the broker...").arg(hp.host).arg(hp.port));
        ctx.api().call(
            Broker::FederationJoinRequest {url},
            [&ctx, hp](Broker::Result<Broker::FederationAnswer> answer) {
                if (answer && !answer->ok) {
                    ctx.out(QStringLiteral("  2. FAIL ") + answer->error);
                    ctx.err(QStringLiteral("Failed: %1\nThe remote is saved and the broker keeps retrying; "
                                           "`claude-peers federation status` shows when it is connected, "
                                           "`claude-peers federation doctor` checks this machine.")
                                .arg(answer->error));
                    ctx.finish(ExitFailed);
                    return;
                }
                if (failed(ctx, answer, Broker::FederationJoinRequest::path))
                    return;
                const QString hostname = detail(*answer, "hostname");
                ctx.out(
                    QStringLiteral("  2. OK   Paired with %1 (%2:%3)").arg(hostname, hp.host).arg(hp.port));
                if (const QString fp = detail(*answer, "fingerprint"); !fp.isEmpty())
                    ctx.out(QStringLiteral("  3. OK   Its certificate is pinned: %1").arg(fp));
                if (const QString sas = detail(*answer, "sas"); !sas.isEmpty())
                    ctx.out(
                        QStringLiteral("Verification code: %1 — %2 shows the same code. If it does not, run: "
                                       "claude-peers federation disconnect %3:%4")
                            .arg(sas, hostname, hp.host)
                            .arg(hp.port));
                ctx.finish(ExitOk);
            },
            LinkTimeoutMs);
    });
}

// POST /reload when a broker runs; tells whether the change is live.
void applyConfig(Context &ctx, std::function<void()> next = {})
{
    auto *control = new BrokerControl(ctx, &ctx);
    control->probe([&ctx, next = std::move(next)](BrokerControl::Health health) {
        if (!health.up) {
            ctx.out(QStringLiteral("The broker is not running; it applies this when it starts."));
            if (next)
                next();
            else
                ctx.finish(ExitOk);
            return;
        }
        ctx.api().call(Broker::ReloadRequest {}, [&ctx, next](Broker::Result<Broker::ReloadAnswer> reloaded) {
            if (reloaded)
                ctx.out(QStringLiteral("The broker re-read the config."));
            else
                ctx.err(
                    QStringLiteral("Warning: the broker did not re-read the config (%1); run: claude-peers "
                                   "restart")
                        .arg(reloaded.error().message));
            if (next)
                next();
            else
                ctx.finish(ExitOk);
        });
    });
}

std::optional<QStringList> subnetsOption(Context &ctx, const QString &text)
{
    QStringList subnets;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!FederationFormat::isCidr(part.trimmed())) {
            ctx.err(QStringLiteral("Invalid subnet \"%1\". Expected a CIDR such as 192.168.1.0/24 (several: "
                                   "comma-separated).")
                        .arg(part.trimmed()));
            ctx.finish(ExitUsage);
            return std::nullopt;
        }
        subnets << part.trimmed();
    }
    return subnets;
}

std::optional<int> portArgument(Context &ctx, const QString &text)
{
    bool ok = false;
    const int port = text.toInt(&ok);
    if (!ok || port < 1 || port > 65535) {
        ctx.err(QStringLiteral("Invalid port \"%1\". Expected 1-65535.").arg(text));
        ctx.finish(ExitUsage);
        return std::nullopt;
    }
    return port;
}

void enable(Context &ctx, const Invocation &, const QStringList &args)
{
    std::optional<int> port;
    if (args.size() > 0 && !(port = portArgument(ctx, args.at(0))))
        return;
    std::optional<QStringList> subnets = QStringList();
    if (args.size() > 1 && !(subnets = subnetsOption(ctx, args.at(1))))
        return;
    int effectivePort = 7900;
    QStringList effectiveSubnets;
    // Unlike 0.7, the rest of the federation object (remotes, pins, mdns) is kept.
    const bool saved = editConfig(ctx, [&](Broker::ConfigFile &c) {
        c.setFederationEnabled(true);
        if (port)
            c.setFederationPort(*port);
        if (!subnets->isEmpty())
            c.setFederationSubnets(*subnets);
        effectivePort = c.federationPort().value_or(7900);
        effectiveSubnets = c.federationSubnets();
    });
    if (!saved)
        return;
    ctx.out(QStringLiteral("Federation enabled in %1 (port %2, subnet %3).")
                .arg(ctx.location().configPath)
                .arg(effectivePort)
                .arg(effectiveSubnets.isEmpty() ? QStringLiteral("detected by the broker")
                                                : effectiveSubnets.join(QStringLiteral(", "))));
    applyConfig(ctx);
}

void disable(Context &ctx, const Invocation &, const QStringList &)
{
    if (!editConfig(ctx, [](Broker::ConfigFile &c) { c.setFederationEnabled(false); }))
        return;
    ctx.out(QStringLiteral("Federation disabled in %1 (remotes and pins are kept).")
                .arg(ctx.location().configPath));
    applyConfig(ctx);
}

// init's last lines: the port to open, and the URL for the other machine.
void listeningAndUrl(Context &ctx, int port, const QString &url)
{
    ctx.out(QStringLiteral(
                "  4. OK   Listening on TCP port %1 — if a firewall runs, open it (e.g. sudo ufw allow "
                "%1/tcp)")
                .arg(port));
    if (!url.isEmpty()) {
        ctx.out(QString());
        ctx.out(QStringLiteral("On the other machine run:"));
        ctx.out(QStringLiteral("  claude-peers federation join ") + url);
        ctx.err(QStringLiteral(
            "Warning: the join URL contains the federation secret; share it only with your own "
            "machines."));
    }
    ctx.finish(ExitOk);
}

void init(Context &ctx, const Invocation &inv, const QStringList &)
{
    std::optional<int> port;
    if (inv.hasValue("port") && !(port = portArgument(ctx, inv.value("port"))))
        return;
    std::optional<QStringList> subnets = QStringList();
    if (inv.hasValue("subnet") && !(subnets = subnetsOption(ctx, inv.value("subnet"))))
        return;
    const QString envPort = ctx.environment().value(QStringLiteral("CLAUDE_PEERS_FEDERATION_PORT"));
    int effectivePort = 7900;
    const bool saved = editConfig(ctx, [&](Broker::ConfigFile &c) {
        c.setFederationEnabled(true);
        if (port)
            c.setFederationPort(*port);
        else if (!c.federationPort() && envPort.toInt() > 0)
            c.setFederationPort(envPort.toInt());
        if (!subnets->isEmpty())
            c.setFederationSubnets(*subnets);
        effectivePort = c.federationPort().value_or(7900);
    });
    if (!saved)
        return;
    ctx.out(QStringLiteral("[Federation Init]"));
    ctx.out(QStringLiteral("  1. OK   Config: federation enabled on port %1 in %2")
                .arg(effectivePort)
                .arg(ctx.location().configPath));
    auto request =
        Broker::FederationInitRequest {port ? std::optional<qint64>(*port) : std::nullopt, *subnets};
    auto initInBroker = [&ctx, request, effectivePort] {
        ctx.api().call(
            request,
            [&ctx, effectivePort](Broker::Result<Broker::FederationAnswer> answer) {
                if (failed(ctx, answer, Broker::FederationInitRequest::path))
                    return;
                ctx.out(QStringLiteral("  2. OK   Federation secret: its own, kept in %1")
                            .arg(detail(*answer, "psk_location")));
                ctx.out(QStringLiteral("  3. OK   Certificate fingerprint: %1")
                            .arg(detail(*answer, "fingerprint")));
                const bool restart = answer->details.value(QLatin1String("restart_needed")).toBool();
                if (!restart) {
                    listeningAndUrl(ctx, effectivePort, detail(*answer, "url"));
                    return;
                }
                // The federation port opens at the broker's start.
                ctx.out(QStringLiteral("  ..   Restarting the broker to open the federation port"));
                auto *control = new BrokerControl(ctx, &ctx);
                control->stop([&ctx, control, effectivePort](int stopped) {
                    if (stopped != ExitOk) {
                        ctx.finish(stopped);
                        return;
                    }
                    control->start([&ctx, effectivePort](int started) {
                        if (started != ExitOk) {
                            ctx.finish(started);
                            return;
                        }
                        ctx.api().call(
                            Broker::FederationTokenRequest {},
                            [&ctx, effectivePort](Broker::Result<Broker::FederationTokenAnswer> token) {
                                if (failed(ctx, token, Broker::FederationTokenRequest::path))
                                    return;
                                listeningAndUrl(ctx, effectivePort, token->url);
                            });
                    });
                });
            },
            LinkTimeoutMs);
    };
    // A running broker re-reads the config first (enable applies without a restart).
    auto *control = new BrokerControl(ctx, &ctx);
    control->probe([&ctx, initInBroker](BrokerControl::Health health) {
        if (health.up) {
            ctx.api().call(Broker::ReloadRequest {},
                           [initInBroker](Broker::Result<Broker::ReloadAnswer>) { initInBroker(); });
            return;
        }
        withBroker(ctx, initInBroker);
    });
}

void rotatePsk(Context &ctx, const Invocation &inv, const QStringList &)
{
    ctx.api().call(
        Broker::FederationRotatePskRequest {},
        [&ctx, json = inv.flag("json")](Broker::Result<Broker::FederationAnswer> answer) {
            if (failed(ctx, answer, Broker::FederationRotatePskRequest::path) ||
                printedJson(ctx, json, *answer))
                return;
            const QString where = detail(*answer, "location");
            ctx.out(QStringLiteral("Federation secret rotated%1.")
                        .arg(where.isEmpty() ? QString() : QStringLiteral(" (kept in %1)").arg(where)));
            ctx.out(QStringLiteral(
                "Paired machines need it: run `claude-peers federation token` here and `claude-peers "
                "federation join <url>` on each of them."));
            ctx.finish(ExitOk);
        });
}

void pending(Context &ctx, const Invocation &inv, const QStringList &)
{
    const bool json = inv.flag("json");
    ctx.api().call(Broker::FederationPendingRequest {},
                   [&ctx, json](Broker::Result<Broker::FederationPendingAnswer> answer) {
                       if (failed(ctx, answer, Broker::FederationPendingRequest::path))
                           return;
                       if (json)
                           ctx.outRaw(Format::prettyJson(answer->toJson().value(QLatin1String("requests"))));
                       else
                           ctx.out(FederationFormat::pending(*answer).join(QLatin1Char('\n')));
                       ctx.finish(ExitOk);
                   });
}

void accept(Context &ctx, const Invocation &inv, const QStringList &args)
{
    const QString id = args.at(0);
    const bool yes = inv.flag("yes");
    const bool json = inv.flag("json");
    // The request's code is shown and confirmed before anything is accepted.
    ctx.api().call(
        Broker::FederationPendingRequest {},
        [&ctx, id, yes, json](Broker::Result<Broker::FederationPendingAnswer> list) {
            if (failed(ctx, list, Broker::FederationPendingRequest::path))
                return;
            const auto found = std::find_if(list->requests.begin(), list->requests.end(),
                                            [&](const auto &r) { return r.id == id; });
            if (found == list->requests.end()) {
                ctx.err(QStringLiteral(
                            "Failed: no pairing request %1 (expired?). See: claude-peers federation pending")
                            .arg(id));
                ctx.finish(ExitFailed);
                return;
            }
            // With --json the request goes to stderr: stdout holds only the answer.
            const auto say = [&ctx, json](const QString &line) { json ? ctx.err(line) : ctx.out(line); };
            say(QStringLiteral("Pairing request %1 from %2 (%3:%4)")
                    .arg(id, found->hostname, found->host)
                    .arg(found->port));
            say(QStringLiteral("  its certificate: %1").arg(found->fingerprint));
            if (!found->sas.isEmpty())
                say(QStringLiteral("  verification code: %1").arg(found->sas));
            if (!yes) {
                const auto confirmed =
                    ask(ctx,
                        found->sas.isEmpty()
                            ? QStringLiteral("Accept %1?").arg(found->hostname)
                            : QStringLiteral("Does %1 show the same code?").arg(found->hostname));
                if (!confirmed) {
                    notInteractive(ctx, QStringLiteral("claude-peers federation accept <id>"));
                    return;
                }
                if (!*confirmed) {
                    ctx.err(QStringLiteral(
                                "Not accepted. If the codes differ, reject it: claude-peers federation "
                                "reject %1")
                                .arg(id));
                    ctx.finish(ExitFailed);
                    return;
                }
            }
            Broker::FederationAcceptRequest request;
            request.id = id;
            ctx.api().call(request, [&ctx, json, id](Broker::Result<Broker::FederationAnswer> answer) {
                if (failed(ctx, answer, Broker::FederationAcceptRequest::path) ||
                    printedJson(ctx, json, *answer))
                    return;
                const QString hostname = detail(*answer, "hostname");
                ctx.out(QStringLiteral(
                            "Accepted %1: its certificate is pinned; it receives the federation key and "
                            "connects.")
                            .arg(hostname.isEmpty() ? id : hostname));
                ctx.finish(ExitOk);
            });
        });
}

void reject(Context &ctx, const Invocation &inv, const QStringList &args)
{
    Broker::FederationRejectRequest request;
    request.id = args.at(0);
    ctx.api().call(
        request,
        [&ctx, json = inv.flag("json"), id = request.id](Broker::Result<Broker::FederationAnswer> answer) {
            if (failed(ctx, answer, Broker::FederationRejectRequest::path) || printedJson(ctx, json, *answer))
                return;
            ctx.out(QStringLiteral("Rejected pairing request %1.").arg(id));
            ctx.finish(ExitOk);
        });
}

void refreshWsl2(Context &ctx, const Invocation &, const QStringList &)
{
    ctx.err(
        QStringLiteral("federation refresh-wsl2 is not part of this version (no WSL2 port-proxy steps)."));
    ctx.finish(ExitUnavailable);
}

struct Subcommand
{
    const char *name;
    const char *arguments;
    int minArgs;
    int maxArgs;
    void (*run)(Context &, const Invocation &, const QStringList &);
    const char *options = ""; // the options it takes, space-separated
};

const Subcommand kSubcommands[] = {
    {"init", "[--port P] [--subnet CIDR[,CIDR...]]", 0, 0, &init, "port subnet"},
    {"setup", "(same as init)", 0, 0, &init, "port subnet"},
    {"join", "<cpt-url> | <host>[:<port>] <code> [--yes]", 1, 2, &join, "yes"},
    {"pair-code", "[--json]", 0, 0, &pairCode, "json"},
    {"token", "[--host H] [--legacy] [--json]", 0, 0, &token, "host legacy json"},
    {"doctor", "[--json]", 0, 0, &federationDoctor, "json"},
    {"connect", "<host>:<port> [--fingerprint sha256-...] [--json]", 1, 1, &connectRemote,
     "fingerprint json"},
    {"disconnect", "<host>:<port> [--json]", 1, 1, &disconnectRemote, "json"},
    {"revoke", "<host>:<port> [--json]", 1, 1, &revoke, "json"},
    {"attempts", "[--json]", 0, 0, &attempts, "json"},
    {"unignore", "<fingerprint> [--json]", 1, 1, &unignore, "json"},
    {"status", "[--json]", 0, 0, &status, "json"},
    {"enable", "[port] [subnet]", 0, 2, &enable},
    {"disable", "", 0, 0, &disable},
    {"rotate-psk", "[--json]", 0, 0, &rotatePsk, "json"},
    {"pending", "[--json]", 0, 0, &pending, "json"},
    {"accept", "<id> [--yes] [--json]", 1, 1, &accept, "yes json"},
    {"reject", "<id> [--json]", 1, 1, &reject, "json"},
    {"refresh-wsl2", "", 0, 0, &refreshWsl2},
};

void subcommandUsage(Context &ctx)
{
    ctx.err(QStringLiteral("Usage: claude-peers federation <subcommand>"));
    for (const Subcommand &s : kSubcommands)
        ctx.err(QStringLiteral("  %1 %2").arg(QLatin1String(s.name), QLatin1String(s.arguments)));
    ctx.finish(ExitUsage);
}

} // namespace

void federation(Context &ctx, const Invocation &inv)
{
    if (inv.positional.isEmpty()) {
        subcommandUsage(ctx);
        return;
    }
    const QString name = inv.positional.first();
    const QStringList args = inv.positional.mid(1);
    for (const Subcommand &s : kSubcommands) {
        if (name != QLatin1String(s.name))
            continue;
        if (args.size() < s.minArgs || args.size() > s.maxArgs) {
            ctx.err(QStringLiteral("Usage: claude-peers federation %1 %2")
                        .arg(QLatin1String(s.name), QLatin1String(s.arguments))
                        .trimmed());
            ctx.finish(ExitUsage);
            return;
        }
        const QStringList allowed = QString::fromUtf8(s.options).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QString &given : QStringList(inv.flags.values()) + inv.values.keys()) {
            if (!allowed.contains(given)) {
                ctx.err(QStringLiteral("Option --%1 does not apply to federation %2").arg(given, name));
                ctx.err(QStringLiteral("Usage: claude-peers federation %1 %2")
                            .arg(QLatin1String(s.name), QLatin1String(s.arguments))
                            .trimmed());
                ctx.finish(ExitUsage);
                return;
            }
        }
        s.run(ctx, inv, args);
        return;
    }
    ctx.err(QStringLiteral("Unknown federation subcommand: %1").arg(name));
    subcommandUsage(ctx);
}

} // namespace Cli::Handlers
