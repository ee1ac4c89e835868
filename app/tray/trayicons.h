#pragma once

#include "traypresenter.h"

#include <QIcon>

namespace App {

// The SVG icons from resources/ (compiled in). Where Qt's SVG plugin is missing a plain
// painted icon of the same colour stands in, so the tray never shows an empty square.
QIcon stateIcon(TrayPresenter::IconState state);
QIcon applicationIcon();

} // namespace App
