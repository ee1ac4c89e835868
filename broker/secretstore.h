#pragma once

#include <QByteArray>
#include <QLatin1String>
#include <QString>

#include <expected>
#include <functional>

class QObject;

namespace Broker {

// Where a secret lives, in words for the user and for `claude-peers status`.
struct SecretLocation
{
    enum class Kind { Keychain, File };
    Kind kind = Kind::File;
    QString name; // the keychain backend ("Secret Service") or the file's path

    bool isKeychain() const { return kind == Kind::Keychain; }
    // "the OS keychain (Secret Service)" or "the file /home/u/.claude-peers-token"
    QString describe() const;
};

struct SecretError
{
    enum class Kind {
        NotFound, // the store answers but holds no such secret
        Unavailable, // nothing answers (no keychain backend, no D-Bus session, keyring not up yet)
        Denied, // the user or the system refused access
        Failed, // anything else (I/O error, malformed answer)
    };
    Kind kind = Kind::Failed;
    QString message; // plain words, says what to do next where it can
    SecretLocation where;
};

template<typename T> using SecretResult = std::expected<T, SecretError>;

struct SecretRead
{
    QByteArray secret;
    SecretLocation where;
};

// Where the broker's secrets are kept: the OS keychain (QtKeychain, in app/) or 0600 files
// (FileSecretStore). Declared here so that the broker uses it without linking a keychain.
// Every answer arrives later through the event loop of the caller's thread, never inside
// the call, and not at all once `context` is destroyed.
class SecretStore
{
public:
    // The keys (in a keychain: service "claude-peers", these as the account/key names).
    static constexpr QLatin1String service {"claude-peers"};
    static constexpr QLatin1String localTokenKey {"local-token"};
    static constexpr QLatin1String federationPskKey {"federation-psk"};
    static constexpr QLatin1String openCodePasswordKey {"opencode-password"};
    // The password the broker generates for the OpenCode it starts itself (openchamber/).
    static constexpr QLatin1String managedOpenCodePasswordKey {"opencode-managed-password"};

    virtual ~SecretStore();

    using ReadDone = std::function<void(SecretResult<SecretRead>)>;
    using WriteDone = std::function<void(SecretResult<SecretLocation>)>;

    virtual void read(const QString &key, QObject *context, ReadDone done) = 0;
    virtual void write(const QString &key, const QByteArray &secret, QObject *context, WriteDone done) = 0;
    // Removing a secret that is not there succeeds.
    virtual void remove(const QString &key, QObject *context, WriteDone done) = 0;
};

// What the broker says about its secrets (POST /secrets, `claude-peers status`).
struct SecretsStatus
{
    SecretLocation localToken; // where the token is kept
    QString tokenFile; // the rendezvous file helpers and the CLI read (always written)
    QString note; // why it is a file, or what is still pending; empty when nothing to say
};

} // namespace Broker
