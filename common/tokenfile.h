#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QString>

namespace Broker::TokenFile {

// 32 CSPRNG bytes as 64 lower-case hex characters (docs/spec/peers-api.md §9).
QByteArray generate();

// The token with surrounding whitespace trimmed; an error when missing, unreadable or empty.
// Warns when the file is open to others or owned by someone else (SecretFile::read).
Result<QByteArray> read(const QString &path);

// Writes token + "\n" atomically, owner-only from creation (SecretFile::write).
Result<void> write(const QString &path, const QByteArray &token);

// Reads the token, creating the file with a fresh one when it is missing or empty.
Result<QByteArray> readOrCreate(const QString &path);

} // namespace Broker::TokenFile
