#include "tokenfile.h"

#include <QFile>
#include <QRandomGenerator>
#include <QSaveFile>

namespace Broker::TokenFile {

QByteArray generate()
{
    QByteArray raw(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(raw.data()),
                                         reinterpret_cast<quint32 *>(raw.data() + raw.size()));
    return raw.toHex();
}

Result<QByteArray> read(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return fail(QStringLiteral("token_missing"),
                    QStringLiteral("Token file %1 does not exist. Start the broker once (it creates it) "
                                   "or set CLAUDE_PEERS_TOKEN to the right file.")
                        .arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("token_unreadable"),
                    QStringLiteral("Cannot read token file %1: %2").arg(path, file.errorString()));
    const QByteArray token = file.read(4096).trimmed();
    if (token.isEmpty())
        return fail(QStringLiteral("token_empty"), QStringLiteral("Token file %1 is empty.").arg(path));
    return token;
}

Result<void> write(const QString &path, const QByteArray &token)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("token_unwritable"),
                    QStringLiteral("Cannot write token file %1: %2").arg(path, file.errorString()));
    // QSaveFile writes a temporary file first; restrict it before the secret goes in.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(token + '\n');
    if (!file.commit())
        return fail(QStringLiteral("token_unwritable"),
                    QStringLiteral("Cannot write token file %1: %2").arg(path, file.errorString()));
    return {};
}

Result<QByteArray> readOrCreate(const QString &path)
{
    auto existing = read(path);
    if (existing)
        return existing;
    if (existing.error().code == QLatin1String("token_unreadable"))
        return existing;
    const QByteArray token = generate();
    if (auto written = write(path, token); !written)
        return std::unexpected(written.error());
    return token;
}

} // namespace Broker::TokenFile
