#pragma once

#include "openchamber/controlinput.h"

#include <QJsonObject>
#include <QString>

// Small helpers shared by ActionRun's files (actionrun.cpp, actionwait.cpp, actionlanding.cpp,
// actionworktree.cpp); not for anything else.
namespace OpenChamber::ActionRunSupport {

// A trimmed, non-empty string input, else empty (docs/spec/control-service.md §2.3).
inline QString str(const QJsonObject &o, const char *key)
{
    return asNonEmptyString(o.value(QLatin1String(key)));
}

// busy and retry are activity; so is any other non-idle type OpenCode adds (image_processing):
// waiting on through it is safer than calling a session done that is still working.
inline bool isActive(const QJsonObject &status)
{
    return status.value(QStringLiteral("type")).toString() != QLatin1String("idle");
}

} // namespace OpenChamber::ActionRunSupport
