// `claude-peers hook [<event>]`: what Claude Code's hooks run to report a session's attention
// state to the broker. It must never hold up or break the session: the whole run is bounded
// (HookBudgetMs), every outcome exits 0 with at most one line on stderr, and stdout stays empty
// (Claude Code adds a UserPromptSubmit hook's stdout to the prompt).
#include "app/cli/context.h"
#include "app/cli/handlers.h"
#include "common/claudehooks.h"
#include "common/processtty.h"
#include "common/wire.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cerrno>

#include <poll.h>
#include <unistd.h>

namespace Cli {

namespace {

// From the command's start to exit, broker down or hung included; with the process's own
// start-up (tens of ms on a loaded machine) a run stays under 300 ms (peers-hook-bench).
constexpr int HookBudgetMs = 250;
constexpr int StdinBudgetMs = 100; // Claude Code writes the JSON and closes the pipe at once
constexpr qsizetype MaxStdinBytes = 64 * 1024; // the JSON we read is small; a transcript is not in it
constexpr int MaxAncestors = 12;
// Claude Code runs a hook through a shell (sometimes a wrapper more): its process is this close
// to us. Farther ancestors (a terminal's shell, tmux, a subreaper) are shared by many sessions.
constexpr int MaxSessionDepth = 4;

// stdin up to its end, MaxStdinBytes or the deadline; nothing from a terminal (run by hand).
Broker::Result<QByteArray> readStdin(const QElapsedTimer &clock)
{
    QByteArray bytes;
    if (::isatty(STDIN_FILENO))
        return bytes;
    char buffer[8192];
    for (;;) {
        const qint64 left = StdinBudgetMs - clock.elapsed();
        if (left <= 0)
            return Broker::fail(
                Broker::ErrorKind::Unreadable,
                QStringLiteral("stdin did not end within %1 ms; nothing was reported").arg(StdinBudgetMs));
        pollfd fd {STDIN_FILENO, POLLIN, 0};
        const int ready = ::poll(&fd, 1, int(left));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return bytes; // no usable stdin: as if it were empty
        if (ready == 0)
            continue; // the deadline check above ends it
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return bytes; // end of input (or no stdin at all)
        bytes.append(buffer, n);
        if (bytes.size() > MaxStdinBytes)
            return Broker::fail(Broker::ErrorKind::TooLarge,
                                QStringLiteral("the hook's input is larger than %1 KiB; nothing was reported")
                                    .arg(MaxStdinBytes / 1024));
    }
}

QList<qint64> ancestors()
{
    QList<qint64> chain;
    for (qint64 pid = qint64(::getppid()); pid > 1 && chain.size() < MaxAncestors;
         pid = Broker::ProcessTty::parentOf(pid))
        chain.append(pid);
    return chain;
}

// The peer of the session that ran this hook, in the order the helper itself takes its id:
// CLAUDE_PEERS_ID; the helper whose parent (Claude Code, which starts its MCP servers
// directly) is one of our ancestors; the id of the terminal (CLAUDE_PEERS_TTY, else the first
// one up our process chain); the id a session without a terminal asks for in its folder.
QString findPeer(const QList<Broker::Peer> &peers, const QProcessEnvironment &env, const QString &cwd)
{
    const auto known = [&peers](const QString &id) {
        return std::any_of(peers.begin(), peers.end(), [&id](const Broker::Peer &p) { return p.id == id; });
    };
    const QString explicitId = env.value(QStringLiteral("CLAUDE_PEERS_ID")).trimmed();
    if (!explicitId.isEmpty())
        return explicitId; // the broker says so when it does not know it

    const QList<qint64> chain = ancestors();
    for (qint64 ancestor : chain.mid(0, MaxSessionDepth)) {
        for (const Broker::Peer &peer : peers) {
            if (!peer.isRemote() && peer.pid > 0 && Broker::ProcessTty::parentOf(peer.pid) == ancestor)
                return peer.id;
        }
    }

    QStringList ttys;
    if (env.contains(QStringLiteral("CLAUDE_PEERS_TTY"))) {
        ttys << env.value(QStringLiteral("CLAUDE_PEERS_TTY")).trimmed();
    } else {
        ttys << Broker::ProcessTty::forProcess(qint64(::getpid()));
        for (qint64 ancestor : chain)
            ttys << Broker::ProcessTty::forProcess(ancestor);
    }
    for (const QString &tty : std::as_const(ttys)) {
        if (!tty.isEmpty() && known(Broker::peerIdForTty(tty)))
            return Broker::peerIdForTty(tty);
    }
    const QString folderId = Broker::peerIdWithoutTty(QStringLiteral("claude-code"), cwd);
    return known(folderId) ? folderId : QString();
}

// Ends the run: one line on stderr when there is something to say, and exit 0 always.
void done(Context &ctx, const QString &problem = {})
{
    if (ctx.isFinished())
        return;
    if (!problem.isEmpty())
        ctx.err(QStringLiteral("claude-peers hook: ") + problem);
    ctx.finish(ExitOk);
}

} // namespace

namespace Handlers {

void hook(Context &ctx, const Invocation &inv)
{
    if (inv.flag("print-config")) {
        const QString program = QCoreApplication::applicationFilePath().isEmpty()
            ? QStringLiteral("claude-peers")
            : QCoreApplication::applicationFilePath();
        ctx.outRaw(Broker::ClaudeHooks::settingsSnippetText(program));
        ctx.finish(ExitOk);
        return;
    }
    QElapsedTimer clock;
    clock.start();
    // Whatever happens below, the run ends within the budget.
    QTimer::singleShot(HookBudgetMs, &ctx, [&ctx] {
        done(
            ctx,
            QStringLiteral("the broker did not answer within %1 ms; nothing was reported").arg(HookBudgetMs));
    });

    auto bytes = readStdin(clock);
    if (!bytes)
        return done(ctx, bytes.error().message);
    auto input = Broker::ClaudeHooks::parseInput(*bytes, inv.positional.value(0));
    if (!input)
        return done(ctx, input.error().message);
    const auto report = Broker::ClaudeHooks::reportFor(*input);
    if (!report)
        return done(ctx); // an event that says nothing about attention
    const QString cwd = input->cwd.isEmpty() ? ctx.workingDirectory() : input->cwd;

    ctx.client().setDefaultTimeoutMs(int(std::max<qint64>(1, HookBudgetMs - clock.elapsed())));
    ctx.api().call(
        Broker::ListPeersRequest {QStringLiteral("machine"), cwd, {}, {}},
        [&ctx, cwd, report = *report, event = input->event](Broker::Result<Broker::ListPeersAnswer> listed) {
            if (!listed)
                return done(ctx, listed.error().message);
            const QString id = findPeer(listed->peers, ctx.environment(), cwd);
            if (id.isEmpty())
                return done(ctx,
                            QStringLiteral("no registered peer belongs to this session (is the claude-peers "
                                           "MCP server running in it?); %1 was not reported")
                                .arg(event));
            ctx.api().call(Broker::SetAttentionRequest {id, report.state, report.message},
                           [&ctx, id](Broker::Result<Broker::OkAnswer> answer) {
                               if (!answer)
                                   return done(ctx, answer.error().message);
                               if (!answer->ok)
                                   return done(ctx, answer->error);
                               done(ctx);
                           });
        });
}

} // namespace Handlers
} // namespace Cli
