#include "app/keychain/keychainlogging.h"

namespace App {
Q_LOGGING_CATEGORY(lcKeychain, "peers.app.keychain", QtInfoMsg)
}
