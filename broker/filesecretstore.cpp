#include "broker/filesecretstore.h"
#include "common/secretfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

namespace Broker {

namespace {

// Answers go through the event loop like a keychain's, so callers cannot come to rely on a
// synchronous answer.
template<typename Done, typename Value> void answerLater(QObject *context, Done done, Value value)
{
    QTimer::singleShot(
        0, context, [done = std::move(done), value = std::move(value)]() mutable { done(std::move(value)); });
}

SecretLocation fileLocation(const QString &path)
{
    return {SecretLocation::Kind::File, path};
}

} // namespace

FileSecretStore::FileSecretStore(QHash<QString, QString> pathsByKey) : m_paths(std::move(pathsByKey)) { }

QHash<QString, QString> FileSecretStore::defaultPaths(const Location &location)
{
    const QDir home = QFileInfo(location.configPath).dir();
    return {{localTokenKey, location.tokenPath},
            {federationPskKey, home.filePath(QStringLiteral(".claude-peers-federation-psk"))},
            {openCodePasswordKey, home.filePath(QStringLiteral(".claude-peers-opencode-password"))},
            {managedOpenCodePasswordKey,
             home.filePath(QStringLiteral(".claude-peers-opencode-managed-password"))}};
}

void FileSecretStore::read(const QString &key, QObject *context, ReadDone done)
{
    const QString path = m_paths.value(key);
    SecretResult<SecretRead> result;
    if (path.isEmpty()) {
        result = std::unexpected(SecretError {
            SecretError::Kind::Failed, QStringLiteral("No file is set for the secret \"%1\".").arg(key),
            fileLocation(path)});
    } else if (auto content = SecretFile::read(path, 64 * 1024); !content) {
        const bool missing = content.error().kind == ErrorKind::Missing;
        result =
            std::unexpected(SecretError {missing ? SecretError::Kind::NotFound : SecretError::Kind::Failed,
                                         content.error().message, fileLocation(path)});
    } else if (content->trimmed().isEmpty()) {
        result = std::unexpected(SecretError {SecretError::Kind::NotFound,
                                              QStringLiteral("%1 is empty.").arg(path), fileLocation(path)});
    } else {
        result = SecretRead {content->trimmed(), fileLocation(path)};
    }
    answerLater(context, std::move(done), std::move(result));
}

void FileSecretStore::write(const QString &key, const QByteArray &secret, QObject *context, WriteDone done)
{
    const QString path = m_paths.value(key);
    SecretResult<SecretLocation> result = fileLocation(path);
    if (path.isEmpty())
        result = std::unexpected(SecretError {
            SecretError::Kind::Failed, QStringLiteral("No file is set for the secret \"%1\".").arg(key),
            fileLocation(path)});
    else if (auto written = SecretFile::write(path, secret + '\n'); !written)
        result = std::unexpected(
            SecretError {SecretError::Kind::Failed, written.error().message, fileLocation(path)});
    answerLater(context, std::move(done), std::move(result));
}

void FileSecretStore::remove(const QString &key, QObject *context, WriteDone done)
{
    const QString path = m_paths.value(key);
    SecretResult<SecretLocation> result = fileLocation(path);
    QFile file(path);
    if (!path.isEmpty() && file.exists() && !file.remove())
        result = std::unexpected(SecretError {
            SecretError::Kind::Failed, QStringLiteral("Cannot remove %1: %2").arg(path, file.errorString()),
            fileLocation(path)});
    answerLater(context, std::move(done), std::move(result));
}

} // namespace Broker
