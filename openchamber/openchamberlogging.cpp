#include "openchamber/openchamberlogging.h"

namespace OpenChamber {

Q_LOGGING_CATEGORY(lcControl, "peers.openchamber.control", QtInfoMsg)
Q_LOGGING_CATEGORY(lcOpenCode, "peers.openchamber.opencode", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSchedule, "peers.openchamber.schedule", QtInfoMsg)

} // namespace OpenChamber
