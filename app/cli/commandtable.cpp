#include "app/cli/command.h"

#include "app/cli/context.h"
#include "app/cli/controlcommands.h"
#include "app/cli/handlers.h"

#include <array>

namespace Cli {

namespace {

constexpr OptionSpec kJson[] = {{"json", nullptr, "Print JSON (2-space indented) instead of text"}};
constexpr OptionSpec kMetrics[] = {
    {"detailed", nullptr, "Also list every peer"},
    {"json", nullptr, "Print the broker's JSON answer"},
};
constexpr OptionSpec kMessages[] = {
    {"from", "X", "Only messages whose sender id contains X"},
    {"to", "X", "Only messages whose recipient id contains X"},
    {"since", "ISO", "Only messages sent at or after this time (e.g. 2026-03-27T12:00:00Z)"},
    {"search", "S", "Only messages whose text contains S"},
    {"limit", "N", "At most N messages, newest first (1-1000, default 20)"},
    {"before-id", "N", "Only messages with an id below N (the page before)"},
    {"after-id", "N", "Only messages with an id above N (the page after)"},
    {"oldest-first", nullptr, "Oldest first (with --after-id: the next page of the log)"},
    {"peer", "ID", "Only messages from or to the peer ID"},
    {"with", "ID", "With --peer: only the thread between the two peers"},
    {"json", nullptr, "Print a JSON array"},
};
// The operator is the human at the tray, a peer of its own (id "operator"): what the tray's
// Messages page sends as. Without these options send and broadcast are 0.7's (sender "cli").
constexpr OptionSpec kSend[] = {
    {"as-operator", nullptr, "Send as the tray's operator peer (id \"operator\"), so replies reach the tray"},
    {"reply-to", "ID", "Answer message ID (type response, reply_to ID), as the Messages page's Reply"},
    {"json", nullptr, "Print the broker's answer as JSON (2-space indented): ok, message_id, from_id, to_id"},
};
constexpr OptionSpec kBroadcast[] = {
    {"as-operator", nullptr, "Broadcast as the tray's operator peer (id \"operator\")"},
    {"json", nullptr, "Print the broker's answer as JSON (2-space indented): ok, recipients, message_ids"},
};
constexpr OptionSpec kHook[] = {
    {"print-config", nullptr, "Print the settings.json snippet that installs the hooks, and exit"}};

constexpr OptionSpec kNotifications[] = {
    {"for", "DURATION", "pause: for this long (30m, 2h, 1h30m, 1d; at most 30 days), else until resume"},
    {"json", nullptr, "Print the preferences as JSON (2-space indented)"},
};

constexpr OptionSpec kFederation[] = {
    {"json", nullptr, "status, pending, doctor, pair-code: print JSON"},
    {"yes", nullptr, "join by code, accept: the verification codes were compared already (scripts)"},
    {"host", "H", "token: the address the other machine dials (default: the broker's LAN address)"},
    {"legacy", nullptr, "token: 0.7's URL form, without the certificate fingerprint"},
    {"fingerprint", "FP", "connect: pin this certificate (sha256-<base64url>, from federation status there)"},
    {"port", "P", "init: the federation port (default 7900)"},
    {"subnet", "CIDR", "init: the subnets allowed to connect, comma-separated (default: detected)"},
};

const std::array kCommands {
    Command {"status", "[--json]", "Show broker status and all peers",
             "Asks GET /health, then lists the peers registered on this machine.", kJson, false, 0, 0,
             &Handlers::status},
    Command {"peers", "[--json]", "List all peers", "Lists the peers registered on this machine.", kJson,
             false, 0, 0, &Handlers::peers},
    Command {"send", "<peer-id> <message>", "Send a message to a peer",
             "The words after the peer id form the message (sender id \"cli\", type text). Options go "
             "before the peer id (a message may start with '-'). --as-operator sends it as the tray's "
             "operator peer, which must be registered (the tray is running), so the session's answer "
             "reaches the tray's Messages page; a remote peer (host:peer) is then reached through "
             "federation, as from the page.",
             kSend, true, 2, -1, &Handlers::send},
    Command {"broadcast", "<machine|directory|repo> <message>", "Broadcast to all peers in scope",
             "directory = peers whose working directory is this one; repo = peers in this git repository. "
             "Options go before the scope. --as-operator broadcasts as the tray's operator peer (the tray "
             "must be running).",
             kBroadcast, true, 2, -1, &Handlers::broadcast},
    Command {"set-name",
             "<peer-id> <name>",
             "Set a peer's session name",
             nullptr,
             {},
             true,
             2,
             -1,
             &Handlers::setName},
    Command {"rename", "<peer-id> <name> [--json]", "Rename a peer (what the tray's Peers page does)",
             "Sets the peer's session name through the broker (POST /set-name with the main token). "
             "Unlike set-name, options are read anywhere on the line, the name is trimmed and may not be "
             "empty, and --json prints {\"ok\", \"id\", \"session_name\"}.",
             kJson, false, 2, -1, &Handlers::rename},
    Command {"auto-summary",
             "<peer-id>",
             "Generate and set a deterministic summary",
             "Builds \"[<repo>:<branch>] Working in <dir>\" (or the in-progress task count when task-master "
             "is installed) from the current directory, prints it and sets it as the peer's summary.",
             {},
             false,
             1,
             1,
             &Handlers::autoSummary},
    Command {"messages",
             "[--from X] [--to X] [--since ISO] [--search S] [--limit N] [--before-id N] [--after-id N] "
             "[--oldest-first] [--peer ID [--with ID]] [--json]",
             "Search message history", "Asks the broker (POST /messages); the database is never opened here.",
             kMessages, false, 0, 0, &Handlers::messages},
    Command {"metrics", "[--detailed] [--json]", "Show broker metrics", nullptr, kMetrics, false, 0, 0,
             &Handlers::metrics},
    Command {
        "hook", "[<event>] [--print-config]",
        "Report a Claude Code session's attention state (run by its hooks)",
        "Claude Code runs it with the hook's JSON on stdin: Notification marks the session as needing "
        "you, UserPromptSubmit as busy, Stop as idle, SessionEnd clears the state. The session's peer is "
        "found from CLAUDE_PEERS_ID, the process chain, the terminal or the folder. It prints nothing on "
        "stdout, gives up after 250 ms and always exits 0 (a problem is one line on stderr), so it "
        "never holds up or breaks the session. Install it by merging the --print-config output into "
        "~/.claude/settings.json.",
        kHook, false, 0, 1, &Handlers::hook},
    Command {"autostart", "[enable|disable|status] [--json]", "Start the tray app at login, or not",
             "enable writes the XDG autostart entry $XDG_CONFIG_HOME/autostart/claude-peers-tray.desktop "
             "(default ~/.config); disable removes it, or marks it Hidden=true when a system-wide entry "
             "(/etc/xdg/autostart, from the package) would start the tray anyway; status (the default) says "
             "whether the tray starts at login and which file decides. The tray's menu has the same toggle.",
             kJson, false, 0, 1, &Handlers::autostart},
    Command {"config", "[get [<key>] | set <key> <value>] [--json]",
             "Read or change the settings of the tray's Settings page",
             "get (the default) lists federation.port, federation.subnets and openchamber.opencode_url with "
             "their values in ~/.claude-peers-config.json; set checks the value, writes it "
             "(other keys are kept) and has a running broker re-read the file (POST /reload) when it applies "
             "the setting without a restart; an empty value removes the key. Exit code 1 for a bad value.",
             kJson, false, 0, -1, &Handlers::config},
    Command {
        "notifications",
        "[status|on|off|mute <peer-id>|unmute <peer-id>|pause [--for DURATION]|resume|quiet-hours "
        "HH:MM-HH:MM|off|kind <kind> on|off|only-waiting on|off] [--json]",
        "The tray's notification preferences",
        "Edits the \"notifications\" object of ~/.claude-peers-config.json, which the tray reads before each "
        "notification (the broker need not run). on/off switches all notifications; mute/unmute one peer (by "
        "id); pause for a while or until resume (the tray's \"Pause notifications\"); quiet hours in local "
        "time, crossing midnight allowed (22:00-07:00), or off; kind switches one kind (needs_you, "
        "message_received, peer_joined, peer_left, federation_warning, pairing_request, session_done, "
        "schedule_failed, broker_problem); only-waiting on lets through only what waits for you (needs_you, "
        "pairing_request). Suppressed notifications still appear in the tray's list. Each action prints the "
        "preferences as they are now; status (the default) only prints them.",
        kNotifications, false, 0, 3, &Handlers::notifications},
    Command {"rotate-token",
             "",
             "Rotate the auth token",
             "Asks the broker for a new token (POST /rotate-token): it stores it where the token is kept, "
             "the OS keychain or the token file, and rewrites the token file. A broker that is not running "
             "is started for it, unless CLAUDE_PEERS_TOKEN names the token file (then the file is rotated "
             "directly); a broker without /rotate-token (0.7) gets a new token file and POST /reload. "
             "Sessions switch to the new token on their next request.",
             {},
             false,
             0,
             0,
             &Handlers::rotateToken},
    Command {"reload-broker",
             "",
             "Re-read the token and config files (no restart)",
             "POST /reload; falls back to SIGHUP to the pid in the broker's pid file.",
             {},
             false,
             0,
             0,
             &Handlers::reloadBroker},
    Command {"kill-broker",
             "",
             "Stop the broker",
             "Authenticated POST /shutdown, then waits (up to 5 s) until the broker has exited. Exits 0 when "
             "no broker is running.",
             {},
             false,
             0,
             0,
             &Handlers::killBroker},
    Command {
        "restart", "[--json]", "Replace the broker with a new process, without refusing a connection",
        "Starts claude-peers-broker (found next to this program or on PATH) detached; it takes the running "
        "broker's listening sockets over through the hand-over socket in $XDG_RUNTIME_DIR, the old one "
        "finishes its connections, answers the sessions' waits and exits, and no client sees a refused "
        "connection. A broker that cannot hand over (0.7, an older version) is stopped with kill-broker and "
        "a new one started. --json prints {old_pid, new_pid, method: handover|stop-start|start, ms, url}.",
        kJson, false, 0, 0, &Handlers::restart},
    Command {
        "federation", "<subcommand> [arguments] [options]", "Connect brokers across machines",
        "Subcommands: init [--port P] [--subnet CIDR,...] (alias setup) | join <cpt-url> | join "
        "<host>[:<port>] <code> [--yes] | pair-code [--json] | token [--host H] [--legacy] [--json] | "
        "doctor [--json] | connect <host>:<port> [--fingerprint sha256-...] [--json] | disconnect "
        "<host>:<port> [--json] | revoke <host>:<port> [--json] | attempts [--json] | unignore "
        "<fingerprint> [--json] | status [--json] | "
        "enable [port] [subnet] | disable | rotate-psk [--json] | pending [--json] | accept <id> [--yes] "
        "[--json] | reject <id> [--json]. The broker keeps the federation secret and the certificate; "
        "enable, disable and init edit the config file and have a running broker re-read it.",
        kFederation, false, 0, -1, &Handlers::federation},
    Command {
        "projects", "[--json|-q]", "List the configured OpenCode projects",
        "Asks the broker's control service (projects.list). Exit codes: 0 ok, 2 invalid request, 1 failed.",
        Control::projectsOptions(), false, 0, 0, &Handlers::projects, Control::ExitInvalid},
    Command {
        "models", "[--json|-q]", "Show the OpenCode model preferences",
        "Asks the broker's control service (models.list). Exit codes: 0 ok, 2 invalid request, 1 failed.",
        Control::projectsOptions(), false, 0, 0, &Handlers::models, Control::ExitInvalid},
    Command {
        "session", "<list|create|send|fork|status|messages> [options]", "Drive OpenCode sessions",
        "list [--dir D] [--limit N] [--all] [--with-status]; create --dir D|--project P [--prompt T] "
        "[--model "
        "P/M] [--agent A] [--variant V] [--title T] [--worktree W …] [--wait [--timeout S] "
        "[--last-assistant]]; "
        "send|fork --session S --dir D --prompt T [--message M (fork)] [--model …] [--wait …]; status "
        "--session "
        "S --dir D; messages --session S --dir D [--role R] [--limit N|--all|--last] [--last-assistant] "
        "[--wait "
        "[--timeout S]]. Through the broker's control service (/control); OpenCode checks model, agent and "
        "variant before anything is created. Ctrl-C cancels a wait. Exit codes: 0 ok, 2 invalid request "
        "(bad option, or the service's 400/404), 1 failed (OpenCode, broker, timeout, cancelled).",
        Control::sessionOptions(), false, 1, 1, &Handlers::session, Control::ExitInvalid},
    Command {
        "schedule", "<status|list|create|run|delete|enable|disable> [options]",
        "Scheduled OpenCode prompts and messages to peers",
        "status; list --dir D|--project P|--peers; create --dir D|--project P --name N --prompt T --model "
        "P/M "
        "(--daily HH:MM | --weekly 1,3 --time HH:MM | --once YYYY-MM-DD --time HH:MM | --cron EXPR) "
        "[--timezone Z] [--agent A] [--variant V] [--disabled]; create --peer NAME --name N --prompt T "
        "(the same schedule options): at its time the prompt goes to the connected peer of that session "
        "name (else id) as a message from \"operator\"; the peer need not be connected when the task is "
        "created, a run fails when none (or several) is; run|delete|enable|disable [--dir D|--project P] "
        "--task ID (a peer task needs no --dir/--project). Exit codes: 0 ok, 2 invalid request, 1 failed.",
        Control::scheduleOptions(), false, 1, 1, &Handlers::schedule, Control::ExitInvalid},
};

QString optionLabel(const OptionSpec &o)
{
    QString label = QStringLiteral("--") + QLatin1String(o.name);
    if (o.shortName)
        label = QStringLiteral("-%1, ").arg(QLatin1Char(o.shortName)) + label;
    if (o.valueName)
        label += QLatin1Char(' ') + QLatin1String(o.valueName);
    return label;
}

QString exitCodeText()
{
    return QStringLiteral("Exit codes: 0 ok, 1 usage error, 2 broker not reachable or request failed, "
                          "3 not available in this version.");
}

} // namespace

std::span<const Command> commands()
{
    return kCommands;
}

const Command *findCommand(const QString &name)
{
    for (const Command &c : kCommands) {
        if (name == QLatin1String(c.name))
            return &c;
    }
    return nullptr;
}

Broker::Result<Invocation> parseInvocation(const Command &command, const QStringList &arguments)
{
    Invocation inv;
    bool optionsEnded = false;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        const bool looksLikeOption = arg.size() > 1 && arg.startsWith(QLatin1Char('-'));
        if (optionsEnded || !looksLikeOption || (command.freeText && !inv.positional.isEmpty())) {
            inv.positional.append(arg);
            continue;
        }
        if (arg == QLatin1String("--")) {
            optionsEnded = true;
            continue;
        }
        if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            inv.help = true;
            continue;
        }
        if (!arg.startsWith(QLatin1String("--"))) {
            const OptionSpec *shortSpec = nullptr;
            for (const OptionSpec &o : command.options) {
                if (arg.size() == 2 && o.shortName != 0 && arg.at(1) == QLatin1Char(o.shortName) &&
                    !o.valueName)
                    shortSpec = &o;
            }
            if (!shortSpec)
                return Broker::fail(Broker::ErrorKind::Usage, QStringLiteral("Unknown option: %1").arg(arg));
            inv.flags.insert(QLatin1String(shortSpec->name));
            continue;
        }
        QString name = arg.mid(2);
        std::optional<QString> inlineValue;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
        }
        const OptionSpec *spec = nullptr;
        for (const OptionSpec &o : command.options) {
            if (name == QLatin1String(o.name))
                spec = &o;
        }
        if (!spec)
            return Broker::fail(Broker::ErrorKind::Usage, QStringLiteral("Unknown option: --%1").arg(name));
        if (!spec->valueName) {
            if (inlineValue)
                return Broker::fail(Broker::ErrorKind::Usage,
                                    QStringLiteral("Option --%1 takes no value").arg(name));
            inv.flags.insert(name);
            continue;
        }
        if (inlineValue) {
            inv.values.insert(name, *inlineValue);
        } else if (i + 1 < arguments.size()) {
            inv.values.insert(name, arguments.at(++i));
        } else {
            return Broker::fail(Broker::ErrorKind::Usage,
                                QStringLiteral("Option --%1 needs a value").arg(name));
        }
    }
    if (inv.help)
        return inv;
    if (inv.positional.size() < command.minPositional ||
        (command.maxPositional >= 0 && inv.positional.size() > command.maxPositional)) {
        const QString message = inv.positional.size() < command.minPositional
            ? QString()
            : QStringLiteral("Unexpected argument: %1").arg(inv.positional.at(command.maxPositional));
        return Broker::fail(Broker::ErrorKind::Usage, message);
    }
    return inv;
}

