#pragma once

#include "broker/secretstore.h"
#include "common/location.h"

#include <QHash>

namespace Broker {

// The file implementation of SecretStore: one owner-only (0600) file per key, written
// atomically (SecretFile). The fallback where no OS keychain answers.
class FileSecretStore : public SecretStore
{
public:
    explicit FileSecretStore(QHash<QString, QString> pathsByKey);

    // local-token → the token file; federation-psk and opencode-password beside the config
    // file ($HOME/.claude-peers-federation-psk, $HOME/.claude-peers-opencode-password,
    // $HOME/.claude-peers-opencode-managed-password).
    static QHash<QString, QString> defaultPaths(const Location &location);

    QString pathOf(const QString &key) const { return m_paths.value(key); }

    void read(const QString &key, QObject *context, ReadDone done) override;
    void write(const QString &key, const QByteArray &secret, QObject *context, WriteDone done) override;
    void remove(const QString &key, QObject *context, WriteDone done) override;

private:
    QHash<QString, QString> m_paths;
};

} // namespace Broker
