#pragma once

#include "common/result.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Broker {

// ~/.claude-peers-config.json (docs/spec/peers-api.md §10.1) plus our "broker" object (docs/protocol.md).
// Loading never fails: a missing file is an empty config; an unreadable, oversized or
// malformed one is an empty config plus a warning() to show. Accessors return nullopt when a
// key is absent or has the wrong type, so callers apply their own defaults. Keys we do not
// know are kept and written back unchanged.
class ConfigFile
{
public:
    struct Remote
    {
        QString host;
        int port = 7900;
        QString label;
        friend bool operator==(const Remote &, const Remote &) = default;
    };

    static constexpr qint64 MaxFileBytes = 1024 * 1024;

    ConfigFile() = default;
    explicit ConfigFile(QJsonObject root);

    static ConfigFile load(const QString &path);

    QString warning() const { return m_warning; }
    const QJsonObject &root() const { return m_root; }
    void setRoot(const QJsonObject &root) { m_root = root; }
    bool isEmpty() const { return m_root.isEmpty(); }

    // federation.* (docs/spec/peers-api.md §10.1)
    std::optional<bool> federationEnabled() const;
    void setFederationEnabled(bool enabled);
    std::optional<int> federationPort() const;
    void setFederationPort(int port);
    std::optional<QString> federationSubnet() const;
    void setFederationSubnet(const QString &subnet);
    // Entries without a string host are skipped; a missing port reads as 7900.
    QList<Remote> remotes() const;
    // Keyed by host:port, like the reference (an existing entry gets the new label).
    void upsertRemote(const Remote &remote);
    bool removeRemote(const QString &host, int port);
    std::optional<bool> mdnsEnabled() const;
    void setMdnsEnabled(bool enabled);
    // Ours: federation.subnets (a list); 0.7's single federation.subnet is read as a one-item
    // list (or a comma-separated one). Setting writes both: subnets, and subnet = the first
    // entry so a 0.7 broker reading the same file still filters on something.
    QStringList federationSubnets() const;
    void setFederationSubnets(const QStringList &subnets);
    // federation.accept_legacy: 0.7 peers' PSK header and relays without ts/nonce (default true).
    std::optional<bool> acceptLegacy() const;
    void setAcceptLegacy(bool accept);
    // federation.pins: {"<host>:<port>": "sha256-<base64url of the SPKI SHA-256>"}.
    QHash<QString, QString> pins() const;
    void setPin(const QString &host, int port, const QString &fingerprint);
    bool removePin(const QString &host, int port);

    // server.startup_timeout_ms
    std::optional<int> startupTimeoutMs() const;
    void setStartupTimeoutMs(int ms);

    // broker.* (ours)
    std::optional<int> heartbeatTimeoutMs() const;
    std::optional<int> rateLimitPerMinute() const;
    std::optional<int> maxConnections() const;
    std::optional<int> idleTimeoutMs() const;
    void setBrokerValue(const QString &key, int value);

    // Pretty-printed with 2-space indentation and a final newline, as the reference writes it.
    QByteArray toJson() const;
    // Atomic (temporary file + rename); the file is 0600 whether created or rewritten.
    Result<void> save(const QString &path) const;

    // Every change to the file goes through here: loads it, applies change, and saves it, under
    // an advisory lock (flock on <path>.lock) that every claude-peers writer takes, so two
    // writers at once never lose one's change (the CLI, the tray, the broker's federation). A
    // change that returns false writes nothing. Waits at most lockWaitMs for another writer. A
    // file that does not load cleanly (warning()) is never overwritten: ErrorKind::Unreadable.
    static constexpr int DefaultLockWaitMs = 5000;
    static Result<ConfigFile> update(const QString &path, const std::function<bool(ConfigFile &)> &change,
                                     int lockWaitMs = DefaultLockWaitMs);

private:
    std::optional<int> intValue(const QString &object, const QString &key) const;
    std::optional<bool> boolValue(const QString &object, const QString &key) const;
    void setValue(const QString &object, const QString &key, const QJsonValue &value);

    QJsonObject m_root;
    QString m_warning;
};

// QJsonDocument::Indented uses 4 spaces; the reference's files use 2.
QByteArray toTwoSpaceJson(const QJsonDocument &document);

} // namespace Broker
