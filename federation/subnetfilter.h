#pragma once

#include <QHostAddress>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <expected>

namespace Federation {

struct Subnet
{
    QHostAddress network; // host bits cleared
    int prefixLength = 0;

    QString toString() const; // "192.168.1.0/24", "fd00::/64"
    friend bool operator==(const Subnet &, const Subnet &) = default;
};

struct SubnetError
{
    enum class Kind {
        Empty, // no entry at all, or a blank entry
        MissingPrefix, // "192.168.1.0": 0.7 rejects everything then, we ask for the /n
        BadPrefix, // not digits, or above 32 (IPv4) / 128 (IPv6), or negative
        BadAddress, // not a full IPv4 (a.b.c.d) or IPv6 address
    };
    Kind kind = Kind::Empty;
    QString entry; // the offending entry, as given
    QString message; // plain words, naming the entry and a valid example
};

// Which source addresses may talk to the federation port (docs/spec/peers-api.md §6.6, §4.1 step 1),
// over IPv4 and IPv6. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack listener
// reports) is checked as the IPv4 address. An empty filter allows nothing; "allow all" is
// 0.0.0.0/0 and ::/0.
class SubnetFilter
{
public:
    // Every entry "address/prefix"; the first bad one is the error.
    static std::expected<SubnetFilter, SubnetError> parse(const QStringList &entries);
    static std::expected<Subnet, SubnetError> parseEntry(const QString &entry);
    static SubnetFilter allowAll();

    // The local networks (docs/spec/peers-api.md §6.6 auto-detect). 0.7 asks `ip route` for the
    // default route's interface; we take every up, running, non-loopback interface from
    // QNetworkInterface, IPv4 and IPv6 (docs/decisions.md). WSL2 (WSL_DISTRO_NAME set, or the
    // WSLInterop binfmt entry) allows all as 0.7 does: its NAT hides the real sources. No address
    // found: allow all, as 0.7.
    static SubnetFilter
    detectLocal(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());
    struct InterfaceAddress
    {
        QHostAddress ip;
        int prefixLength = -1;
    };
    static SubnetFilter fromInterfaceAddresses(const QList<InterfaceAddress> &addresses);

    bool allows(const QHostAddress &address) const;
    const QList<Subnet> &subnets() const { return m_subnets; }
    QStringList toStringList() const;

    // 0.7's 403 text: "Connection rejected: <ip> is outside allowed subnet <cidr>. Update …".
    QString rejectionMessage(const QHostAddress &peer) const;

    // ::ffff:a.b.c.d → a.b.c.d; any other address as it is.
    static QHostAddress unmapped(const QHostAddress &address);

    friend bool operator==(const SubnetFilter &, const SubnetFilter &) = default;

private:
    QList<Subnet> m_subnets;
};

} // namespace Federation
