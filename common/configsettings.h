#pragma once

#include "common/config.h"
#include "common/result.h"

#include <QList>
#include <QString>

namespace Broker::ConfigSettings {

// The settings a person changes from the tray's Settings page or `claude-peers config set`, as
// one table both use: their config-file key, how a value is checked, and when the broker applies
// it. Values are written into ~/.claude-peers-config.json through ConfigFile (unknown keys and
// other objects are kept; the file is rewritten atomically, 0600).
enum class Applies {
    OnReload, // POST /reload (SIGHUP) applies it without a restart
    OnRestart, // read when the broker starts: `claude-peers restart`, or restart the tray
};

struct Key
{
    const char *name; // "federation.port"
    const char *help; // one line, plain words
    Applies applies;
};

QList<Key> keys();
const Key *find(const QString &name);

// The value in the file, as text ("" when absent): "7900", "192.168.1.0/24, fd00::/64", a URL.
QString get(const ConfigFile &config, const Key &key);
// Checks the text and sets it in config. Errors are ErrorKind::Usage with a message that names
// the key, the bad part and a valid example. An empty value removes the key (the default applies).
Result<void> set(ConfigFile &config, const Key &key, const QString &value);

// Loads path, sets the key, saves: what both front ends do.
Result<void> setInFile(const QString &path, const QString &name, const QString &value);

// One subnet entry "address/prefix" (IPv4 or IPv6), checked without QtNetwork (the CLI links
// Core only); the federation module parses it again, fully, when it loads the file.
Result<void> checkSubnet(const QString &entry);

} // namespace Broker::ConfigSettings
