#pragma once

#include "app/cli/command.h"

#include <QStringList>

// The `federation` subcommands that live in their own file.
namespace Cli::Handlers {

// federationdoctor.cpp
void federationDoctor(Context &ctx, const Invocation &inv, const QStringList &args);

} // namespace Cli::Handlers
