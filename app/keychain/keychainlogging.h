#pragma once

#include <QLoggingCategory>

namespace App {
Q_DECLARE_LOGGING_CATEGORY(lcKeychain) // peers.app.keychain: OS keychain calls and their answers
}
