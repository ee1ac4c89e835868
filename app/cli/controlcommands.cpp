// projects, models, session …, schedule …: command lines → one /control action.
#include "app/cli/controlcommands.h"

#include "app/cli/context.h"
#include "app/cli/controlformat.h"
#include "app/cli/formatting.h"
#include "app/cli/handlers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTimer>

#include <memory>

namespace Cli::Control {

namespace {

// The contract's HTTP timeouts (docs/spec/control-service.md §10.2), with a longer default: a
// create with a prompt waits for OpenCode to be ready (up to 10 s) and for the prompt to land (up to 5 s).
constexpr int DefaultHttpTimeoutMs = 30000;
constexpr int DefaultWaitSeconds = 600;
constexpr int WaitMarginMs = 30000;
constexpr int WorktreeMarginMs = 120000;
constexpr int ProgressIntervalMs = 1000;

constexpr OptionSpec kOutput[] = {
    {"json", nullptr, "Print the action's result object as JSON"},
    {"quiet", nullptr, "Compact output: ids, or the text asked for", 'q'},
};

constexpr OptionSpec kSession[] = {
    {"dir", "DIR", "The session's directory (relative to the current one)"},
    {"project", "ID", "A configured project instead of --dir (create)"},
    {"session", "ID", "The session (send, fork, status, messages)"},
    {"prompt", "TEXT", "The prompt to send (create: optional)"},
    {"title", "TEXT", "The new session's title (create)"},
    {"name", "TEXT", "Same as --title"},
    {"model", "P/M", "provider/model for this prompt"},
    {"agent", "NAME", "OpenCode agent for this prompt"},
    {"variant", "NAME", "The model's variant for this prompt"},
    {"worktree", "NAME", "Create the session in a new git worktree (create)"},
    {"branch", "NAME", "The worktree's branch (create; refused: OpenCode names it opencode/NAME)"},
    {"start-ref", "REF", "Where the worktree starts (create; refused: OpenCode starts at HEAD)"},
    {"base", "REF", "Same as --start-ref"},
    {"upstream", nullptr, "Set the worktree branch's upstream (create; refused: OpenCode's is local)"},
    {"no-upstream", nullptr, "Do not set its upstream (create; what OpenCode does)"},
    {"goal", nullptr, "Goal mode for this prompt"},
    {"goal-token-budget", "N", "Goal token budget (1000-100000000; needs --goal)"},
    {"message", "ID", "Fork at this message (fork)"},
    {"wait", nullptr, "Wait until the session is idle again"},
    {"timeout", "SECONDS", "How long --wait waits (1-86400, default 600)"},
    {"last-assistant", nullptr, "With --wait: also print the last assistant message"},
    {"limit", "N", "At most N sessions or messages (default 10)"},
    {"all", nullptr, "list: include archived sessions; messages: every message"},
    {"with-status", nullptr, "list: each session's status"},
    {"role", "ROLE", "messages: all, user or assistant"},
    {"last", nullptr, "messages: only the last one"},
    {"json", nullptr, "Print the action's result object as JSON"},
    {"quiet", nullptr, "Compact output: ids, or the text asked for", 'q'},
};

constexpr OptionSpec kSchedule[] = {
    {"dir", "DIR", "The project's directory (relative to the current one)"},
    {"project", "ID", "The project's id instead of --dir"},
    {"task", "ID", "The task (run, delete, enable, disable)"},
    {"name", "TEXT", "The task's name (create)"},
    {"prompt", "TEXT", "The prompt it sends (create)"},
    {"model", "P/M", "provider/model it uses (create)"},
    {"agent", "NAME", "OpenCode agent (create)"},
    {"variant", "NAME", "The model's variant (create)"},
    {"daily", "HH:MM", "Every day at this time (create)"},
    {"weekly", "DAYS", "On these weekdays, 0=Sunday, e.g. 1,3,5 (create; needs --time)"},
    {"once", "YYYY-MM-DD", "Once, on this date (create; needs --time)"},
    {"time", "HH:MM", "The time of --weekly or --once"},
    {"cron", "EXPR", "A cron expression (create)"},
    {"timezone", "ZONE", "IANA time zone, e.g. Europe/Berlin (create)"},
    {"goal", nullptr, "Goal mode (create)"},
    {"goal-token-budget", "N", "Goal token budget (create; needs --goal)"},
    {"disabled", nullptr, "Create the task disabled"},
    {"peer", "NAME",
     "Message this peer (session name, else id) instead of starting an OpenCode session "
     "(create; no --dir/--project, --model or --agent)"},
    {"peers", nullptr, "The tasks that message peers (list; no --dir/--project)"},
    {"json", nullptr, "Print the action's result object as JSON"},
    {"quiet", nullptr, "Compact output: ids, or the text asked for", 'q'},
};

using Built = std::expected<ActionCall, QString>;

QString absoluteDir(const QString &dir, const QString &workingDirectory)
{
    return QDir::cleanPath(QDir(workingDirectory).absoluteFilePath(dir));
}

// Builds the input from the flags, refusing what the contract's CLI refuses before any request.
class Builder
{
public:
    Builder(const Invocation &inv, const QString &workingDirectory) : m_inv(inv), m_cwd(workingDirectory) { }

