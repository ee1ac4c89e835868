#pragma once

#include "broker/internal/privateheader.h"

#include "broker/brokermodule.h"
#include "common/result.h"

#include <QSqlDatabase>

namespace Broker::ModuleSchema {

// Brings one module's tables to its last migration's version, one transaction per step, and
// records it in module_versions(name, version), a table made only when a module has migrations.
// Errors (code "module_schema") name the module, the step and the reason, and say what to do:
// the broker does not start with a module whose tables it cannot trust.
Result<int> migrate(QSqlDatabase &db, const QString &module, const QList<ModuleMigration> &migrations);

// The version recorded for a module; 0 when it has none (or no module ever migrated).
Result<int> version(QSqlDatabase &db, const QString &module);

} // namespace Broker::ModuleSchema
