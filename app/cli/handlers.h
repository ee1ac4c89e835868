#pragma once

#include "app/cli/command.h"

// The command handlers behind the table in commandtable.cpp. Each ends with ctx.finish().
namespace Cli::Handlers {

// peercommands.cpp
void status(Context &ctx, const Invocation &inv);
void peers(Context &ctx, const Invocation &inv);
void send(Context &ctx, const Invocation &inv);
void broadcast(Context &ctx, const Invocation &inv);
void setName(Context &ctx, const Invocation &inv);
void rename(Context &ctx, const Invocation &inv);
void autoSummary(Context &ctx, const Invocation &inv);

// historycommands.cpp
void metrics(Context &ctx, const Invocation &inv);
void messages(Context &ctx, const Invocation &inv);

// hookcommand.cpp
void hook(Context &ctx, const Invocation &inv);

// autostartcommand.cpp
void autostart(Context &ctx, const Invocation &inv);

// configcommand.cpp
void config(Context &ctx, const Invocation &inv);
// notificationscommand.cpp
void notifications(Context &ctx, const Invocation &inv);

// brokercommands.cpp
void rotateToken(Context &ctx, const Invocation &inv);
void reloadBroker(Context &ctx, const Invocation &inv);
void killBroker(Context &ctx, const Invocation &inv);
void restart(Context &ctx, const Invocation &inv);

// federationcommands.cpp
void federation(Context &ctx, const Invocation &inv);

// controlcommands.cpp: the broker's control service (/control)
void projects(Context &ctx, const Invocation &inv);
void models(Context &ctx, const Invocation &inv);
void session(Context &ctx, const Invocation &inv);
void schedule(Context &ctx, const Invocation &inv);

} // namespace Cli::Handlers