    bool has(const char *name) const { return m_inv.hasValue(name) || m_inv.flag(name); }
    QString value(const char *name) const { return m_inv.value(name).trimmed(); }

    // --dir as an absolute path.
    void directory()
    {
        if (m_inv.hasValue("dir"))
            m_input.insert(QStringLiteral("directory"), absoluteDir(value("dir"), m_cwd));
    }
    // Exactly one of --dir or --project.
    std::optional<QString> scope()
    {
        if (m_inv.hasValue("dir") && m_inv.hasValue("project"))
            return QStringLiteral("Provide only one of --dir or --project.");
        if (!m_inv.hasValue("dir") && !m_inv.hasValue("project"))
            return QStringLiteral("Missing required --dir or --project.");
        directory();
        text("project", "projectId");
        return std::nullopt;
    }
    std::optional<QString> require(const char *flag, const char *key)
    {
        if (value(flag).isEmpty())
            return QStringLiteral("Missing required --%1.").arg(QLatin1String(flag));
        text(flag, key);
        return std::nullopt;
    }
    void text(const char *flag, const char *key)
    {
        if (m_inv.hasValue(flag))
            m_input.insert(QLatin1String(key), value(flag));
    }
    void flag(const char *flag, const char *key, bool value = true)
    {
        if (m_inv.flag(flag))
            m_input.insert(QLatin1String(key), value);
    }
    std::optional<QString> positive(const char *flag, const char *key)
    {
        if (!m_inv.hasValue(flag))
            return std::nullopt;
        bool ok = false;
        const qlonglong n = value(flag).toLongLong(&ok);
        if (!ok || n < 1 || n > (qlonglong(1) << 53))
            return QStringLiteral("Invalid %1 value. Provide a positive integer.").arg(QLatin1String(flag));
        m_input.insert(QLatin1String(key), n);
        return std::nullopt;
    }
    std::optional<QString> model()
    {
        if (!m_inv.hasValue("model"))
            return std::nullopt;
        const QString model = value("model");
        const qsizetype slash = model.indexOf(QLatin1Char('/'));
        if (slash <= 0 || slash == model.size() - 1)
            return QStringLiteral("--model must be in provider/model format.");
        m_input.insert(QStringLiteral("model"), model);
        return std::nullopt;
    }
    // Flags that only some subcommands take.
    std::optional<QString> onlyFor(const char *flag, const QString &where)
    {
        if (has(flag))
            return QStringLiteral("--%1 is only valid for %2.").arg(QLatin1String(flag), where);
        return std::nullopt;
    }

