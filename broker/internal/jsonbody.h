#pragma once

#include "broker/internal/privateheader.h"

#include "common/jsonfields.h"
#include "common/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace Broker {

// Parses a request body into a JSON object: 400 "Invalid JSON body: <reason>" instead of the
// reference's 500. An empty body counts as {} so that body-less admin calls work.
Result<QJsonObject> parseJsonBody(const QByteArray &body);

} // namespace Broker