QString usageLine(const Command &command)
{
    QString line = QStringLiteral("Usage: claude-peers ") + QLatin1String(command.name);
    if (*command.arguments)
        line += QLatin1Char(' ') + QLatin1String(command.arguments);
    return line;
}

QString commandHelp(const Command &command)
{
    QStringList lines {usageLine(command), QString(), QLatin1String(command.summary) + QLatin1Char('.')};
    if (command.details)
        lines << QString() << QLatin1String(command.details);
    lines << QString() << QStringLiteral("Options:");
    for (const OptionSpec &o : command.options)
        lines << QStringLiteral("  %1  %2").arg(optionLabel(o), -16).arg(QLatin1String(o.help));
    lines << QStringLiteral("  %1  %2")
                 .arg(QStringLiteral("-h, --help"), -16)
                 .arg(QStringLiteral("Show this help"));
    lines << QString() << exitCodeText();
    return lines.join(QLatin1Char('\n'));
}

QString globalUsage()
{
    QStringList lines {
        QStringLiteral("claude-peers %1 - peer discovery and messaging for AI coding sessions")
            .arg(QLatin1String(PEERS_VERSION)),
        QString(),
        QStringLiteral("Usage: claude-peers <command> [options] [arguments]"),
        QString(),
        QStringLiteral("Commands:"),
    };
    for (const Command &c : kCommands) {
        QString left = QLatin1String(c.name);
        if (*c.arguments)
            left += QLatin1Char(' ') + QLatin1String(c.arguments);
        if (left.size() > 44)
            lines << QStringLiteral("  ") + left
                  << QStringLiteral("  %1  %2").arg(QString(), -44).arg(QLatin1String(c.summary));
        else
            lines << QStringLiteral("  %1  %2").arg(left, -44).arg(QLatin1String(c.summary));
    }
    lines << QString() << QStringLiteral("Options:")
          << QStringLiteral(
                 "  -h, --help       Show this help (claude-peers <command> --help for one command)")
          << QStringLiteral("  -V, --version    Show the version") << QString()
          << QStringLiteral("Environment: CLAUDE_PEERS_PORT (broker port, default 7899), CLAUDE_PEERS_TOKEN "
                            "(token file path),")
          << QStringLiteral("             CLAUDE_PEERS_DB (database path; the pid file sits beside it).")
          << QString() << exitCodeText();
    return lines.join(QLatin1Char('\n'));
}

