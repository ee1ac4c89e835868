#pragma once

#include <QLoggingCategory>

namespace App {

Q_DECLARE_LOGGING_CATEGORY(lcNotify) // peers.tray.notify: the notification server, decisions, actions

} // namespace App
