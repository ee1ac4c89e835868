#include "broker/secretstore.h"

namespace Broker {

SecretStore::~SecretStore() = default;

QString SecretLocation::describe() const
{
    return kind == Kind::Keychain ? QStringLiteral("the OS keychain (%1)").arg(name)
                                  : QStringLiteral("the file %1").arg(name);
}

} // namespace Broker
