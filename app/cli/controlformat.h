#pragma once

#include "common/controlwire.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

// Text renderings of the control actions' results (docs/spec/control-service.md §4), pure
// so that they unit-test without a broker. quiet: the compact form (ids, or the text asked for).
namespace Cli::ControlFormat {

QStringList result(const QString &action, const QJsonObject &result, bool quiet);
// "<message>[ Forked session <id> remains available in <dir>.]" (docs/spec/control-service.md §10.2).
QString failure(const Broker::ControlFailure &failure);

} // namespace Cli::ControlFormat
