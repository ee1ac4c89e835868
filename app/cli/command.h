#pragma once

#include "common/result.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include <span>

namespace Cli {

class Context;

// Documented in --help and EXIT_CODES.md.
enum ExitCode : int {
    ExitOk = 0,
    ExitUsage = 1, // bad command line
    ExitFailed = 2, // broker not reachable, or a request failed / was refused
    ExitUnavailable = 3, // the command exists in the reference but not in this version
    ExitInterrupted = 130, // Ctrl-C (SIGINT) or SIGTERM ended the command
};

struct OptionSpec
{
    const char *name; // without the leading "--"
    const char *valueName; // nullptr for a flag
    const char *help;
    char shortName = 0; // "-q" for 'q'; 0: none
};

// A parsed command line of one command.
struct Invocation
{
    QStringList positional;
    QHash<QString, QString> values; // options with a value
    QSet<QString> flags; // options without one
    bool help = false;

    bool flag(const char *name) const { return flags.contains(QLatin1String(name)); }
    bool hasValue(const char *name) const { return values.contains(QLatin1String(name)); }
    QString value(const char *name) const { return values.value(QLatin1String(name)); }
};

// One row of the static command table (no dispatch by names built at run time).
struct Command
{
    const char *name;
    const char *arguments; // synopsis after the name, e.g. "<peer-id> <message>"
    const char *summary; // one line for the global usage
    const char *details; // paragraph for "<command> --help" (may be nullptr)
    std::span<const OptionSpec> options;
    bool freeText; // options only before the first positional (messages may start with '-')
    int minPositional;
    int maxPositional; // -1 = no limit
    void (*run)(Context &context, const Invocation &invocation);
    // The exit code of a bad command line (the control commands say 2, as their contract).
    int usageExitCode = ExitUsage;
};

std::span<const Command> commands();
const Command *findCommand(const QString &name);

// "--name value", "--name=value", flags, "-h"/"--help", "--" ends options.
Broker::Result<Invocation> parseInvocation(const Command &command, const QStringList &arguments);

QString usageLine(const Command &command); // "Usage: claude-peers send <peer-id> <message>"
QString commandHelp(const Command &command);
QString globalUsage();
QString versionText();

// Runs the whole command line (arguments without the program name) in the context; the
// context's finished() tells the exit code.
void dispatch(Context &context, const QStringList &arguments);

} // namespace Cli
