#include "tests/support/fakesecretstore.h"

#include <QTimer>

namespace TestSupport {

using Broker::SecretError;
using Broker::SecretLocation;
using Broker::SecretRead;
using Broker::SecretResult;

SecretLocation FakeSecretStore::location()
{
    return {SecretLocation::Kind::Keychain, QStringLiteral("fake keychain")};
}

void FakeSecretStore::answer(QObject *context, std::function<void()> call)
{
    if (!silent)
        QTimer::singleShot(0, context, std::move(call));
}

std::optional<SecretError> FakeSecretStore::nextFailure()
{
    if (failures.isEmpty())
        return std::nullopt;
    return SecretError {failures.takeFirst(), QStringLiteral("fake failure"), location()};
}

void FakeSecretStore::read(const QString &key, QObject *context, ReadDone done)
{
    ++reads;
    SecretResult<SecretRead> result;
    if (auto failure = nextFailure())
        result = std::unexpected(*failure);
    else if (!secrets.contains(key))
        result = std::unexpected(
            SecretError {SecretError::Kind::NotFound, QStringLiteral("no such entry"), location()});
    else
        result = SecretRead {secrets.value(key), location()};
    answer(context, [done = std::move(done), result] { done(result); });
}

void FakeSecretStore::write(const QString &key, const QByteArray &secret, QObject *context, WriteDone done)
{
    ++writes;
    SecretResult<SecretLocation> result = location();
    if (auto failure = nextFailure())
        result = std::unexpected(*failure);
    else
        secrets.insert(key, secret);
    answer(context, [done = std::move(done), result] { done(result); });
}

void FakeSecretStore::remove(const QString &key, QObject *context, WriteDone done)
{
    ++removes;
    SecretResult<SecretLocation> result = location();
    if (auto failure = nextFailure())
        result = std::unexpected(*failure);
    else
        secrets.remove(key);
    answer(context, [done = std::move(done), result] { done(result); });
}

} // namespace TestSupport
