#include "mcp_stdio/tty.h"

#include "common/dto.h"

#include <unistd.h>

namespace Mcp::Tty {

QString detect()
{
    if (qEnvironmentVariableIsSet("CLAUDE_PEERS_TTY"))
        return qEnvironmentVariable("CLAUDE_PEERS_TTY").trimmed();
    return forProcess(qint64(::getppid()));
}

QString peerIdForTty(const QString &tty)
{
    if (tty.isEmpty())
        return {};
    return Broker::peerIdForTty(tty);
}

QString stableIdWithoutTty(const QString &clientName, const QString &cwd)
{
    return Broker::peerIdWithoutTty(clientName, cwd);
}

} // namespace Mcp::Tty
