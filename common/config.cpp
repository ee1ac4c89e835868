#include "common/config.h"

#include "common/clientlogging.h"
#include "common/secretfile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace Broker {

namespace {

const QString kFederation = QStringLiteral("federation");
const QString kServer = QStringLiteral("server");
const QString kBroker = QStringLiteral("broker");

std::optional<int> toInt(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || d < std::numeric_limits<int>::min() ||
        d > std::numeric_limits<int>::max())
        return std::nullopt;
    return int(d);
}

} // namespace

QByteArray toTwoSpaceJson(const QJsonDocument &document)
{
    const QByteArray indented = document.toJson(QJsonDocument::Indented);
    QByteArray out;
    out.reserve(indented.size());
    // Strings never hold a raw newline in JSON text, so re-indenting line by line is safe.
    for (const QByteArray &line : indented.split('\n')) {
        if (line.isEmpty())
            continue;
        qsizetype spaces = 0;
        while (spaces < line.size() && line.at(spaces) == ' ')
            ++spaces;
        out.append(QByteArray(spaces / 2, ' '));
        out.append(line.mid(spaces));
        out.append('\n');
    }
    return out;
}

ConfigFile::ConfigFile(QJsonObject root) : m_root(std::move(root)) { }

ConfigFile ConfigFile::load(const QString &path)
{
    ConfigFile config;
    QFile file(path);
    if (!file.exists())
        return config;
    if (!file.open(QIODevice::ReadOnly)) {
        config.m_warning =
            QStringLiteral("Cannot read config file %1 (%2); using defaults.").arg(path, file.errorString());
        qCWarning(lcClientConfig).noquote() << config.m_warning;
        return config;
    }
    if (file.size() > MaxFileBytes) {
        config.m_warning = QStringLiteral("Config file %1 is larger than %2 bytes; using defaults.")
                               .arg(path)
                               .arg(MaxFileBytes);
        qCWarning(lcClientConfig).noquote() << config.m_warning;
        return config;
    }
    // The size was checked above; reading only that much avoids allocating the limit per load.
    const QByteArray data = file.read(file.size() + 1);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError) {
        config.m_warning =
            QStringLiteral("Config file %1 is not valid JSON (%2 at offset %3); using defaults.")
                .arg(path, error.errorString())
                .arg(error.offset);
    } else if (!doc.isObject()) {
        config.m_warning =
            QStringLiteral("Config file %1 does not hold a JSON object; using defaults.").arg(path);
    } else {
        config.m_root = doc.object();
    }
    if (!config.m_warning.isEmpty())
        qCWarning(lcClientConfig).noquote() << config.m_warning;
    return config;
}

std::optional<int> ConfigFile::intValue(const QString &object, const QString &key) const
{
    return toInt(m_root.value(object).toObject().value(key));
}

std::optional<bool> ConfigFile::boolValue(const QString &object, const QString &key) const
{
    const QJsonValue v = m_root.value(object).toObject().value(key);
    if (!v.isBool())
        return std::nullopt;
    return v.toBool();
}

void ConfigFile::setValue(const QString &object, const QString &key, const QJsonValue &value)
{
    QJsonObject o = m_root.value(object).toObject();
    o.insert(key, value);
    m_root.insert(object, o);
}

std::optional<bool> ConfigFile::federationEnabled() const
{
    return boolValue(kFederation, QStringLiteral("enabled"));
}

void ConfigFile::setFederationEnabled(bool enabled)
{
    setValue(kFederation, QStringLiteral("enabled"), enabled);
}

std::optional<int> ConfigFile::federationPort() const
{
    return intValue(kFederation, QStringLiteral("port"));
}

void ConfigFile::setFederationPort(int port)
{
    setValue(kFederation, QStringLiteral("port"), port);
}

std::optional<QString> ConfigFile::federationSubnet() const
{
    const QJsonValue v = m_root.value(kFederation).toObject().value(QStringLiteral("subnet"));
    if (!v.isString())
        return std::nullopt;
    return v.toString();
}

void ConfigFile::setFederationSubnet(const QString &subnet)
{
    setValue(kFederation, QStringLiteral("subnet"), subnet);
}

QStringList ConfigFile::federationSubnets() const
{
    const QJsonObject federation = m_root.value(kFederation).toObject();
    QStringList list;
    if (const QJsonValue subnets = federation.value(QStringLiteral("subnets")); subnets.isArray()) {
        for (const QJsonValue &v : subnets.toArray()) {
            if (v.isString() && !v.toString().trimmed().isEmpty())
                list << v.toString().trimmed();
        }
        return list;
    }
    for (const QString &part :
         federationSubnet().value_or(QString()).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!part.trimmed().isEmpty())
            list << part.trimmed();
    }
    return list;
}

