#pragma once

#include "broker/internal/privateheader.h"

#include "broker/secretstore.h"
#include "common/location.h"
#include "common/result.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

namespace Broker {

// Keeps the local token (docs/decisions.md): in the OS keychain where one
// answers, with the 0600 token file rewritten from it as the rendezvous for helpers, the CLI
// and 0.7 clients; in the token file alone where none answers, where the path is explicit
// (CLAUDE_PEERS_TOKEN: that file is the source of truth) or where the host gives no keychain.
//
// start() is synchronous so that the broker serves at once: it takes the token file's token
// (creating it when missing), then asks the keychain and reconciles when it answers: the
// keychain's token wins and the file is rewritten; an empty keychain gets the file's token
// (migration on first run). A keychain that does not answer (at login it often starts after
// the tray) is asked once more after retryDelayMs; after that the token stays in the file
// and status() says so.
class TokenKeeper : public QObject
{
    Q_OBJECT
public:
    TokenKeeper(Location location, std::shared_ptr<SecretStore> keychain, int retryDelayMs,
                QObject *parent = nullptr);

    Result<QByteArray> start();
    const QByteArray &token() const { return m_token; }
    SecretsStatus status() const;

    // The 60 s timer and SIGHUP: a token file changed by someone else (0.7's rotate-token,
    // federation join, an editor) is adopted and, where the keychain holds the token, stored
    // there too. A missing file is written again from the current token.
    void rereadFile();

    // A fresh token, stored where the token lives (keychain first, then the file). The keychain
    // refusing it leaves the old token in place (error code "keychain"). done runs once,
    // unless the keeper is destroyed first.
    void rotate(std::function<void(Result<SecretsStatus>)> done);
    // How long a rotation waits for the keychain's first answer at start (a keyring that shows
    // an unlock prompt may not answer for long); then it goes to the token file and the
    // keychain gets the new token when it answers. Default 3 s, below the CLI's 5 s timeout.
    void setRotationWaitMs(int ms) { m_rotationWait.setInterval(ms); }

Q_SIGNALS:
    void tokenChanged(const QByteArray &token);
    void statusChanged();

private:
    enum class State { FileOnly, Asking, Keychain };

    void askKeychain();
    void onKeychainRead(SecretResult<SecretRead> answer);
    void storeInKeychain(const QByteArray &token, const QString &why);
    void fallBackToFile(const QString &note);
    void setKeychainBusy(bool busy); // false: runs the rotations that waited for the keychain
    void runWaitingRotations();
    void adopt(const QByteArray &token);
    bool writeFile(const QByteArray &token);

    Location m_location;
    std::shared_ptr<SecretStore> m_keychain;
    int m_retryDelayMs;
    QTimer m_retryTimer;
    QTimer m_rotationWait;
    State m_state = State::FileOnly;
    SecretLocation m_keychainWhere;
    QString m_note;
    QByteArray m_token;
    bool m_retried = false;
    bool m_changedWhileAsking = false; // rotated or file edited before the keychain answered
    bool m_rotating = false;
    // A read or a migration write is on its way: a rotation waits for its answer, so that it
    // lands where the token will be kept (and is not answered as "file" a moment too early).
    bool m_keychainBusy = false;
    bool m_storing = false;
    std::vector<std::function<void(Result<SecretsStatus>)>> m_waitingRotations;
};

} // namespace Broker
