#include "common/configsettings.h"

#include <QRegularExpression>
#include <QUrl>

namespace Broker::ConfigSettings {

namespace {

const Key kKeys[] = {
    {"federation.port", "The port other machines' brokers connect to (1-65535; default 7900)",
     Applies::OnReload},
    {"federation.subnets",
     "The networks allowed to connect to the federation port, comma-separated (e.g. 192.168.1.0/24, "
     "fd00::/64)",
     Applies::OnReload},
    {"openchamber.opencode_url",
     "The OpenCode server the control service drives (http(s)://host:port; default http://127.0.0.1:4096)",
     Applies::OnRestart},
};

Error usage(const QString &message)
{
    return Error {ErrorKind::Usage, message};
}

QStringList splitList(const QString &value)
{
    QStringList out;
    for (const QString &part : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString trimmed = part.trimmed();
        if (!trimmed.isEmpty())
            out << trimmed;
    }
    return out;
}

void removeKey(ConfigFile &config, const QString &object, const QString &key)
{
    QJsonObject root = config.root();
    QJsonObject o = root.value(object).toObject();
    o.remove(key);
    root.insert(object, o);
    config.setRoot(root);
}

} // namespace

QList<Key> keys()
{
    return QList<Key>(std::begin(kKeys), std::end(kKeys));
}

const Key *find(const QString &name)
{
    for (const Key &key : kKeys) {
        if (name == QLatin1String(key.name))
            return &key;
    }
    return nullptr;
}

QString get(const ConfigFile &config, const Key &key)
{
    const QString name = QLatin1String(key.name);
    if (name == u"federation.port") {
        const auto port = config.federationPort();
        return port ? QString::number(*port) : QString();
    }
    if (name == u"federation.subnets")
        return config.federationSubnets().join(QStringLiteral(", "));
    if (name == u"openchamber.opencode_url")
        return config.root()
            .value(QStringLiteral("openchamber"))
            .toObject()
            .value(QStringLiteral("opencode_url"))
            .toString();
    return {};
}

Result<void> checkSubnet(const QString &entry)
{
    const qsizetype slash = entry.indexOf(QLatin1Char('/'));
    if (slash < 0)
        return std::unexpected(usage(
            QStringLiteral("\"%1\" has no /prefix: write it as a network, e.g. 192.168.1.0/24").arg(entry)));
    const QString address = entry.left(slash);
    const QString prefixText = entry.mid(slash + 1);
    static const QRegularExpression digits(QStringLiteral("^\\d{1,3}$"));
    if (!digits.match(prefixText).hasMatch())
        return std::unexpected(usage(
            QStringLiteral("\"%1\": the prefix after / must be a number, e.g. 192.168.1.0/24").arg(entry)));
    const int prefix = prefixText.toInt();
    static const QRegularExpression ipv4(
        QStringLiteral("^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})$"));
    if (const QRegularExpressionMatch m = ipv4.match(address); m.hasMatch()) {
        for (int i = 1; i <= 4; ++i) {
            if (m.captured(i).toInt() > 255)
                return std::unexpected(usage(
                    QStringLiteral("\"%1\" is not an IPv4 address (each part is 0-255), e.g. 192.168.1.0/24")
                        .arg(entry)));
        }
        if (prefix > 32)
            return std::unexpected(usage(QStringLiteral("\"%1\": an IPv4 prefix is at most 32").arg(entry)));
        return {};
    }
    static const QRegularExpression ipv6(QStringLiteral("^[0-9A-Fa-f:.]+$"));
    if (address.contains(QLatin1Char(':')) && ipv6.match(address).hasMatch() &&
        address.count(QStringLiteral("::")) <= 1) {
        if (prefix > 128)
            return std::unexpected(usage(QStringLiteral("\"%1\": an IPv6 prefix is at most 128").arg(entry)));
        return {};
    }
    return std::unexpected(
        usage(QStringLiteral("\"%1\" is not an IPv4 or IPv6 network, e.g. 192.168.1.0/24 or fd00::/64")
                  .arg(entry)));
}

Result<void> set(ConfigFile &config, const Key &key, const QString &rawValue)
{
    const QString name = QLatin1String(key.name);
    const QString value = rawValue.trimmed();
    if (name == u"federation.port") {
        if (value.isEmpty()) {
            removeKey(config, QStringLiteral("federation"), QStringLiteral("port"));
            return {};
        }
        bool ok = false;
        const int port = value.toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return std::unexpected(
                usage(QStringLiteral(
                          "federation.port must be a whole number from 1 to 65535 (got \"%1\"), e.g. 7900")
                          .arg(value)));
        config.setFederationPort(port);
        return {};
    }
    if (name == u"federation.subnets") {
        const QStringList subnets = splitList(value);
        if (subnets.isEmpty()) {
            removeKey(config, QStringLiteral("federation"), QStringLiteral("subnets"));
            removeKey(config, QStringLiteral("federation"), QStringLiteral("subnet"));
            return {};
        }
        for (const QString &subnet : subnets) {
            if (auto checked = checkSubnet(subnet); !checked)
                return std::unexpected(
                    usage(QStringLiteral("federation.subnets: ") + checked.error().message));
        }
        config.setFederationSubnets(subnets);
        return {};
    }
    if (name == u"openchamber.opencode_url") {
        if (value.isEmpty()) {
            removeKey(config, QStringLiteral("openchamber"), QStringLiteral("opencode_url"));
            return {};
        }
        const QUrl url(value, QUrl::StrictMode);
        const bool web = url.scheme() == u"http" || url.scheme() == u"https";
        if (!url.isValid() || !web || url.host().isEmpty())
            return std::unexpected(
                usage(QStringLiteral("openchamber.opencode_url must be an http(s) URL with a host (got "
                                     "\"%1\"), e.g. http://127.0.0.1:4096")
                          .arg(value)));
        QJsonObject root = config.root();
        QJsonObject openchamber = root.value(QStringLiteral("openchamber")).toObject();
        openchamber.insert(QStringLiteral("opencode_url"), value);
        root.insert(QStringLiteral("openchamber"), openchamber);
        config.setRoot(root);
        return {};
    }
    return std::unexpected(usage(QStringLiteral("Unknown setting: %1").arg(name)));
}

Result<void> setInFile(const QString &path, const QString &name, const QString &value)
{
    const Key *key = find(name);
    if (!key) {
        QStringList names;
        for (const Key &k : kKeys)
            names << QLatin1String(k.name);
        return std::unexpected(usage(QStringLiteral("Unknown setting: %1 (settable: %2)")
                                         .arg(name, names.join(QStringLiteral(", ")))));
    }
    Result<void> done;
    const auto saved = ConfigFile::update(path, [&](ConfigFile &config) {
        done = set(config, *key, value);
        return bool(done);
    });
    if (!saved)
        return std::unexpected(saved.error());
    return done;
}

} // namespace Broker::ConfigSettings
