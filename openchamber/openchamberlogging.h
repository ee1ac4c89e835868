#pragma once

#include <QLoggingCategory>

namespace OpenChamber {

// Categories of the control service, filtered with QT_LOGGING_RULES="peers.openchamber.*=true".
Q_DECLARE_LOGGING_CATEGORY(lcControl) // peers.openchamber.control: actions and their results
Q_DECLARE_LOGGING_CATEGORY(lcOpenCode) // peers.openchamber.opencode: requests to OpenCode
Q_DECLARE_LOGGING_CATEGORY(lcSchedule) // peers.openchamber.schedule: scheduled task runs

} // namespace OpenChamber
