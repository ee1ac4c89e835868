#pragma once

#include "common/location.h"

#include <QProcessEnvironment>

namespace Broker {

// Tunables with the reference's defaults; the host fills them from config file + environment.
struct Settings
{
    Location location;
    int heartbeatTimeoutMs = 60000; // a peer silent this long counts as gone; 0 disables
    int rateLimitPerMinute = 60; // per sending peer; 0 disables
    int maxConnections = 1024;
    int idleTimeoutMs = 60000;
    int maxBodyBytes = 1024 * 1024;
    int maxHeaderBytes = 16 * 1024;
    int requestTimeoutMs = 10000; // a request must arrive in full this long after its first byte
    int tokenRereadMs = 60000;
    int keychainRetryMs = 10000; // the one retry when the keychain does not answer at start
    int sweepIntervalMs = 30000; // stale peers + orphan bounce (docs/spec/peers-api.md §11.8, §11.9)
    int purgeIntervalMs = 60000; // delivered messages older than the retention
    qint64 deliveredRetentionMs = qint64(7) * 24 * 3600 * 1000;
    int statsIntervalMs = 60000; // request counter rotation and rate-limit map GC
    quint16 federationPort = 7900; // shown by /federation/status even when disabled
    bool reloadable = false; // set by load(): reload() re-reads the config file too

    // Reads ~/.claude-peers-config.json ("broker" object) and the environment overrides
    // (CLAUDE_PEERS_RATE_LIMIT, CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS). A missing or malformed
    // file or value keeps the default and logs a warning; it never fails.
    static Settings load(const Location &location,
                         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
};

} // namespace Broker
