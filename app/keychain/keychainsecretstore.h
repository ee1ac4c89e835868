#pragma once

#include "broker/secretstore.h"

namespace App {

// Broker::SecretStore in the OS keychain through QtKeychain: service "claude-peers", the
// SecretStore keys as key names, stored as text. On Linux that is a Secret Service item with
// the attributes xdg:schema=org.qt.keychain, server=claude-peers, user=<key>, type=plaintext
// (`secret-tool lookup server claude-peers user local-token`). No insecure fallback: where
// no keychain answers the caller decides (TokenKeeper falls back to the 0600 token file).
class KeychainSecretStore : public Broker::SecretStore
{
public:
    // The backend QtKeychain uses here, in words ("Secret Service", "KWallet", "macOS Keychain").
    static QString backendName();

    void read(const QString &key, QObject *context, ReadDone done) override;
    void write(const QString &key, const QByteArray &secret, QObject *context, WriteDone done) override;
    void remove(const QString &key, QObject *context, WriteDone done) override;
};

} // namespace App