    QJsonObject &input() { return m_input; }
    const Invocation &inv() const { return m_inv; }

private:
    const Invocation &m_inv;
    QString m_cwd;
    QJsonObject m_input;
};

#define CHECK(expr)                                                                                          \
    do {                                                                                                     \
        if (auto failure = (expr))                                                                           \
            return std::unexpected(*failure);                                                                \
    } while (false)

int waitTimeoutMs(const QJsonObject &input)
{
    const int seconds = input.value(QLatin1String("timeout")).toInt(DefaultWaitSeconds);
    return seconds * 1000 + WaitMarginMs;
}

// --prompt, --model, --agent, --variant, --goal, --goal-token-budget, --wait, --timeout,
// --last-assistant: create, send and fork share them.
std::optional<QString> promptOptions(Builder &b, const QString &sub)
{
    b.text("prompt", "prompt");
    if (auto failure = b.model())
        return failure;
    b.text("agent", "agent");
    b.text("variant", "variant");
    if (b.has("goal") && b.value("prompt").isEmpty())
        return QStringLiteral("--goal requires --prompt.");
    if (b.has("goal-token-budget") && !b.has("goal"))
        return QStringLiteral("--goal-token-budget requires --goal.");
    b.flag("goal", "goal");
    if (auto failure = b.positive("goal-token-budget", "goalTokenBudget"))
        return failure;
    if (b.has("timeout") && !b.has("wait"))
        return QStringLiteral("--timeout requires --wait.");
    if (b.has("last-assistant") && !b.has("wait"))
        return QStringLiteral("--last-assistant requires --wait for session %1.").arg(sub);
    b.flag("wait", "wait");
    if (auto failure = b.positive("timeout", "timeout"))
        return failure;
    b.flag("last-assistant", "lastAssistant");
    return std::nullopt;
}

Built sessionCall(const QString &sub, const Invocation &inv, const QString &cwd)
{
    Builder b(inv, cwd);
    ActionCall call;
    call.action = QStringLiteral("session.") + sub;
    if (sub != QLatin1String("fork"))
        CHECK(b.onlyFor("message", QStringLiteral("session fork")));
    if (sub != QLatin1String("create")) {
        for (const char *flag : {"project", "title", "name", "worktree", "branch", "start-ref", "base",
                                 "upstream", "no-upstream"})
            CHECK(b.onlyFor(flag, QStringLiteral("session create")));
    }
    if (sub != QLatin1String("list"))
        CHECK(b.onlyFor("with-status", QStringLiteral("session list")));
    if (sub != QLatin1String("messages")) {
        for (const char *flag : {"role", "last"})
            CHECK(b.onlyFor(flag, QStringLiteral("session messages")));
    }
    const bool dispatches =
        sub == QLatin1String("create") || sub == QLatin1String("send") || sub == QLatin1String("fork");
    if (!dispatches) {
        for (const char *flag : {"prompt", "model", "agent", "variant", "goal", "goal-token-budget"})
            CHECK(b.onlyFor(flag, QStringLiteral("session create, send and fork")));
    }
    if (sub == QLatin1String("list")) {
        for (const char *flag : {"session", "wait", "timeout", "last-assistant"})
            CHECK(b.onlyFor(flag, QStringLiteral("other session commands")));
        b.directory();
        CHECK(b.positive("limit", "limit"));
        b.flag("all", "all");
        b.flag("with-status", "withStatus");
    } else if (sub == QLatin1String("create")) {
        CHECK(b.onlyFor("session", QStringLiteral("other session commands")));
        for (const char *flag : {"limit", "all"})
            CHECK(b.onlyFor(flag, QStringLiteral("session list and messages")));
        CHECK(b.scope());
        b.text(inv.hasValue("title") ? "title" : "name", "title");
        CHECK(promptOptions(b, sub));
        b.text("worktree", "worktree");
        b.text("branch", "branch");
        b.text(inv.hasValue("start-ref") ? "start-ref" : "base", "startRef");
        if (b.has("upstream") && b.has("no-upstream"))
            return std::unexpected(QStringLiteral("Provide only one of --upstream or --no-upstream."));
        b.flag("upstream", "setUpstream", true);
        b.flag("no-upstream", "setUpstream", false);
    } else if (sub == QLatin1String("send") || sub == QLatin1String("fork")) {
        for (const char *flag : {"limit", "all"})
            CHECK(b.onlyFor(flag, QStringLiteral("session list and messages")));
        CHECK(b.require("session", "sessionId"));
        if (!inv.hasValue("dir"))
            return std::unexpected(QStringLiteral("Missing required --dir."));
        b.directory();
        if (b.value("prompt").isEmpty())
            return std::unexpected(QStringLiteral("Missing required --prompt."));
        CHECK(promptOptions(b, sub));
        b.text("message", "messageId");
    } else if (sub == QLatin1String("status")) {
        for (const char *flag : {"limit", "all", "wait", "timeout", "last-assistant"})
            CHECK(b.onlyFor(flag, QStringLiteral("other session commands")));
        CHECK(b.require("session", "sessionId"));
        if (!inv.hasValue("dir"))
            return std::unexpected(QStringLiteral("Missing required --dir."));
        b.directory();
    } else if (sub == QLatin1String("messages")) {
        CHECK(b.require("session", "sessionId"));
        if (!inv.hasValue("dir"))
            return std::unexpected(QStringLiteral("Missing required --dir."));
        b.directory();
        if (b.has("role")) {
            const QString role = b.value("role");
            if (role != QLatin1String("all") && role != QLatin1String("user") &&
                role != QLatin1String("assistant"))
                return std::unexpected(QStringLiteral("--role must be one of: all, user, assistant."));
            b.text("role", "role");
        }
        if (b.has("all") && (b.has("last") || b.has("limit")))
            return std::unexpected(QStringLiteral("--all cannot be combined with --last or --limit."));
        if (b.has("last") && b.has("limit"))
            return std::unexpected(QStringLiteral("--last cannot be combined with --limit."));
        CHECK(b.positive("limit", "limit"));
        b.flag("all", "all");
        b.flag("last", "last");
        b.flag("last-assistant", "lastAssistant");
        if (b.has("timeout") && !b.has("wait"))
            return std::unexpected(QStringLiteral("--timeout requires --wait."));
        b.flag("wait", "wait");
        CHECK(b.positive("timeout", "timeout"));
    } else {
        return std::unexpected(
            QStringLiteral("Unknown session command: %1. Use list, create, send, fork, status or messages.")
                .arg(sub));
    }
    call.input = b.input();
    call.wait = call.input.value(QLatin1String("wait")).toBool();
    call.httpTimeoutMs = call.wait ? waitTimeoutMs(call.input) : DefaultHttpTimeoutMs;
    // docs/spec/control-service.md §10.2: a worktree adds 120 s to a wait, or is 120 s alone (its
    // bootstrap may take 60 s).
    if (call.input.contains(QLatin1String("worktree")))
        call.httpTimeoutMs = call.wait ? call.httpTimeoutMs + WorktreeMarginMs : WorktreeMarginMs;
    return call;
}

Built scheduleCall(const QString &sub, const Invocation &inv, const QString &cwd)
{
    Builder b(inv, cwd);
    ActionCall call;
    call.httpTimeoutMs = DefaultHttpTimeoutMs;
    const bool creates = sub == QLatin1String("create");
    if (!creates) {
        for (const char *flag : {"name", "prompt", "model", "agent", "variant", "daily", "weekly", "once",
                                 "time", "cron", "timezone", "goal", "goal-token-budget", "disabled", "peer"})
            CHECK(b.onlyFor(flag, QStringLiteral("schedule create")));
    }
    if (sub != QLatin1String("list"))
        CHECK(b.onlyFor("peers", QStringLiteral("schedule list")));
    const bool toPeer = creates && inv.hasValue("peer");
    const bool takesTask = sub == QLatin1String("run") || sub == QLatin1String("delete") ||
        sub == QLatin1String("enable") || sub == QLatin1String("disable");
    if (!takesTask)
        CHECK(b.onlyFor("task", QStringLiteral("schedule run, delete, enable and disable")));
    if (sub == QLatin1String("status")) {
        CHECK(b.onlyFor("dir", QStringLiteral("other schedule commands")));
        CHECK(b.onlyFor("project", QStringLiteral("other schedule commands")));
        call.action = QStringLiteral("schedule.status");
    } else if (sub == QLatin1String("list")) {
        if (b.has("peers")) {
            if (inv.hasValue("dir") || inv.hasValue("project"))
                return std::unexpected(QStringLiteral("Provide only one of --dir, --project or --peers."));
            b.flag("peers", "peers");
        } else {
            CHECK(b.scope());
        }
        call.action = QStringLiteral("schedule.list");
    } else if (creates) {
        if (toPeer) {
            if (inv.hasValue("model"))
                return std::unexpected(QStringLiteral("Provide only one of --peer or --model."));
            for (const char *flag : {"agent", "variant", "goal", "goal-token-budget"}) {
                if (b.has(flag))
                    return std::unexpected(QStringLiteral("--%1 cannot be combined with --peer: a task that "
                                                          "targets a peer sends it a message.")
                                               .arg(QLatin1StringView(flag)));
            }
            if (inv.hasValue("dir") || inv.hasValue("project"))
                return std::unexpected(QStringLiteral("A task that targets a peer is not kept in a project: "
                                                      "leave out --dir and --project."));
            CHECK(b.require("peer", "peer"));
        } else {
            CHECK(b.scope());
        }
        CHECK(b.require("name", "name"));
        CHECK(b.require("prompt", "prompt"));
        if (!toPeer && !inv.hasValue("model"))
            return std::unexpected(QStringLiteral("Missing required --model (or --peer)."));
        CHECK(b.model());
        int selectors = 0;
        for (const char *flag : {"daily", "weekly", "once", "cron"})
            selectors += inv.hasValue(flag) ? 1 : 0;
        if (selectors != 1)
            return std::unexpected(
                QStringLiteral("Provide exactly one of --daily, --weekly, --once, or --cron."));
        if ((inv.hasValue("weekly") || inv.hasValue("once")) && !inv.hasValue("time"))
            return std::unexpected(
                QStringLiteral("--time is required with --%1.")
                    .arg(inv.hasValue("weekly") ? QStringLiteral("weekly") : QStringLiteral("once")));
        for (const char *flag : {"daily", "weekly", "once", "time", "cron", "timezone", "agent", "variant"})
            b.text(flag, flag);
        if (b.has("goal-token-budget") && !b.has("goal"))
            return std::unexpected(QStringLiteral("--goal-token-budget requires --goal."));
        b.flag("goal", "goal");
        CHECK(b.positive("goal-token-budget", "goalTokenBudget"));
        b.flag("disabled", "disabled");
        call.action = QStringLiteral("schedule.create");
    } else if (takesTask) {
        // No --dir/--project: the service finds a task that targets a peer by its id alone.
        if (inv.hasValue("dir") || inv.hasValue("project"))
            CHECK(b.scope());
        CHECK(b.require("task", "taskId"));
        if (sub == QLatin1String("enable") || sub == QLatin1String("disable")) {
            b.input().insert(QStringLiteral("disabled"), sub == QLatin1String("disable"));
            call.action = QStringLiteral("schedule.toggle");
        } else {
            call.action = QStringLiteral("schedule.") + sub;
        }
    } else {
        return std::unexpected(
            QStringLiteral(
                "Unknown schedule command: %1. Use status, list, create, run, delete, enable or disable.")
                .arg(sub));
    }
    call.input = b.input();
    return call;
}

// Sends one action and prints its answer; the command ends with the contract's exit code.
class ControlRun : public QObject
{
public:
    ControlRun(Context &ctx, ActionCall call, bool json, bool quiet)
        : QObject(&ctx), m_ctx(ctx), m_call(std::move(call)), m_json(json), m_quiet(quiet)
    {
    }

