#pragma once

#include "broker/secretstore.h"
#include "common/result.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace Federation {

// The federation's pre-shared key: its own secret (SecretStore key "federation-psk"), not the
// local bearer token. Kept in the OS keychain when one answers, else in a 0600 file. The first
// start with federation enabled and no PSK copies the local token into it (0.7's PSK, so a 0.7
// mesh keeps working); status then warns until `claude-peers federation rotate-psk`.
class PskKeeper : public QObject
{
    Q_OBJECT
public:
    static constexpr int kKeychainWaitMs = 10'000; // a keychain that does not answer: the file

    // keychain may be null (then the file alone).
    PskKeeper(std::shared_ptr<Broker::SecretStore> keychain, std::shared_ptr<Broker::SecretStore> file,
              QString tokenPath, QObject *parent = nullptr);

    using Done = std::function<void(Broker::Result<void>)>;
    // Reads it (or makes it by the migration); done runs once, later. Calls made while a read is
    // in flight are answered by that read.
    void load(Done done);
    // A fresh random PSK (32 bytes, 64 hex characters, like the token) replaces the current one.
    void rotate(Done done);
    // The PSK of a mesh we join (cpt:// URL) replaces ours.
    void replace(const QByteArray &psk, Done done) { store(psk, std::move(done)); }

    QByteArray psk() const { return m_psk; }
    bool isLoaded() const { return !m_psk.isEmpty(); }
    // The PSK is still the local token's value (0.7's arrangement).
    bool equalsLocalToken() const;
    Broker::SecretLocation where() const { return m_where; }

private:
    void readFrom(Broker::SecretStore *store, bool isKeychain, Done done);
    void migrate(Done done);
    void store(const QByteArray &psk, Done done);
    void writeTo(Broker::SecretStore *store, bool isKeychain, const QByteArray &psk, Done done);
    Broker::SecretStore *keychain() const { return m_keychainUsable ? m_keychain.get() : nullptr; }

    std::shared_ptr<Broker::SecretStore> m_keychain;
    std::shared_ptr<Broker::SecretStore> m_file;
    QString m_tokenPath;
    bool m_keychainUsable = true;
    QByteArray m_psk;
    Broker::SecretLocation m_where;
    quint64 m_generation = 0;
    std::vector<Done> m_loading; // the callers of the read in flight
};

} // namespace Federation
