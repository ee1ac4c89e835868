#include "broker/internal/tokenkeeper.h"
#include "broker/brokerlogging.h"
#include "common/tokenfile.h"

#include <QScopeGuard>

namespace Broker {

TokenKeeper::TokenKeeper(Location location, std::shared_ptr<SecretStore> keychain, int retryDelayMs,
                         QObject *parent)
    : QObject(parent),
      m_location(std::move(location)),
      m_keychain(std::move(keychain)),
      m_retryDelayMs(retryDelayMs)
{
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &TokenKeeper::askKeychain);
    m_rotationWait.setSingleShot(true);
    m_rotationWait.setInterval(3000);
    connect(&m_rotationWait, &QTimer::timeout, this, [this] {
        // Still no first answer: rotate in the file now (the keychain gets it when it answers,
        // m_changedWhileAsking). A keychain that already holds the token is waited for.
        if (m_state == State::Asking && !m_rotating) {
            qCInfo(lcServer) << "The OS keychain has not answered yet; rotating in the token file";
            m_keychainBusy = false;
            runWaitingRotations();
        } else {
            m_rotationWait.start();
        }
    });
}

Result<QByteArray> TokenKeeper::start()
{
    auto token = TokenFile::readOrCreate(m_location.tokenPath);
    if (!token)
        return token;
    m_token = *token;
    if (m_location.tokenPathExplicit) {
        m_state = State::FileOnly;
        m_note = QStringLiteral("CLAUDE_PEERS_TOKEN names the token file, which is then the source of "
                                "truth; the OS keychain is not used for the local token.");
    } else if (!m_keychain) {
        m_state = State::FileOnly;
        m_note = QStringLiteral("This broker host uses no OS keychain.");
    } else {
        m_state = State::Asking;
        m_note = QStringLiteral("Asking the OS keychain; the token file is used until it answers.");
        askKeychain();
    }
    return m_token;
}

SecretsStatus TokenKeeper::status() const
{
    SecretsStatus status;
    status.tokenFile = m_location.tokenPath;
    status.localToken = m_state == State::Keychain
        ? m_keychainWhere
        : SecretLocation {SecretLocation::Kind::File, m_location.tokenPath};
    status.note = m_note;
    return status;
}

void TokenKeeper::setKeychainBusy(bool busy)
{
    m_keychainBusy = busy;
    runWaitingRotations();
}

void TokenKeeper::runWaitingRotations()
{
    if (m_keychainBusy || m_rotating)
        return;
    m_rotationWait.stop();
    auto waiting = std::move(m_waitingRotations);
    m_waitingRotations.clear();
    for (auto &done : waiting)
        rotate(std::move(done));
}

void TokenKeeper::askKeychain()
{
    setKeychainBusy(true);
    m_keychain->read(SecretStore::localTokenKey, this,
                     [this](SecretResult<SecretRead> answer) { onKeychainRead(std::move(answer)); });
}

void TokenKeeper::onKeychainRead(SecretResult<SecretRead> answer)
{
    if (m_state != State::Asking) {
        setKeychainBusy(false);
        return;
    }
    // Decided below, unless a write to the keychain follows (it clears it when answered).
    const auto settle = qScopeGuard([this] {
        if (!m_storing)
            setKeychainBusy(false);
    });
    if (answer) {
        m_keychainWhere = answer->where;
        if (answer->secret == m_token) {
            m_state = State::Keychain;
            m_note.clear();
            qCInfo(lcServer).noquote() << "The local token is kept in" << m_keychainWhere.describe();
            Q_EMIT statusChanged();
        } else if (m_changedWhileAsking) {
            storeInKeychain(m_token, QStringLiteral("the token was rotated before the keychain answered"));
        } else {
            m_state = State::Keychain;
            m_note.clear();
            qCInfo(lcServer).noquote() << "The local token is kept in" << m_keychainWhere.describe()
                                       << "- rewriting the token file from it";
            adopt(answer->secret);
            writeFile(m_token);
            Q_EMIT statusChanged();
        }
        return;
    }
    const SecretError &error = answer.error();
    switch (error.kind) {
    case SecretError::Kind::NotFound:
        m_keychainWhere = error.where;
        storeInKeychain(m_token,
                        QStringLiteral("the keychain held none yet: the token file's token moved in"));
        return;
    case SecretError::Kind::Unavailable:
    case SecretError::Kind::Failed:
        if (!m_retried) {
            m_retried = true;
            m_note = QStringLiteral("The OS keychain did not answer (%1); the token file is used and the "
                                    "keychain is asked again in %2 s.")
                         .arg(error.message)
                         .arg(m_retryDelayMs / 1000.0);
            qCInfo(lcServer).noquote() << m_note;
            m_retryTimer.start(m_retryDelayMs);
            Q_EMIT statusChanged();
            return;
        }
        fallBackToFile(QStringLiteral("No OS keychain answered (%1): the local token lives in the 0600 file "
                                      "%2 only. Start a Secret Service (GNOME Keyring, KWallet, KeePassXC) "
                                      "and restart the broker to keep it in the keychain.")
                           .arg(error.message, m_location.tokenPath));
        return;
    case SecretError::Kind::Denied:
        fallBackToFile(
            QStringLiteral("The OS keychain refused access (%1): the local token lives in the 0600 "
                           "file %2 only.")
                .arg(error.message, m_location.tokenPath));
        return;
    }
}

