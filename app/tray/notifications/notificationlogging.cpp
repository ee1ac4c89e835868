#include "app/tray/notifications/notificationlogging.h"

namespace App {

Q_LOGGING_CATEGORY(lcNotify, "peers.tray.notify", QtInfoMsg)

} // namespace App