QString versionText()
{
    return QStringLiteral("claude-peers %1").arg(QLatin1String(PEERS_VERSION));
}

void dispatch(Context &context, const QStringList &arguments)
{
    if (arguments.isEmpty()) {
        context.err(globalUsage());
        context.finish(ExitUsage);
        return;
    }
    const QString &first = arguments.first();
    if (first == QLatin1String("-h") || first == QLatin1String("--help") || first == QLatin1String("help")) {
        if (arguments.size() > 1) {
            if (const Command *c = findCommand(arguments.at(1))) {
                context.out(commandHelp(*c));
                context.finish(ExitOk);
                return;
            }
        }
        context.out(globalUsage());
        context.finish(ExitOk);
        return;
    }
    if (first == QLatin1String("-V") || first == QLatin1String("--version") ||
        first == QLatin1String("version")) {
        context.out(versionText());
        context.finish(ExitOk);
        return;
    }
    const Command *command = findCommand(first);
    if (!command) {
        context.err(QStringLiteral("Unknown command: %1").arg(first));
        context.err(QStringLiteral("Run 'claude-peers --help' for the list of commands."));
        context.finish(ExitUsage);
        return;
    }
    auto invocation = parseInvocation(*command, arguments.mid(1));
    if (!invocation) {
        context.usageError(*command, invocation.error().message);
        return;
    }
    if (invocation->help) {
        context.out(commandHelp(*command));
        context.finish(ExitOk);
        return;
    }
    command->run(context, *invocation);
}

} // namespace Cli