    void start()
    {
        connect(&m_ctx, &Context::interrupted, this, [this] {
            clearProgress();
            m_ctx.err(QStringLiteral("Interrupted: %1 was cancelled.").arg(m_call.action));
        });
        m_worktree = m_call.input.contains(QLatin1String("worktree"));
        if ((m_call.wait || m_worktree) && m_ctx.errIsTerminal()) {
            m_progress.start();
            auto *timer = new QTimer(this);
            connect(timer, &QTimer::timeout, this, &ControlRun::showProgress);
            timer->start(ProgressIntervalMs);
            showProgress();
        }
        const Broker::ControlRequest request {m_call.action, m_call.input, {}};
        m_ctx.api().callAlone(
            request, [this](Broker::Result<Broker::ControlAnswer> answer) { finish(std::move(answer)); },
            m_call.httpTimeoutMs);
    }

private:
    void showProgress()
    {
        static const char frames[] = {'|', '/', '-', '\\'};
        const qint64 seconds = m_progress.elapsed() / 1000;
        const QString what = !m_worktree ? QStringLiteral("Waiting for the session")
            : m_call.wait ? QStringLiteral("Creating the worktree, then waiting for the session")
                          : QStringLiteral("Creating the worktree");
        m_ctx.errRaw(QStringLiteral("\r%1 %2 (%3 s; Ctrl-C cancels)")
                         .arg(QLatin1Char(frames[seconds % 4]))
                         .arg(what)
                         .arg(seconds));
        m_progressShown = true;
    }
    void clearProgress()
    {
        if (std::exchange(m_progressShown, false))
            m_ctx.errRaw(QStringLiteral("\r\x1b[K"));
    }

