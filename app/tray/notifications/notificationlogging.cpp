#include "notificationlogging.h"

namespace App {

Q_LOGGING_CATEGORY(lcNotify, "peers.tray.notify", QtInfoMsg)

} // namespace App
