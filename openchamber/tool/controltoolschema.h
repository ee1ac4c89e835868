#pragma once

#include "mcp_stdio/clientkind.h"

#include <QJsonObject>
#include <QString>

// What the openchamber tool shows the model (docs/spec/control-service.md §10.1): the
// input schema {action (the 13 agent-exposed actions), parameters {…}} and the description.
namespace OpenChamber::ControlToolSchema {

QJsonObject inputSchema();
QString description(Mcp::ClientKind client);

} // namespace OpenChamber::ControlToolSchema
