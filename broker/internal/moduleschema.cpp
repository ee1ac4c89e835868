#include "broker/internal/moduleschema.h"
#include "broker/internal/storeschema.h"

#include <QRegularExpression>
#include <QSqlQuery>

namespace Broker::ModuleSchema {
namespace {

Error moduleError(const QString &module, const QString &what)
{
    return {ErrorKind::ModuleSchema,
            QStringLiteral("Module \"%1\": %2. The broker did not start.").arg(module, what)};
}

Result<void> exec(QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        return std::unexpected(Error {ErrorKind::Database, query.lastError().databaseText()});
    return {};
}

Result<void> checkSteps(const QString &module, const QList<ModuleMigration> &migrations)
{
    static const QRegularExpression validName(QStringLiteral("^[a-z0-9-]{1,64}$"));
    if (!validName.match(module).hasMatch())
        return std::unexpected(
            moduleError(module, QStringLiteral("its name must be 1 to 64 of a-z, 0-9 and -")));
    for (qsizetype i = 0; i < migrations.size(); ++i) {
        if (migrations.at(i).version != i + 1 || !migrations.at(i).apply)
            return std::unexpected(moduleError(
                module,
                QStringLiteral("its migration %1 (%2) must have version %3 and a step to apply (a bug "
                               "in the module)")
                    .arg(i + 1)
                    .arg(migrations.at(i).what)
                    .arg(i + 1)));
    }
    return {};
}

Result<int> readVersion(QSqlDatabase &db, const QString &module)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT version FROM module_versions WHERE name = ?"));
    query.addBindValue(module);
    if (!query.exec())
        return std::unexpected(Error {ErrorKind::Database, query.lastError().databaseText()});
    return query.next() ? query.value(0).toInt() : 0;
}

// One step: BEGIN IMMEDIATE takes the write lock, then the version is read again (another
// process may have run the step meanwhile). Anything but a COMMIT that went through rolls back.
Result<void> runStep(QSqlDatabase &db, const QString &module, const ModuleMigration &step)
{
    auto failed = [&](const Error &error) {
        return std::unexpected(moduleError(
            module,
            QStringLiteral("migration %1 (%2) failed: %3").arg(step.version).arg(step.what, error.message)));
    };
    if (auto begun = exec(db, QStringLiteral("BEGIN IMMEDIATE")); !begun)
        return failed(begun.error());
    // true: applied and committed; false: already there.
    auto applied = [&]() -> Result<bool> {
        auto current = readVersion(db, module);
        if (!current)
            return std::unexpected(current.error());
        if (*current >= step.version)
            return false;
        if (auto ran = step.apply(db); !ran)
            return std::unexpected(ran.error());
        QSqlQuery record(db);
        record.prepare(QStringLiteral("INSERT INTO module_versions(name, version) VALUES(?, ?) "
                                      "ON CONFLICT(name) DO UPDATE SET version = excluded.version"));
        record.addBindValue(module);
        record.addBindValue(step.version);
        if (!record.exec())
            return std::unexpected(Error {ErrorKind::Database, record.lastError().databaseText()});
        if (auto committed = exec(db, QStringLiteral("COMMIT")); !committed)
            return std::unexpected(committed.error());
        return true;
    }();
    if (applied && *applied)
        return {};
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    if (!applied)
        return failed(applied.error());
    return {};
}

} // namespace

Result<int> version(QSqlDatabase &db, const QString &module)
{
    QSqlQuery query(db);
    if (!query.exec(
            QStringLiteral("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'module_versions'")))
        return std::unexpected(
            StoreSchema::databaseError(QStringLiteral("Reading the module versions"), query.lastError()));
    if (!query.next())
        return 0;
    auto found = readVersion(db, module);
    if (!found)
        return std::unexpected(moduleError(
            module, QStringLiteral("reading its schema version failed: %1").arg(found.error().message)));
    return found;
}

Result<int> migrate(QSqlDatabase &db, const QString &module, const QList<ModuleMigration> &migrations)
{
    if (auto checked = checkSteps(module, migrations); !checked)
        return std::unexpected(checked.error());
    if (migrations.isEmpty())
        return 0;
    if (auto made = exec(db,
                         QStringLiteral("CREATE TABLE IF NOT EXISTS module_versions ("
                                        "name TEXT PRIMARY KEY, version INTEGER NOT NULL)"));
        !made)
        return std::unexpected(moduleError(
            module, QStringLiteral("creating module_versions failed: %1").arg(made.error().message)));
    auto current = version(db, module);
    if (!current)
        return current;
    const int latest = int(migrations.size());
    if (*current > latest)
        return std::unexpected(moduleError(
            module,
            QStringLiteral("its tables have version %1, but this claude-peers knows versions up to %2: "
                           "they were written by a newer claude-peers. Upgrade claude-peers to use "
                           "this database")
                .arg(*current)
                .arg(latest)));
    for (int step = *current; step < latest; ++step) {
        if (auto ran = runStep(db, module, migrations.at(step)); !ran)
            return std::unexpected(ran.error());
        qCInfo(lcStore).noquote() << QStringLiteral("Module %1: tables at version %2 (%3)")
                                         .arg(module)
                                         .arg(step + 1)
                                         .arg(migrations.at(step).what);
    }
    return latest;
}

} // namespace Broker::ModuleSchema
