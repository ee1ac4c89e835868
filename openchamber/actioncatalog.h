#pragma once

#include "openchamber/controlservice.h"

#include <QList>

namespace OpenChamber {

// The 14 actions of the control service (docs/spec/control-service.md §4), in the
// contract's order, with the titles and descriptions the agent tool shows. Qt Core only: the
// service (its catalog()) and the helper's openchamber tool (its schema) share it, so the tool
// offers exactly what the broker runs.
const QList<ActionInfo> &controlActions();

} // namespace OpenChamber
