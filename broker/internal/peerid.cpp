#include "broker/internal/peerid.h"

#include "common/dto.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace Broker::PeerId {

QString fromTty(const QString &tty)
{
    return Broker::peerIdForTty(tty);
}

QString random()
{
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    constexpr int alphabetSize = sizeof(alphabet) - 1;
    QString id;
    id.reserve(8);
    for (int i = 0; i < 8; ++i)
        id.append(QLatin1Char(alphabet[QRandomGenerator::system()->bounded(alphabetSize)]));
    return id;
}

QString derive(const QString &tty)
{
    return tty.isEmpty() ? random() : fromTty(tty);
}

} // namespace Broker::PeerId

namespace Broker::SessionSecret {

QByteArray generate()
{
    QByteArray raw(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(raw.data()),
                                         reinterpret_cast<quint32 *>(raw.data() + raw.size()));
    return raw.toHex();
}

QByteArray hash(const QByteArray &secret)
{
    return QCryptographicHash::hash(secret, QCryptographicHash::Sha256).toHex();
}

bool looksLikeSecret(const QByteArray &credential)
{
    if (credential.size() != 64)
        return false;
    for (char c : credential) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

} // namespace Broker::SessionSecret