void ConfigFile::setFederationSubnets(const QStringList &subnets)
{
    QJsonObject federation = m_root.value(kFederation).toObject();
    if (subnets.isEmpty()) {
        federation.remove(QStringLiteral("subnets"));
        federation.remove(QStringLiteral("subnet"));
    } else {
        federation.insert(QStringLiteral("subnets"), QJsonArray::fromStringList(subnets));
        federation.insert(QStringLiteral("subnet"), subnets.first());
    }
    m_root.insert(kFederation, federation);
}

std::optional<bool> ConfigFile::acceptLegacy() const
{
    return boolValue(kFederation, QStringLiteral("accept_legacy"));
}

void ConfigFile::setAcceptLegacy(bool accept)
{
    setValue(kFederation, QStringLiteral("accept_legacy"), accept);
}

QHash<QString, QString> ConfigFile::pins() const
{
    QHash<QString, QString> pins;
    const QJsonObject object = m_root.value(kFederation).toObject().value(QStringLiteral("pins")).toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.value().isString())
            pins.insert(it.key(), it.value().toString());
    }
    return pins;
}

void ConfigFile::setPin(const QString &host, int port, const QString &fingerprint)
{
    QJsonObject pins = m_root.value(kFederation).toObject().value(QStringLiteral("pins")).toObject();
    pins.insert(QStringLiteral("%1:%2").arg(host).arg(port), fingerprint);
    setValue(kFederation, QStringLiteral("pins"), pins);
}

bool ConfigFile::removePin(const QString &host, int port)
{
    QJsonObject pins = m_root.value(kFederation).toObject().value(QStringLiteral("pins")).toObject();
    const QString key = QStringLiteral("%1:%2").arg(host).arg(port);
    if (!pins.contains(key))
        return false;
    pins.remove(key);
    setValue(kFederation, QStringLiteral("pins"), pins);
    return true;
}

QList<ConfigFile::Remote> ConfigFile::remotes() const
{
    QList<Remote> list;
    const QJsonArray array = m_root.value(kFederation).toObject().value(QStringLiteral("remotes")).toArray();
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        const QJsonValue host = o.value(QStringLiteral("host"));
        if (!host.isString() || host.toString().isEmpty())
            continue;
        Remote r;
        r.host = host.toString();
        r.port = toInt(o.value(QStringLiteral("port"))).value_or(7900);
        r.label = o.value(QStringLiteral("label")).toString();
        list.append(r);
    }
    return list;
}

void ConfigFile::upsertRemote(const Remote &remote)
{
    QJsonObject federation = m_root.value(kFederation).toObject();
    QJsonArray array = federation.value(QStringLiteral("remotes")).toArray();
    QJsonObject entry {{QStringLiteral("host"), remote.host}, {QStringLiteral("port"), remote.port}};
    if (!remote.label.isEmpty())
        entry.insert(QStringLiteral("label"), remote.label);
    bool replaced = false;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonObject o = array.at(i).toObject();
        if (o.value(QStringLiteral("host")).toString() == remote.host &&
            toInt(o.value(QStringLiteral("port"))).value_or(7900) == remote.port) {
            array.replace(i, entry);
            replaced = true;
            break;
        }
    }
    if (!replaced)
        array.append(entry);
    federation.insert(QStringLiteral("remotes"), array);
    m_root.insert(kFederation, federation);
}

bool ConfigFile::removeRemote(const QString &host, int port)
{
    QJsonObject federation = m_root.value(kFederation).toObject();
    QJsonArray array = federation.value(QStringLiteral("remotes")).toArray();
    bool removed = false;
    for (qsizetype i = array.size() - 1; i >= 0; --i) {
        const QJsonObject o = array.at(i).toObject();
        if (o.value(QStringLiteral("host")).toString() == host &&
            toInt(o.value(QStringLiteral("port"))).value_or(7900) == port) {
            array.removeAt(i);
            removed = true;
        }
    }
    if (removed) {
        federation.insert(QStringLiteral("remotes"), array);
        m_root.insert(kFederation, federation);
    }
    return removed;
}

std::optional<bool> ConfigFile::mdnsEnabled() const
{
    const QJsonValue v = m_root.value(kFederation)
                             .toObject()
                             .value(QStringLiteral("mdns"))
                             .toObject()
                             .value(QStringLiteral("enabled"));
    if (!v.isBool())
        return std::nullopt;
    return v.toBool();
}

