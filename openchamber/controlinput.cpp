#include "openchamber/controlinput.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>

namespace OpenChamber {

QString asNonEmptyString(const QJsonValue &value)
{
    return value.isString() ? value.toString().trimmed() : QString();
}

std::optional<qint64> positiveSafeInteger(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    constexpr double maxSafe = 9007199254740991.0;
    if (!std::isfinite(d) || d != std::floor(d) || d < 1 || d > maxSafe)
        return std::nullopt;
    return qint64(d);
}

ControlError usageError(const QString &message)
{
    return ControlError {400, message, {}};
}

ControlError runtimeError(const QString &message)
{
    return ControlError {500, message, {}};
}

std::optional<ModelRef> ModelRef::parse(const QString &text)
{
    const QString trimmed = text.trimmed();
    const qsizetype slash = trimmed.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == trimmed.size() - 1)
        return std::nullopt;
    ModelRef model {trimmed.left(slash).trimmed(), trimmed.mid(slash + 1).trimmed()};
    if (model.providerID.isEmpty() || model.modelID.isEmpty())
        return std::nullopt;
    return model;
}

std::optional<ModelRef> ModelRef::fromJson(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    const QString provider = asNonEmptyString(o.value(QStringLiteral("providerID")));
    const QString model = asNonEmptyString(o.value(QStringLiteral("modelID")));
    if (provider.isEmpty() || model.isEmpty())
        return std::nullopt;
    return ModelRef {provider, model};
}

QJsonObject ModelRef::toJson() const
{
    return {{QStringLiteral("providerID"), providerID}, {QStringLiteral("modelID"), modelID}};
}

QString expandHome(const QString &path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

std::expected<QString, ControlError> validateDirectory(const QString &directory)
{
    const QString trimmed = directory.trimmed();
    if (trimmed.isEmpty())
        return std::unexpected(usageError(QStringLiteral("Directory parameter is required")));
    const QString absolute = QDir::cleanPath(QDir::current().absoluteFilePath(expandHome(trimmed)));
    const QFileInfo info(absolute);
    if (!info.exists())
        return std::unexpected(usageError(QStringLiteral("Directory not found")));
    if (!info.isDir())
        return std::unexpected(usageError(QStringLiteral("Specified path is not a directory")));
    if (!info.isReadable() || !info.isExecutable())
        return std::unexpected(usageError(QStringLiteral("Access to directory denied")));
    const QString canonical = info.canonicalFilePath();
    if (canonical.isEmpty())
        return std::unexpected(usageError(QStringLiteral("Failed to validate directory")));
    return canonical;
}

std::expected<qint64, ControlError> waitTimeoutMs(const QJsonObject &input)
{
    if (!isPresent(input, QStringLiteral("timeout")))
        return 600 * 1000;
    const std::optional<qint64> seconds = positiveSafeInteger(input.value(QStringLiteral("timeout")));
    if (!seconds || *seconds > 86400)
        return std::unexpected(usageError(QStringLiteral("timeout must be from 1 to 86400 seconds")));
    return *seconds * 1000;
}

} // namespace OpenChamber
