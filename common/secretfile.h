#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QString>

// Files that hold a secret (the token file, the keychain's file fallback): owner-only from
// the moment they exist, replaced atomically, and checked when read.
namespace Broker::SecretFile {

// Replaces path with data atomically. The temporary file beside it is created with
// O_CREAT|O_EXCL and mode 0600, so the secret is never in a file anyone else could open, even
// for a moment and whatever the umask; then fsync and rename over path. A symlink at path is
// followed (its target is replaced). Error code "unwritable".
Result<void> write(const QString &path, const QByteArray &data);

// Up to maxBytes of the file. Error codes "missing", "unreadable". Logs a warning when the file
// is readable or writable by others than its owner, or owned by another user: a secret there
// may have been read or planted.
Result<QByteArray> read(const QString &path, qint64 maxBytes);

} // namespace Broker::SecretFile
