#include "common/tokenfile.h"

#include "common/secretfile.h"

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
    if (!content && content.error().kind == ErrorKind::Missing)
        return fail(ErrorKind::TokenMissing,
                    QStringLiteral("Token file %1 does not exist. Start the broker once (it creates it) "
                                   "or set CLAUDE_PEERS_TOKEN to the right file.")
                        .arg(path));
    if (!content)
        return fail(ErrorKind::TokenUnreadable, content.error().message);
    const QByteArray token = content->trimmed();
    if (token.isEmpty())
        return fail(ErrorKind::TokenEmpty, QStringLiteral("Token file %1 is empty.").arg(path));
    return token;
}

Result<void> write(const QString &path, const QByteArray &token)
{
    if (auto written = SecretFile::write(path, token + '\n'); !written)
        return fail(ErrorKind::TokenUnwritable, written.error().message);
    return {};
}

Result<QByteArray> readOrCreate(const QString &path)
{
    auto existing = read(path);
    if (existing)
        return existing;
    if (existing.error().kind == ErrorKind::TokenUnreadable)
        return existing;
    const QByteArray token = generate();
    if (auto written = write(path, token); !written)
        return std::unexpected(written.error());
    return token;
}

} // namespace Broker::TokenFile
