#pragma once

#include "broker/internal/privateheader.h"

#include "common/result.h"

#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

namespace Broker {

Q_DECLARE_LOGGING_CATEGORY(lcStore)

// The database layout of the broker and its upgrades, versioned with PRAGMA user_version.
//   0: an empty file, or a reference 0.7.0 database (the reference never sets user_version)
//   1: the reference's final tables, every column the reference adds by ALTER present
//   2: peers.secret_hash (session secrets) and the indexes of the hot queries
//   3: peers.client (the MCP client a peer runs in: "claude-code", "opencode", …)
//   4: partial message indexes (undelivered rows by recipient, delivered rows by age)
//   5: peers.attention, attention_since, attention_message (what a session asks of its human)
//   6: peers.delivery (how messages reach a session's model: channel, inbox or banner)
namespace StoreSchema {

inline constexpr int currentVersion = 6;

Result<int> userVersion(QSqlDatabase &db);

// Brings the database to currentVersion, one transaction per step, and returns the version
// it ends at. Refuses a database newer than currentVersion.
Result<int> migrate(QSqlDatabase &db);

// Error{"database", "<what> failed: <driver text>"}; logs it.
Error databaseError(const QString &what, const QSqlError &error);

} // namespace StoreSchema
} // namespace Broker