void ConfigFile::setMdnsEnabled(bool enabled)
{
    QJsonObject federation = m_root.value(kFederation).toObject();
    QJsonObject mdns = federation.value(QStringLiteral("mdns")).toObject();
    mdns.insert(QStringLiteral("enabled"), enabled);
    federation.insert(QStringLiteral("mdns"), mdns);
    m_root.insert(kFederation, federation);
}

std::optional<int> ConfigFile::startupTimeoutMs() const
{
    return intValue(kServer, QStringLiteral("startup_timeout_ms"));
}

void ConfigFile::setStartupTimeoutMs(int ms)
{
    setValue(kServer, QStringLiteral("startup_timeout_ms"), ms);
}

std::optional<int> ConfigFile::heartbeatTimeoutMs() const
{
    return intValue(kBroker, QStringLiteral("heartbeat_timeout_ms"));
}

std::optional<int> ConfigFile::rateLimitPerMinute() const
{
    return intValue(kBroker, QStringLiteral("rate_limit_per_minute"));
}

std::optional<int> ConfigFile::maxConnections() const
{
    return intValue(kBroker, QStringLiteral("max_connections"));
}

std::optional<int> ConfigFile::idleTimeoutMs() const
{
    return intValue(kBroker, QStringLiteral("idle_timeout_ms"));
}

void ConfigFile::setBrokerValue(const QString &key, int value)
{
    setValue(kBroker, key, value);
}

QByteArray ConfigFile::toJson() const
{
    return toTwoSpaceJson(QJsonDocument(m_root));
}

Result<void> ConfigFile::save(const QString &path) const
{
    // Owner-only from creation like every file that may hold a secret (federation settings).
    if (auto written = SecretFile::write(path, toJson()); !written)
        return fail(ErrorKind::ConfigUnwritable,
                    QStringLiteral("Cannot write config file: %1").arg(written.error().message));
    return {};
}

namespace {

// An exclusive flock on <path>.lock for as long as it lives. The lock file stays (removing it
// would let a third writer lock a new file while the second still holds the old one).
class ConfigLock
{
public:
    static Result<ConfigLock> take(const QString &configPath, int waitMs)
    {
        const QByteArray lockPath = QFile::encodeName(configPath + QStringLiteral(".lock"));
        const int fd = ::open(lockPath.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0)
            return fail(
                ErrorKind::ConfigUnwritable,
                QStringLiteral("Cannot open the config file's lock %1: %2. Check that its directory "
                               "is writable.")
                    .arg(QString::fromLocal8Bit(lockPath), QString::fromLocal8Bit(std::strerror(errno))));
        QElapsedTimer waited;
        waited.start();
        while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                const QString why = QString::fromLocal8Bit(std::strerror(errno));
                ::close(fd);
                return fail(ErrorKind::Lock, QStringLiteral("Cannot lock the config file: %1").arg(why));
            }
            if (waited.elapsed() >= waitMs) {
                ::close(fd);
                return fail(
                    ErrorKind::Locked,
                    QStringLiteral("Another program has been changing %1 for %2 s; nothing was changed. "
                                   "Try again, or see which process holds %1.lock (fuser).")
                        .arg(configPath)
                        .arg(waitMs / 1000.0));
            }
            ::usleep(2000);
        }
        return ConfigLock(fd);
    }
    ConfigLock(ConfigLock &&other) noexcept : m_fd(std::exchange(other.m_fd, -1)) { }
    ConfigLock(const ConfigLock &) = delete;
    ConfigLock &operator=(const ConfigLock &) = delete;
    ConfigLock &operator=(ConfigLock &&) = delete;
    ~ConfigLock()
    {
        if (m_fd >= 0)
            ::close(m_fd); // releases the flock
    }

private:
    explicit ConfigLock(int fd) : m_fd(fd) { }
    int m_fd;
};

} // namespace

Result<ConfigFile> ConfigFile::update(const QString &path, const std::function<bool(ConfigFile &)> &change,
                                      int lockWaitMs)
{
    auto lock = ConfigLock::take(path, lockWaitMs);
    if (!lock)
        return std::unexpected(lock.error());
    ConfigFile config = load(path);
    if (!config.warning().isEmpty()) // writing would lose what could not be read
        return fail(ErrorKind::Unreadable,
                    QStringLiteral("%1 Fix or remove %2, then try again (nothing was changed).")
                        .arg(config.warning(), path));
    if (!change(config))
        return config;
    if (auto saved = config.save(path); !saved)
        return std::unexpected(saved.error());
    return config;
}

} // namespace Broker
