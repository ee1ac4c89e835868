#pragma once

#include "federation/certificate.h"

#include <QTemporaryDir>

// Shared by the TLS tests: a fresh identity in a test's temporary folder.
namespace TlsTestSupport {

inline Federation::TlsIdentity makeIdentity(const QTemporaryDir &dir, const QString &stem,
                                            Federation::GenerateOptions options = {})
{
    const auto identity = Federation::generateIdentity(
        {dir.filePath(stem + QStringLiteral(".crt")), dir.filePath(stem + QStringLiteral(".key"))},
        QStringLiteral("brokerhost"), options);
    if (!identity)
        qFatal("%s", qPrintable(identity.error().message));
    return *identity;
}

inline Federation::TlsIdentity makeIdentity(const QTemporaryDir &dir, Federation::KeyType type,
                                            const QString &stem = QStringLiteral("fed"))
{
    Federation::GenerateOptions options;
    options.keyType = type;
    return makeIdentity(dir, stem, options);
}

} // namespace TlsTestSupport
