#include "app/tray/traylogging.h"

namespace App {

Q_LOGGING_CATEGORY(lcHost, "peers.tray.host", QtInfoMsg)
Q_LOGGING_CATEGORY(lcUi, "peers.tray.ui", QtInfoMsg)

} // namespace App
