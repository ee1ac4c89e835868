#pragma once

#include "openchamber/controlservice.h"

#include <QList>
#include <QString>

#include <expected>

namespace OpenChamber {

// Which action an AI session's openchamber tool asks for (docs/spec/control-service.md §10.1): an
// exposed action by its full name, or a bare name that is unique among the exposed actions ("toggle" →
// schedule.toggle, "status" → session.status since schedule.status is not exposed). Anything
// else is refused with the contract's text, listing the actions the tool may use:
// "Unsupported OpenChamber action: <name|missing>. Use one of: a, b, …".
std::expected<QString, QString> resolveAgentAction(const QList<ActionInfo> &catalog,
                                                   const QString &requested);

// The agent-exposed part of the catalog, in its order.
QList<ActionInfo> agentActions(const QList<ActionInfo> &catalog);

} // namespace OpenChamber
