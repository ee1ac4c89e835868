#include "federation/subnetfilter.h"

#include "federation/federationlogging.h"

#include <QFileInfo>
#include <QNetworkInterface>

namespace Federation {

namespace {

using Kind = SubnetError::Kind;

std::unexpected<SubnetError> fail(Kind kind, const QString &entry, const QString &what)
{
    return std::unexpected(SubnetError {
        kind, entry,
        QStringLiteral("Subnet \"%1\" %2: write address/prefix, e.g. 192.168.1.0/24 or fd00::/64")
            .arg(entry, what)});
}

bool isDottedQuad(QStringView text)
{
    const auto parts = text.split(u'.');
    if (parts.size() != 4)
        return false;
    for (const QStringView part : parts) {
        if (part.isEmpty() || part.size() > 3)
            return false;
        for (const QChar c : part) {
            if (c < u'0' || c > u'9')
                return false;
        }
        if (part.toInt() > 255)
            return false;
    }
    return true;
}

// Hex digits, ':' and '.' (a zone such as %eth0 means nothing in a subnet).
bool isIPv6Text(QStringView text)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (!((u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F') || u == u':' ||
              u == u'.'))
            return false;
    }
    return true;
}

Subnet normalizedSubnet(const QHostAddress &address, int prefixLength)
{
    QHostAddress network = address;
    network.setScopeId(QString());
    // QHostAddress::parseSubnet clears the host bits; feed it the checked parts.
    const auto parsed = QHostAddress::parseSubnet(network.toString() + u'/' + QString::number(prefixLength));
    return Subnet {parsed.first, parsed.second};
}

} // namespace

QString Subnet::toString() const
{
    return network.toString() + u'/' + QString::number(prefixLength);
}

std::expected<Subnet, SubnetError> SubnetFilter::parseEntry(const QString &entry)
{
    const QString text = entry.trimmed();
    if (text.isEmpty())
        return fail(Kind::Empty, entry, QStringLiteral("is blank"));
    const qsizetype slash = text.indexOf(u'/');
    if (slash < 0)
        return fail(Kind::MissingPrefix, entry, QStringLiteral("has no /prefix"));
    const QStringView addressText = QStringView(text).first(slash);
    const QStringView prefixText = QStringView(text).sliced(slash + 1);

    QHostAddress address;
    const bool looksIPv6 = addressText.contains(u':');
    if (!(looksIPv6 ? isIPv6Text(addressText) : isDottedQuad(addressText)) ||
        !address.setAddress(addressText.toString()))
        return fail(Kind::BadAddress, entry, QStringLiteral("does not start with an IPv4 or IPv6 address"));

    bool ok = !prefixText.isEmpty() && prefixText.size() <= 3;
    for (const QChar c : prefixText)
        ok = ok && c >= u'0' && c <= u'9';
    const int prefixLength = ok ? prefixText.toInt() : -1;
    const int maxPrefix = address.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128;
    if (!ok || prefixLength > maxPrefix)
        return fail(Kind::BadPrefix, entry, QStringLiteral("needs a prefix from 0 to %1").arg(maxPrefix));

    // ::ffff:a.b.c.d/n (n ≥ 96) is the IPv4 net a.b.c.d/(n-96): sources are compared unmapped.
    const QHostAddress v4 = unmapped(address);
    if (v4.protocol() == QAbstractSocket::IPv4Protocol &&
        address.protocol() == QAbstractSocket::IPv6Protocol && prefixLength >= 96)
        return normalizedSubnet(v4, prefixLength - 96);
    return normalizedSubnet(address, prefixLength);
}

std::expected<SubnetFilter, SubnetError> SubnetFilter::parse(const QStringList &entries)
{
    if (entries.isEmpty())
        return std::unexpected(SubnetError {
            Kind::Empty, QString(),
            QStringLiteral("No subnet given: name the networks allowed to connect (e.g. 192.168.1.0/24), or "
                           "0.0.0.0/0 and ::/0 to allow all")});
    SubnetFilter filter;
    for (const QString &entry : entries) {
        auto subnet = parseEntry(entry);
        if (!subnet)
            return std::unexpected(subnet.error());
        if (!filter.m_subnets.contains(*subnet))
            filter.m_subnets.append(*subnet);
    }
    return filter;
}

