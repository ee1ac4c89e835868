#include "app/keychain/keychainsecretstore.h"
#include "app/keychain/keychainlogging.h"

#include <qt6keychain/keychain.h>

#include <QProcessEnvironment>

namespace App {

using Broker::SecretError;
using Broker::SecretLocation;

namespace {

SecretLocation keychainLocation()
{
    return {SecretLocation::Kind::Keychain, KeychainSecretStore::backendName()};
}

SecretError::Kind kindOf(QKeychain::Error error)
{
    switch (error) {
    case QKeychain::EntryNotFound:
        return SecretError::Kind::NotFound;
    case QKeychain::NoBackendAvailable:
        return SecretError::Kind::Unavailable;
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return SecretError::Kind::Denied;
    case QKeychain::NoError:
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::NotImplemented:
    case QKeychain::OtherError: // also "no D-Bus session", "keyring daemon not up yet"
        break;
    }
    return SecretError::Kind::Failed;
}

SecretError errorOf(const QKeychain::Job *job)
{
    return {kindOf(job->error()), job->errorString(), keychainLocation()};
}

// Jobs delete themselves after finished(); the answer is delivered only while context lives.
template<typename JobType> JobType *makeJob(const QString &key)
{
    auto *job = new JobType(Broker::SecretStore::service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    return job;
}

} // namespace

QString KeychainSecretStore::backendName()
{
#if defined(Q_OS_MACOS)
    return QStringLiteral("macOS Keychain");
#elif defined(Q_OS_WIN)
    return QStringLiteral("Windows Credential Manager");
#else
    // QtKeychain prefers KWallet in a Plasma session and the Secret Service elsewhere.
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (env.value(QStringLiteral("XDG_CURRENT_DESKTOP"))
            .contains(QLatin1String("KDE"), Qt::CaseInsensitive) ||
        env.contains(QStringLiteral("KDE_FULL_SESSION")))
        return QStringLiteral("KWallet");
    return QStringLiteral("Secret Service");
#endif
}

void KeychainSecretStore::read(const QString &key, QObject *context, ReadDone done)
{
    auto *job = makeJob<QKeychain::ReadPasswordJob>(key);
    QObject::connect(
        job, &QKeychain::Job::finished, context, [key, done = std::move(done)](QKeychain::Job *j) {
            auto *readJob = static_cast<QKeychain::ReadPasswordJob *>(j);
            if (readJob->error() != QKeychain::NoError) {
                qCDebug(lcKeychain).noquote() << "read" << key << "failed:" << readJob->errorString();
                done(std::unexpected(errorOf(readJob)));
                return;
            }
            done(Broker::SecretRead {readJob->textData().toUtf8(), keychainLocation()});
        });
    job->start();
}

void KeychainSecretStore::write(const QString &key, const QByteArray &secret, QObject *context,
                                WriteDone done)
{
    auto *job = makeJob<QKeychain::WritePasswordJob>(key);
    // Text, not binary: the item then holds the secret itself (binary would be base64).
    job->setTextData(QString::fromUtf8(secret));
    QObject::connect(job, &QKeychain::Job::finished, context,
                     [key, done = std::move(done)](QKeychain::Job *j) {
                         if (j->error() != QKeychain::NoError) {
                             qCDebug(lcKeychain).noquote() << "write" << key << "failed:" << j->errorString();
                             done(std::unexpected(errorOf(j)));
                             return;
                         }
                         done(keychainLocation());
                     });
    job->start();
}

void KeychainSecretStore::remove(const QString &key, QObject *context, WriteDone done)
{
    auto *job = makeJob<QKeychain::DeletePasswordJob>(key);
    QObject::connect(
        job, &QKeychain::Job::finished, context, [key, done = std::move(done)](QKeychain::Job *j) {
            if (j->error() != QKeychain::NoError && j->error() != QKeychain::EntryNotFound) {
                qCDebug(lcKeychain).noquote() << "remove" << key << "failed:" << j->errorString();
                done(std::unexpected(errorOf(j)));
                return;
            }
            done(keychainLocation());
        });
    job->start();
}

} // namespace App
