// The federation port's source filter (docs/spec/peers-api.md §6.6, docs/spec/federation-security.md §6):
// 0.7's cases, IPv6, IPv4-mapped sources, and every bad entry named in its error.
#include "federation/subnetfilter.h"

#include <QNetworkInterface>
#include <QTest>

using namespace Federation;
using Kind = SubnetError::Kind;

namespace {

SubnetFilter filterOf(const QStringList &entries)
{
    auto filter = SubnetFilter::parse(entries);
    if (!filter)
        qFatal("bad test subnet: %s", qPrintable(filter.error().message));
    return *filter;
}

} // namespace

class tst_SubnetFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void allows_data()
    {
        QTest::addColumn<QString>("subnet");
        QTest::addColumn<QString>("address");
        QTest::addColumn<bool>("allowed");
        // 0.7's tested cases (docs/spec/peers-api.md §6.6).
        QTest::newRow("/24 inside") << QStringLiteral("192.168.1.0/24") << QStringLiteral("192.168.1.5")
                                    << true;
        QTest::newRow("/24 outside") << QStringLiteral("192.168.1.0/24") << QStringLiteral("192.168.2.5")
                                     << false;
        QTest::newRow("/16 inside") << QStringLiteral("10.0.0.0/16") << QStringLiteral("10.0.255.1") << true;
        QTest::newRow("/16 outside") << QStringLiteral("10.0.0.0/16") << QStringLiteral("10.1.0.1") << false;
        QTest::newRow("/20 inside") << QStringLiteral("172.30.240.0/20") << QStringLiteral("172.30.249.174")
                                    << true;
        QTest::newRow("/20 top") << QStringLiteral("172.30.240.0/20") << QStringLiteral("172.30.255.255")
                                 << true;
        QTest::newRow("/20 below") << QStringLiteral("172.30.240.0/20") << QStringLiteral("172.30.239.255")
                                   << false;
        QTest::newRow("/32 same") << QStringLiteral("192.168.1.5/32") << QStringLiteral("192.168.1.5")
                                  << true;
        QTest::newRow("/32 neighbour")
            << QStringLiteral("192.168.1.5/32") << QStringLiteral("192.168.1.6") << false;
        QTest::newRow("/0 any ipv4") << QStringLiteral("0.0.0.0/0") << QStringLiteral("8.8.8.8") << true;
        // Host bits in the entry are cleared, as 0.7's mask does.
        QTest::newRow("host bits") << QStringLiteral("192.168.1.77/24") << QStringLiteral("192.168.1.200")
                                   << true;
        // A dual-stack listener reports IPv4 clients as ::ffff:a.b.c.d.
        QTest::newRow("mapped inside")
            << QStringLiteral("192.168.1.0/24") << QStringLiteral("::ffff:192.168.1.5") << true;
        QTest::newRow("mapped outside")
            << QStringLiteral("192.168.1.0/24") << QStringLiteral("::ffff:192.168.2.5") << false;
        QTest::newRow("mapped in /0")
            << QStringLiteral("0.0.0.0/0") << QStringLiteral("::ffff:10.0.0.1") << true;
        QTest::newRow("mapped subnet entry")
            << QStringLiteral("::ffff:10.0.0.0/104") << QStringLiteral("10.9.9.9") << true;
        // IPv6.
        QTest::newRow("ula inside") << QStringLiteral("fd12:3456::/48") << QStringLiteral("fd12:3456::9")
                                    << true;
        QTest::newRow("ula outside") << QStringLiteral("fd12:3456::/48") << QStringLiteral("2001:db8::1")
                                     << false;
        QTest::newRow("link-local with scope")
            << QStringLiteral("fe80::/10") << QStringLiteral("fe80::1%eth0") << true;
        QTest::newRow("::/0 any ipv6") << QStringLiteral("::/0") << QStringLiteral("2001:db8::1") << true;
        QTest::newRow("/128") << QStringLiteral("2001:db8::1/128") << QStringLiteral("2001:db8::2") << false;
        // Families never mix: 0.7 let any IPv6 source through 0.0.0.0/0 (its parser read it as 0).
        QTest::newRow("ipv6 not in 0.0.0.0/0")
            << QStringLiteral("0.0.0.0/0") << QStringLiteral("2001:db8::1") << false;
        QTest::newRow("ipv4 not in ::/0") << QStringLiteral("::/0") << QStringLiteral("192.168.1.5") << false;
        QTest::newRow("ipv6 loopback not in 0.0.0.0/0")
            << QStringLiteral("0.0.0.0/0") << QStringLiteral("::1") << false;
        QTest::newRow("no address") << QStringLiteral("0.0.0.0/0") << QString() << false;
        // Only ::ffff: is mapped (fuzz finding): ::1, :: and the deprecated ::a.b.c.d are IPv6.
        QTest::newRow("::1 is not 127.0.0.1")
            << QStringLiteral("127.0.0.0/8") << QStringLiteral("::1") << false;
        QTest::newRow(":: is not 0.0.0.0") << QStringLiteral("0.0.0.0/0") << QStringLiteral("::") << false;
        QTest::newRow("compatible is not mapped")
            << QStringLiteral("10.0.0.0/8") << QStringLiteral("::10.0.0.1") << false;
        QTest::newRow("compatible subnet stays ipv6")
            << QStringLiteral("::ff/104") << QStringLiteral("0.0.0.255") << false;
    }

    void allows()
    {
        QFETCH(QString, subnet);
        QFETCH(QString, address);
        QFETCH(bool, allowed);
        QCOMPARE(filterOf({subnet}).allows(QHostAddress(address)), allowed);
    }

    void refusesBadEntries_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<Kind>("kind");
        QTest::newRow("/33") << QStringLiteral("192.168.1.0/33") << Kind::BadPrefix;
        QTest::newRow("/-1") << QStringLiteral("192.168.1.0/-1") << Kind::BadPrefix;
        QTest::newRow("/129") << QStringLiteral("fd00::/129") << Kind::BadPrefix;
        QTest::newRow("empty prefix") << QStringLiteral("192.168.1.0/") << Kind::BadPrefix;
        QTest::newRow("prefix with junk") << QStringLiteral("192.168.1.0/24x") << Kind::BadPrefix;
        QTest::newRow("netmask") << QStringLiteral("192.168.1.0/255.255.255.0") << Kind::BadPrefix;
        QTest::newRow("plus prefix") << QStringLiteral("192.168.1.0/+24") << Kind::BadPrefix;
        QTest::newRow("huge prefix") << QStringLiteral("192.168.1.0/99999999999") << Kind::BadPrefix;
        QTest::newRow("no prefix") << QStringLiteral("192.168.1.0") << Kind::MissingPrefix;
        QTest::newRow("three octets") << QStringLiteral("192.168.1/24") << Kind::BadAddress;
        QTest::newRow("octet over 255") << QStringLiteral("300.1.1.1/8") << Kind::BadAddress;
        QTest::newRow("word") << QStringLiteral("lan/24") << Kind::BadAddress;
        QTest::newRow("no address") << QStringLiteral("/24") << Kind::BadAddress;
        QTest::newRow("bad ipv6") << QStringLiteral("fd00:::1/64") << Kind::BadAddress;
        QTest::newRow("zone") << QStringLiteral("fe80::%eth0/10") << Kind::BadAddress;
        QTest::newRow("nul in address") << QString::fromLatin1("::ff\0\0/104", 10) << Kind::BadAddress;
        QTest::newRow("hex ipv4") << QStringLiteral("0xC0.168.1.0/24") << Kind::BadAddress;
        QTest::newRow("blank") << QStringLiteral("  ") << Kind::Empty;
    }

    void refusesBadEntries()
    {
        QFETCH(QString, entry);
        QFETCH(Kind, kind);
        const auto result = SubnetFilter::parse({QStringLiteral("10.0.0.0/8"), entry});
        QVERIFY(!result);
        QCOMPARE(result.error().kind, kind);
        QCOMPARE(result.error().entry, entry);
        QVERIFY2(result.error().message.contains(u'"' + entry + u'"'), qPrintable(result.error().message));
    }

    void emptyListIsAnError()
    {
        const auto result = SubnetFilter::parse({});
        QVERIFY(!result);
        QCOMPARE(result.error().kind, Kind::Empty);
        QVERIFY(result.error().message.contains(QStringLiteral("0.0.0.0/0")));
        // An empty filter (default-constructed) allows nothing.
        QVERIFY(!SubnetFilter().allows(QHostAddress(QStringLiteral("192.168.1.5"))));
    }

    void normalizesEntries()
    {
        const SubnetFilter filter =
            filterOf({QStringLiteral(" 192.168.1.77/24 "), QStringLiteral("FD00:0::1/64"),
                      QStringLiteral("::ffff:10.1.2.3/104"), QStringLiteral("192.168.1.0/24")});
        QCOMPARE(filter.toStringList(),
                 QStringList({QStringLiteral("192.168.1.0/24"), QStringLiteral("fd00::/64"),
                              QStringLiteral("10.0.0.0/8")}));
    }

    void severalSubnets()
    {
        const SubnetFilter filter = filterOf({QStringLiteral("192.168.1.0/24"), QStringLiteral("fd00::/64")});
        QVERIFY(filter.allows(QHostAddress(QStringLiteral("192.168.1.9"))));
        QVERIFY(filter.allows(QHostAddress(QStringLiteral("fd00::9"))));
        QVERIFY(!filter.allows(QHostAddress(QStringLiteral("10.0.0.1"))));
        QVERIFY(!filter.allows(QHostAddress(QStringLiteral("fd01::9"))));
    }

    void allowAllCoversBothFamilies()
    {
        const SubnetFilter all = SubnetFilter::allowAll();
        QCOMPARE(all.toStringList(), QStringList({QStringLiteral("0.0.0.0/0"), QStringLiteral("::/0")}));
        for (const char *address : {"1.2.3.4", "::ffff:1.2.3.4", "2001:db8::1", "::1", "127.0.0.1"})
            QVERIFY2(all.allows(QHostAddress(QString::fromLatin1(address))), address);
    }

    void rejectionMessageIs07s()
    {
        const SubnetFilter filter = filterOf({QStringLiteral("192.168.1.0/24")});
        QCOMPARE(
            filter.rejectionMessage(QHostAddress(QStringLiteral("::ffff:10.1.1.1"))),
            QStringLiteral("Connection rejected: 10.1.1.1 is outside allowed subnet 192.168.1.0/24. Update "
                           "CLAUDE_PEERS_FEDERATION_SUBNET or config file."));
    }

    void interfaceAddressesBecomeSubnets()
    {
        const SubnetFilter filter = SubnetFilter::fromInterfaceAddresses({
            {QHostAddress(QStringLiteral("192.168.1.77")), 24},
            {QHostAddress(QStringLiteral("fe80::1c2:3ff:fe04:506%eth0")), 64},
            {QHostAddress(QStringLiteral("192.168.1.78")), 24}, // the same net again
            {QHostAddress(QStringLiteral("127.0.0.1")), 8}, // loopback: never
            {QHostAddress(QStringLiteral("::1")), 128},
            {QHostAddress(QStringLiteral("10.0.0.5")), -1}, // unknown prefix
            {QHostAddress(QStringLiteral("10.0.0.6")), 40}, // impossible prefix
            {QHostAddress(), 24},
        });
        QCOMPARE(filter.toStringList(),
                 QStringList({QStringLiteral("192.168.1.0/24"), QStringLiteral("fe80::/64")}));
    }

    void detectsWslAsAllowAll()
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("WSL_DISTRO_NAME"), QStringLiteral("Ubuntu"));
        QCOMPARE(SubnetFilter::detectLocal(environment), SubnetFilter::allowAll());
    }

    void detectedFilterAllowsThisMachinesNetworks()
    {
        const SubnetFilter filter = SubnetFilter::detectLocal(QProcessEnvironment());
        QVERIFY(!filter.subnets().isEmpty());
        int checked = 0;
        for (const QNetworkInterface &interface : QNetworkInterface::allInterfaces()) {
            const auto flags = interface.flags();
            if (!flags.testFlag(QNetworkInterface::IsUp) || !flags.testFlag(QNetworkInterface::IsRunning) ||
                flags.testFlag(QNetworkInterface::IsLoopBack))
                continue;
            for (const QNetworkAddressEntry &entry : interface.addressEntries()) {
                if (entry.prefixLength() < 0)
                    continue;
                QVERIFY2(filter.allows(entry.ip()), qPrintable(entry.ip().toString()));
                ++checked;
            }
        }
        if (checked == 0) // no network at all here: detection falls back to allowing all, as 0.7
            QCOMPARE(filter, SubnetFilter::allowAll());
    }
};

QTEST_GUILESS_MAIN(tst_SubnetFilter)
#include "tst_subnetfilter.moc"