    void finish(Broker::Result<Broker::ControlAnswer> answer)
    {
        clearProgress();
        if (!answer) {
            const Broker::ControlFailure failure =
                Broker::ControlFailure::fromError(answer.error(), m_call.action);
            if (m_json)
                m_ctx.outRaw(Format::prettyJson(failure.toJson()));
            m_ctx.err(QStringLiteral("Error: ") + ControlFormat::failure(failure));
            m_ctx.finish(failure.isValidation() ? ExitInvalid : ExitActionFailed);
            return;
        }
        if (m_json)
            m_ctx.outRaw(Format::prettyJson(answer->result));
        else if (const QStringList lines = ControlFormat::result(m_call.action, answer->result, m_quiet);
                 !lines.isEmpty())
            m_ctx.out(lines.join(QLatin1Char('\n')));
        m_ctx.finish(ExitOk);
    }

    Context &m_ctx;
    ActionCall m_call;
    bool m_json;
    bool m_quiet;
    QElapsedTimer m_progress;
    bool m_progressShown = false;
    bool m_worktree = false;
};

void runControl(Context &ctx, const Command &command, const Invocation &inv)
{
    const QString sub = command.maxPositional > 0 ? inv.positional.value(0) : QString();
    auto call = buildCall(QLatin1String(command.name), sub, inv, ctx.workingDirectory());
    if (!call) {
        ctx.usageError(command, call.error());
        return;
    }
    auto *run = new ControlRun(ctx, std::move(*call), inv.flag("json"), inv.flag("quiet"));
    run->start();
}

} // namespace

std::span<const OptionSpec> projectsOptions()
{
    return kOutput;
}
std::span<const OptionSpec> sessionOptions()
{
    return kSession;
}
std::span<const OptionSpec> scheduleOptions()
{
    return kSchedule;
}

std::expected<ActionCall, QString> buildCall(const QString &command, const QString &subcommand,
                                             const Invocation &invocation, const QString &workingDirectory)
{
    if (command == QLatin1String("projects") || command == QLatin1String("models")) {
        ActionCall call {command + QStringLiteral(".list"), {}, false, DefaultHttpTimeoutMs};
        return call;
    }
    if (command == QLatin1String("session"))
        return sessionCall(subcommand, invocation, workingDirectory);
    if (command == QLatin1String("schedule"))
        return scheduleCall(subcommand, invocation, workingDirectory);
    return std::unexpected(QStringLiteral("Not a control command: %1").arg(command));
}

} // namespace Cli::Control

namespace Cli::Handlers {

void projects(Context &ctx, const Invocation &inv)
{
    Control::runControl(ctx, *findCommand(QStringLiteral("projects")), inv);
}
void models(Context &ctx, const Invocation &inv)
{
    Control::runControl(ctx, *findCommand(QStringLiteral("models")), inv);
}
void session(Context &ctx, const Invocation &inv)
{
    Control::runControl(ctx, *findCommand(QStringLiteral("session")), inv);
}
void schedule(Context &ctx, const Invocation &inv)
{
    Control::runControl(ctx, *findCommand(QStringLiteral("schedule")), inv);
}

} // namespace Cli::Handlers
