#include "tokenfile.h"

#include "secretfile.h"

#include <QRandomGenerator>

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
    auto content = SecretFile::read(path, 4096);
    if (!content && content.error().code == QLatin1String("missing"))
        return fail(QStringLiteral("token_missing"),
                    QStringLiteral("Token file %1 does not exist. Start the broker once (it creates it) "
                                   "or set CLAUDE_PEERS_TOKEN to the right file.")
                        .arg(path));
    if (!content)
        return fail(QStringLiteral("token_unreadable"), content.error().message);
    const QByteArray token = content->trimmed();
    if (token.isEmpty())
        return fail(QStringLiteral("token_empty"), QStringLiteral("Token file %1 is empty.").arg(path));
    return token;
}

Result<void> write(const QString &path, const QByteArray &token)
{
    if (auto written = SecretFile::write(path, token + '\n'); !written)
        return fail(QStringLiteral("token_unwritable"), written.error().message);
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
