#include "broker/internal/bounce.h"

namespace Broker::Bounce {

QString text(qint64 messageId, const QString &target, const QString &originalText)
{
    // JS slice(0, 100) counts UTF-16 code units, as QString::left does.
    QString preview = originalText.left(100);
    if (originalText.size() > 100)
        preview += QStringLiteral("...");
    return QStringLiteral(
               "\u26A0 Message #%1 to %2 could not be delivered \u2014 peer has disconnected.\n> %3")
        .arg(messageId)
        .arg(target, preview);
}

bool senderMayReceiveBounce(const QString &fromId)
{
    return !fromId.isEmpty() && fromId != QLatin1String("cli") && fromId != QLatin1String("system") &&
        !fromId.contains(QLatin1Char(':'));
}

} // namespace Broker::Bounce
