#include "broker/settings.h"
#include "broker/brokerlogging.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <limits>
#include <optional>

namespace Broker {

namespace {

// A whole number in [min, max] or nothing.
std::optional<qint64> integerIn(const QJsonValue &value, qint64 min, qint64 max)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!std::isfinite(d) || std::trunc(d) != d || d < double(min) || d > double(max))
        return std::nullopt;
    return qint64(d);
}

std::optional<qint64> integerIn(const QString &text, qint64 min, qint64 max)
{
    bool ok = false;
    const qint64 v = text.trimmed().toLongLong(&ok);
    if (!ok || v < min || v > max)
        return std::nullopt;
    return v;
}

template<typename T>
void applyConfig(const QJsonObject &object, const char *key, T &target, qint64 min, qint64 max,
                 const QString &where)
{
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined() || value.isNull())
        return;
    if (auto v = integerIn(value, min, max)) {
        target = T(*v);
        return;
    }
    qCWarning(lcSettings).noquote() << QStringLiteral(
                                           "%1: \"%2\" must be an integer between %3 and %4; keeping %5")
                                           .arg(where, QLatin1String(key))
                                           .arg(min)
                                           .arg(max)
                                           .arg(target);
}

template<typename T>
void applyEnv(const QProcessEnvironment &env, const char *name, T &target, qint64 min, qint64 max)
{
    const QString key = QLatin1String(name);
    if (!env.contains(key) || env.value(key).trimmed().isEmpty())
        return;
    if (auto v = integerIn(env.value(key), min, max)) {
        target = T(*v);
        return;
    }
    qCWarning(lcSettings).noquote() << QStringLiteral("%1=%2 is not an integer between %3 and %4; keeping %5")
                                           .arg(key, env.value(key))
                                           .arg(min)
                                           .arg(max)
                                           .arg(target);
}

QJsonObject readConfig(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        qCWarning(lcSettings).noquote()
            << "Cannot read" << path << ":" << file.errorString() << "- using defaults";
        return {};
    }
    QJsonParseError error;
    // QIODevice::read(n) allocates n bytes up front: ask for no more than the file holds.
    constexpr qint64 maxConfigBytes = 4 * 1024 * 1024;
    const QJsonDocument doc =
        QJsonDocument::fromJson(file.read(qMin(file.size() + 1, maxConfigBytes)), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        qCWarning(lcSettings).noquote()
            << "Ignoring malformed config file" << path << ":"
            << (error.error != QJsonParseError::NoError ? error.errorString()
                                                        : QStringLiteral("not an object"))
            << "- using defaults";
        return {};
    }
    return doc.object();
}

} // namespace

Settings Settings::load(const Location &location, const QProcessEnvironment &env)
{
    constexpr qint64 maxInt = std::numeric_limits<int>::max();
    Settings s;
    s.location = location;
    s.reloadable = true;

    const QJsonObject config = readConfig(location.configPath);
    const QJsonValue brokerValue = config.value(QStringLiteral("broker"));
    if (brokerValue.isObject()) {
        const QJsonObject b = brokerValue.toObject();
        const QString where = location.configPath + QStringLiteral(" broker");
        applyConfig(b, "heartbeat_timeout_ms", s.heartbeatTimeoutMs, 0, maxInt, where);
        applyConfig(b, "rate_limit_per_minute", s.rateLimitPerMinute, 0, maxInt, where);
        applyConfig(b, "max_connections", s.maxConnections, 1, 1000000, where);
        applyConfig(b, "idle_timeout_ms", s.idleTimeoutMs, 100, maxInt, where);
        applyConfig(b, "max_body_bytes", s.maxBodyBytes, 1024, 256 * 1024 * 1024, where);
        applyConfig(b, "token_reread_ms", s.tokenRereadMs, 10, maxInt, where);
        applyConfig(b, "sweep_interval_ms", s.sweepIntervalMs, 10, maxInt, where);
        applyConfig(b, "purge_interval_ms", s.purgeIntervalMs, 10, maxInt, where);
    } else if (!brokerValue.isUndefined() && !brokerValue.isNull()) {
        qCWarning(lcSettings).noquote()
            << location.configPath << ": \"broker\" must be an object; using defaults";
    }
    const QJsonValue federation = config.value(QStringLiteral("federation"));
    if (federation.isObject())
        applyConfig(federation.toObject(), "port", s.federationPort, 1, 65535,
                    location.configPath + QStringLiteral(" federation"));

    applyEnv(env, "CLAUDE_PEERS_RATE_LIMIT", s.rateLimitPerMinute, 0, maxInt);
    applyEnv(env, "CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS", s.heartbeatTimeoutMs, 0, maxInt);
    applyEnv(env, "CLAUDE_PEERS_FEDERATION_PORT", s.federationPort, 1, 65535);
    return s;
}

} // namespace Broker
