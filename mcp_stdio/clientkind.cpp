#include "mcp_stdio/clientkind.h"

#include "common/dto.h"

namespace Mcp {

ClientKind clientKindFromName(const QString &clientName)
{
    const QString label = Broker::clientLabel(clientName);
    if (label == QLatin1String("Claude Code"))
        return ClientKind::ClaudeCode;
    if (label == QLatin1String("OpenCode"))
        return ClientKind::OpenCode;
    return ClientKind::Other;
}

} // namespace Mcp
