#include "openchamber/agentactions.h"

#include <QStringList>

namespace OpenChamber {

QList<ActionInfo> agentActions(const QList<ActionInfo> &catalog)
{
    QList<ActionInfo> exposed;
    for (const ActionInfo &action : catalog) {
        if (action.agentExposed)
            exposed.append(action);
    }
    return exposed;
}

std::expected<QString, QString> resolveAgentAction(const QList<ActionInfo> &catalog, const QString &requested)
{
    const QList<ActionInfo> exposed = agentActions(catalog);
    QStringList names;
    QStringList bareMatches;
    for (const ActionInfo &action : exposed) {
        names.append(action.name);
        if (action.name == requested)
            return action.name;
        if (action.name.section(QLatin1Char('.'), 1) == requested)
            bareMatches.append(action.name);
    }
    if (!requested.isEmpty() && !requested.contains(QLatin1Char('.')) && bareMatches.size() == 1)
        return bareMatches.constFirst();
    return std::unexpected(QStringLiteral("Unsupported OpenChamber action: %1. Use one of: %2")
                               .arg(requested.isEmpty() ? QStringLiteral("missing") : requested,
                                    names.join(QStringLiteral(", "))));
}

} // namespace OpenChamber
