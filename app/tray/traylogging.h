#pragma once

#include <QLoggingCategory>

namespace App {

// Categories of the tray app, filtered with QT_LOGGING_RULES="peers.tray.*=true".
Q_DECLARE_LOGGING_CATEGORY(lcHost) // peers.tray.host: broker start, hand-over, retry
Q_DECLARE_LOGGING_CATEGORY(lcUi) // peers.tray.ui: tray icon, windows, signals

} // namespace App