SubnetFilter SubnetFilter::allowAll()
{
    SubnetFilter filter;
    filter.m_subnets = {Subnet {QHostAddress(QHostAddress::AnyIPv4), 0},
                        Subnet {QHostAddress(QHostAddress::AnyIPv6), 0}};
    return filter;
}

SubnetFilter SubnetFilter::fromInterfaceAddresses(const QList<InterfaceAddress> &addresses)
{
    SubnetFilter filter;
    for (const InterfaceAddress &entry : addresses) {
        const QHostAddress ip = unmapped(entry.ip);
        const int maxPrefix = ip.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128;
        if (ip.isNull() || ip.isLoopback() || entry.prefixLength < 0 || entry.prefixLength > maxPrefix)
            continue;
        const Subnet subnet = normalizedSubnet(ip, entry.prefixLength);
        if (!filter.m_subnets.contains(subnet))
            filter.m_subnets.append(subnet);
    }
    return filter;
}

SubnetFilter SubnetFilter::detectLocal(const QProcessEnvironment &environment)
{
    if (environment.contains(QStringLiteral("WSL_DISTRO_NAME")) ||
        QFileInfo::exists(QStringLiteral("/proc/sys/fs/binfmt_misc/WSLInterop"))) {
        qCInfo(lcFederation) << "WSL2: the federation port accepts every source address (its NAT hides them)";
        return allowAll();
    }
    QList<InterfaceAddress> addresses;
    const auto interfaces = QNetworkInterface::allInterfaces();
    for (const QNetworkInterface &interface : interfaces) {
        const auto flags = interface.flags();
        if (!flags.testFlag(QNetworkInterface::IsUp) || !flags.testFlag(QNetworkInterface::IsRunning) ||
            flags.testFlag(QNetworkInterface::IsLoopBack))
            continue;
        for (const QNetworkAddressEntry &entry : interface.addressEntries())
            addresses.append({entry.ip(), entry.prefixLength()});
    }
    SubnetFilter filter = fromInterfaceAddresses(addresses);
    if (filter.m_subnets.isEmpty()) {
        qCWarning(lcFederation) << "No local network found for the federation subnet filter: allowing every "
                                   "source, as claude-peers 0.7 does; set federation.subnets to restrict it";
        return allowAll();
    }
    return filter;
}

QHostAddress SubnetFilter::unmapped(const QHostAddress &address)
{
    // Only ::ffff:a.b.c.d. QHostAddress::toIPv4Address() would also turn ::1, :: and the
    // deprecated ::a.b.c.d into IPv4 addresses, which are other sources.
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return address;
    const Q_IPV6ADDR bytes = address.toIPv6Address();
    for (int i = 0; i < 10; ++i) {
        if (bytes[i] != 0)
            return address;
    }
    if (bytes[10] != 0xff || bytes[11] != 0xff)
        return address;
    return QHostAddress((quint32(bytes[12]) << 24) | (quint32(bytes[13]) << 16) | (quint32(bytes[14]) << 8) |
                        bytes[15]);
}

bool SubnetFilter::allows(const QHostAddress &address) const
{
    const QHostAddress source = unmapped(address);
    if (source.isNull())
        return false;
    for (const Subnet &subnet : m_subnets) {
        if (source.isInSubnet(subnet.network, subnet.prefixLength))
            return true;
    }
    return false;
}

QStringList SubnetFilter::toStringList() const
{
    QStringList list;
    for (const Subnet &subnet : m_subnets)
        list.append(subnet.toString());
    return list;
}

QString SubnetFilter::rejectionMessage(const QHostAddress &peer) const
{
    return QStringLiteral("Connection rejected: %1 is outside allowed subnet %2. Update "
                          "CLAUDE_PEERS_FEDERATION_SUBNET or config file.")
        .arg(unmapped(peer).toString(), toStringList().join(QStringLiteral(", ")));
}

} // namespace Federation
