#pragma once

#include "app/tray/attention.h"

#include <QIcon>

namespace App {

// The SVG icons from resources/ (compiled in). Where Qt's SVG plugin is missing a plain
// painted icon of the same colour stands in, so the tray never shows an empty square.
// count > 0 adds it as a badge (the actionable states only: sessions that need you).
QIcon stateIcon(TrayState state, int count = 0);
QIcon applicationIcon();

} // namespace App
