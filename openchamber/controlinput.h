#pragma once

#include "openchamber/controlservice.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace OpenChamber {

// Input normalization shared by every action (docs/spec/control-service.md §2.3): only JSON
// strings count as strings, trimmed, empty = absent; only a JSON true is true.
QString asNonEmptyString(const QJsonValue &value);
inline bool isTrue(const QJsonValue &value)
{
    return value.isBool() && value.toBool();
}
// A key that is there with a value other than null.
inline bool isPresent(const QJsonObject &input, const QString &key)
{
    const QJsonValue v = input.value(key);
    return !v.isUndefined() && !v.isNull();
}
// A whole number from 1 to 2^53-1 (JavaScript's safe integers), else nullopt.
std::optional<qint64> positiveSafeInteger(const QJsonValue &value);

ControlError usageError(const QString &message); // 400
ControlError runtimeError(const QString &message); // 500

// "provider/model", split at the first '/'; both halves non-empty.
struct ModelRef
{
    QString providerID;
    QString modelID;

    static std::optional<ModelRef> parse(const QString &text);
    static std::optional<ModelRef> fromJson(const QJsonValue &value); // {providerID, modelID}
    QString toString() const { return providerID + QLatin1Char('/') + modelID; }
    QJsonObject toJson() const;
    friend bool operator==(const ModelRef &, const ModelRef &) = default;
};

// "~" and "~/x" against $HOME; anything else unchanged.
QString expandHome(const QString &path);

// The session service's directory check (docs/spec/control-service.md §3): trimmed, ~ expanded,
// made absolute, must be an existing directory; answers its canonical path. 400 with the contract's
// texts otherwise.
std::expected<QString, ControlError> validateDirectory(const QString &directory);

// timeout (seconds) of a wait: default 600, else a whole number from 1 to
// 86400 (docs/spec/control-service.md §8).
std::expected<qint64, ControlError> waitTimeoutMs(const QJsonObject &input);

} // namespace OpenChamber
