#include "federation/pskkeeper.h"

#include "common/tokenfile.h"
#include "federation/federationlogging.h"

#include <QTimer>

using Broker::ErrorKind;
using Broker::SecretError;
using Broker::SecretStore;

namespace Federation {

namespace {

const QString kKey = QString(SecretStore::federationPskKey);

} // namespace

PskKeeper::PskKeeper(std::shared_ptr<SecretStore> keychain, std::shared_ptr<SecretStore> file,
                     QString tokenPath, QObject *parent)
    : QObject(parent),
      m_keychain(std::move(keychain)),
      m_file(std::move(file)),
      m_tokenPath(std::move(tokenPath)),
      m_keychainUsable(m_keychain != nullptr)
{
}

bool PskKeeper::equalsLocalToken() const
{
    const auto token = Broker::TokenFile::read(m_tokenPath);
    return token && !m_psk.isEmpty() && *token == m_psk;
}

void PskKeeper::load(Done done)
{
    // A second read started while one is in flight made the first one's answer stale, and its
    // caller never heard back (two /federation/init at once: the first hung). The read in flight
    // now answers every caller.
    m_loading.push_back(std::move(done));
    if (m_loading.size() > 1)
        return;
    Done everyone = [this](Broker::Result<void> loaded) {
        for (const Done &waiting : std::exchange(m_loading, {}))
            waiting(loaded);
    };
    if (keychain())
        readFrom(keychain(), true, std::move(everyone));
    else
        readFrom(m_file.get(), false, std::move(everyone));
}

void PskKeeper::readFrom(SecretStore *from, bool isKeychain, Done done)
{
    const quint64 generation = ++m_generation;
    auto answered = std::make_shared<bool>(false);
    auto finish = [this, isKeychain, done, answered,
                   generation](Broker::SecretResult<Broker::SecretRead> read) {
        if (*answered || generation != m_generation)
            return;
        *answered = true;
        if (read && !read->secret.trimmed().isEmpty()) {
            m_psk = read->secret.trimmed();
            m_where = read->where;
            done({});
            return;
        }
        const bool notFound = read || read.error().kind == SecretError::Kind::NotFound;
        if (isKeychain) {
            if (!notFound) {
                qCWarning(lcFederation).noquote() << "the keychain cannot keep the federation PSK ("
                                                  << read.error().message << "); using its file";
                m_keychainUsable = false;
            }
            // A PSK kept in the file earlier (no keychain then) is still the PSK.
            readFrom(m_file.get(), false, done);
            return;
        }
        if (notFound) {
            migrate(done);
            return;
        }
        done(Broker::fail(ErrorKind::Keychain,
                          QStringLiteral("The federation PSK cannot be read: %1").arg(read.error().message)));
    };
    if (isKeychain) {
        QTimer::singleShot(kKeychainWaitMs, this, [finish] {
            finish(std::unexpected(SecretError {
                SecretError::Kind::Unavailable, QStringLiteral("no answer from the keychain"), {}}));
        });
    }
    from->read(kKey, this, finish);
}

void PskKeeper::migrate(Done done)
{
    auto token = Broker::TokenFile::read(m_tokenPath);
    if (!token) {
        done(Broker::fail(
            ErrorKind::TokenMissing,
            QStringLiteral("No federation PSK yet, and the local token to start it from cannot be "
                           "read: %1")
                .arg(token.error().message)));
        return;
    }
    qCWarning(lcFederation).noquote()
        << "federation PSK created as a copy of the local token (claude-peers 0.7's "
           "arrangement); run `claude-peers federation rotate-psk` to separate them";
    store(*token, std::move(done));
}

void PskKeeper::rotate(Done done)
{
    store(Broker::TokenFile::generate(), std::move(done));
}

void PskKeeper::store(const QByteArray &psk, Done done)
{
    if (keychain())
        writeTo(keychain(), true, psk, std::move(done));
    else
        writeTo(m_file.get(), false, psk, std::move(done));
}

void PskKeeper::writeTo(SecretStore *to, bool isKeychain, const QByteArray &psk, Done done)
{
    to->write(
        kKey, psk, this, [this, isKeychain, psk, done](Broker::SecretResult<Broker::SecretLocation> written) {
            if (written) {
                m_psk = psk;
                m_where = *written;
                if (isKeychain) // one copy only: an older file copy would come back when the keychain fails
                    m_file->remove(kKey, this, [](auto) {});
                done({});
                return;
            }
            if (isKeychain) {
                qCWarning(lcFederation).noquote() << "the keychain refused the federation PSK ("
                                                  << written.error().message << "); keeping it in a file";
                m_keychainUsable = false;
                writeTo(m_file.get(), false, psk, done);
                return;
            }
            done(Broker::fail(
                ErrorKind::Unwritable,
                QStringLiteral("The federation PSK cannot be stored: %1").arg(written.error().message)));
        });
}

} // namespace Federation
