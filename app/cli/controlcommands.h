#pragma once

#include "app/cli/command.h"

#include <QJsonObject>
#include <QString>

#include <expected>
#include <span>

// The control commands (projects, models, session …, schedule …): each builds one action of
// the broker's control service (docs/spec/control-service.md §10.2) and POSTs it to
// /control. Their exit codes are the contract's: 0 ok, 2 the request is invalid (a bad command
// line, or the service's 400/404), 1 it failed (OpenCode, a cancelled wait, no broker).
namespace Cli::Control {

enum ControlExit : int {
    ExitActionFailed = 1,
    ExitInvalid = 2,
};

// One action, as the command line asks for it.
struct ActionCall
{
    QString action; // "session.create"
    QJsonObject input;
    bool wait = false; // the broker answers when the session is idle again
    int httpTimeoutMs = 0;
};

// The action a command line means, or the usage error to print (exit 2). subcommand is empty
// for projects and models.
std::expected<ActionCall, QString> buildCall(const QString &command, const QString &subcommand,
                                             const Invocation &invocation, const QString &workingDirectory);

// The options of each control command (the command table lists them).
std::span<const OptionSpec> projectsOptions();
std::span<const OptionSpec> sessionOptions();
std::span<const OptionSpec> scheduleOptions();

} // namespace Cli::Control