void TokenKeeper::storeInKeychain(const QByteArray &token, const QString &why)
{
    m_storing = true;
    m_keychainBusy = true;
    m_keychain->write(
        SecretStore::localTokenKey, token, this, [this, token, why](SecretResult<SecretLocation> written) {
            m_storing = false;
            const auto settle = qScopeGuard([this] { setKeychainBusy(false); });
            if (!written) {
                fallBackToFile(QStringLiteral("The OS keychain did not take the local token "
                                              "(%1): it lives in the 0600 file %2 only.")
                                   .arg(written.error().message, m_location.tokenPath));
                return;
            }
            m_state = State::Keychain;
            m_keychainWhere = *written;
            m_note.clear();
            qCInfo(lcServer).noquote() << "The local token is now kept in" << m_keychainWhere.describe()
                                       << QStringLiteral("(%1)").arg(why);
            Q_EMIT statusChanged();
        });
}

void TokenKeeper::fallBackToFile(const QString &note)
{
    m_state = State::FileOnly;
    m_note = note;
    qCWarning(lcServer).noquote() << note;
    Q_EMIT statusChanged();
}

void TokenKeeper::adopt(const QByteArray &token)
{
    if (token == m_token)
        return;
    m_token = token;
    Q_EMIT tokenChanged(m_token);
}

bool TokenKeeper::writeFile(const QByteArray &token)
{
    if (auto written = TokenFile::write(m_location.tokenPath, token); !written) {
        qCWarning(lcServer).noquote()
            << written.error().message
            << "Helpers and the CLI cannot find the current token until it is written.";
        return false;
    }
    return true;
}

void TokenKeeper::rereadFile()
{
    if (m_rotating)
        return;
    auto token = TokenFile::read(m_location.tokenPath);
    if (!token) {
        if (m_state == State::Keychain && token.error().kind == ErrorKind::TokenMissing) {
            qCInfo(lcServer) << "The token file is gone; writing it again from the keychain";
            writeFile(m_token);
            return;
        }
        qCWarning(lcServer).noquote() << token.error().message << "Keeping the current token.";
        return;
    }
    if (*token == m_token)
        return;
    qCInfo(lcServer) << "Token changed; now accepting the new one";
    adopt(*token);
    if (m_state == State::Asking)
        m_changedWhileAsking = true;
    else if (m_state == State::Keychain)
        storeInKeychain(m_token, QStringLiteral("the token file was changed"));
}

void TokenKeeper::rotate(std::function<void(Result<SecretsStatus>)> done)
{
    if (m_keychainBusy || m_rotating) {
        m_waitingRotations.push_back(std::move(done));
        if (!m_rotationWait.isActive())
            m_rotationWait.start();
        return;
    }
    const QByteArray fresh = TokenFile::generate();
    if (m_state != State::Keychain) {
        if (auto written = TokenFile::write(m_location.tokenPath, fresh); !written) {
            done(std::unexpected(written.error()));
            return;
        }
        if (m_state == State::Asking)
            m_changedWhileAsking = true;
        adopt(fresh);
        qCInfo(lcServer) << "Token rotated (token file)";
        done(status());
        return;
    }
    m_rotating = true;
    m_keychain->write(
        SecretStore::localTokenKey, fresh, this,
        [this, fresh, done = std::move(done)](SecretResult<SecretLocation> written) {
            m_rotating = false;
            const auto next = qScopeGuard([this] { runWaitingRotations(); });
            if (!written) {
                done(fail(ErrorKind::Keychain,
                          QStringLiteral("The OS keychain refused the new token (%1); the token "
                                         "was not rotated. Try again, or set CLAUDE_PEERS_TOKEN to "
                                         "keep the token in a file.")
                              .arg(written.error().message)));
                return;
            }
            adopt(fresh);
            const bool fileWritten = writeFile(fresh);
            qCInfo(lcServer) << "Token rotated (keychain and token file)";
            if (!fileWritten) {
                done(fail(ErrorKind::Token,
                          QStringLiteral("The token was rotated in the OS keychain but the token "
                                         "file %1 could not be written: helpers cannot find it.")
                              .arg(m_location.tokenPath)));
                return;
            }
            done(status());
        });
}

} // namespace Broker
