#pragma once

#include "result.h"

#include <QByteArray>
#include <QString>

namespace Broker::TokenFile {

// 32 CSPRNG bytes as 64 lower-case hex characters (reference §9).
QByteArray generate();

// The token with surrounding whitespace trimmed; an error when missing, unreadable or empty.
Result<QByteArray> read(const QString &path);

// Writes token + "\n" atomically; the file is created with mode 0600 and stays 0600.
Result<void> write(const QString &path, const QByteArray &token);

// Reads the token, creating the file with a fresh one when it is missing or empty.
Result<QByteArray> readOrCreate(const QString &path);

} // namespace Broker::TokenFile
