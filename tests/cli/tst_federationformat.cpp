// The texts and small parsers of `claude-peers federation …` (docs/spec/peers-api.md §8, §6.11), without a
// broker.
#include "app/cli/federationformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
namespace FF = Cli::FederationFormat;

namespace {

Broker::FederationStatusAnswer statusOf(const char *json)
{
    auto answer =
        Broker::FederationStatusAnswer::fromJson(QJsonDocument::fromJson(QByteArray(json)).object());
    if (!answer)
        qFatal("bad fixture: %s", qPrintable(answer.error().message));
    return *answer;
}

} // namespace

class tst_FederationFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void statusDisabled()
    {
        const auto s =
            statusOf(R"({"enabled":false,"port":7900,"subnet":"","remotes":[],"total_remote_peers":0})");
        QCOMPARE(
            FF::status(s, QDateTime::currentDateTimeUtc()),
            QStringList({u"Federation is disabled. Set CLAUDE_PEERS_FEDERATION_ENABLED=true to enable."_s,
                         u"Or set it up: claude-peers federation init"_s}));
    }

    void statusEnabledWithoutRemotes()
    {
        const auto s = statusOf(R"({"enabled":true,"port":7901,"subnet":"10.0.0.0/8","remotes":[],
                                   "total_remote_peers":0})");
        QCOMPARE(FF::status(s, QDateTime::currentDateTimeUtc()),
                 QStringList({u"Federation enabled on port 7901. No remote machines connected."_s}));
    }

    void statusWithRemotesAsReference()
    {
        // docs/spec/peers-api.md §3.5's example, plus our fields.
        const auto s = statusOf(R"({"enabled":true,"port":7900,"subnet":"192.168.1.0/24",
            "remotes":[{"host":"192.168.1.42","port":7900,"hostname":"rafi-macbook","peer_count":2,
                        "connected_at":"2026-03-27T10:00:00.000Z","last_sync":"2026-03-27T12:29:30.000Z",
                        "rtt_ms":1.234,"rtt_smoothed_ms":0.9,"rtt_samples":5},
                       {"host":"192.168.1.43","port":7901,"hostname":"old","peer_count":0,
                        "connected_at":"2026-03-27T12:29:00.000Z","state":"reconnecting","legacy":true}],
            "total_remote_peers":2,"hostname":"here","fingerprint":"sha256-AAAA","psk_source":"local-token-copy",
            "warnings":["something to fix"],"pending":1})");
        const QDateTime now = QDateTime::fromString(u"2026-03-27T12:30:00.000Z"_s, Qt::ISODateWithMs);
        QCOMPARE(
            FF::status(s, now),
            QStringList({u"Federation enabled on port 7900 (subnet: 192.168.1.0/24)"_s, QString(),
                         u"Connected remotes (2):"_s,
                         u"  192.168.1.42:7900  hostname=rafi-macbook  peers=2  uptime=2h 30m  rtt=1.23 ms "
                         u"(avg 0.90 ms)"_s,
                         u"  192.168.1.43:7901  hostname=old  peers=0  uptime=1m  state=reconnecting  (0.7 "
                         u"protocol)"_s,
                         QString(), u"Total remote peers: 2"_s, u"This machine: here"_s,
                         u"Certificate fingerprint: sha256-AAAA"_s,
                         u"Pairing requests waiting: 1 (claude-peers federation pending)"_s,
                         u"Warning: something to fix"_s,
                         u"Warning: the federation PSK is still a copy of the local token (as in 0.7). Give "
                         u"federation its own secret: claude-peers federation rotate-psk"_s}));
    }

    void statusAnswerNeedsEnabled()
    {
        QVERIFY(!Broker::FederationStatusAnswer::fromJson(QJsonObject {{u"port"_s, 1}}));
        const auto s =
            statusOf(R"({"enabled":true,"subnets":["10.0.0.0/8","fd00::/8"],"subnet":"10.0.0.0/8"})");
        QCOMPARE(s.subnets, QStringList({u"10.0.0.0/8"_s, u"fd00::/8"_s}));
        QCOMPARE(s.port, 7900);
    }

    void pendingList()
    {
        QCOMPARE(FF::pending({}), QStringList({u"No pending pairing requests."_s}));
        auto p = Broker::FederationPendingAnswer::fromJson(
            QJsonDocument::fromJson(R"({"ok":true,"requests":[{"id":"r1","host":"10.0.0.2","port":7900,
                "hostname":"b","fingerprint":"sha256-BB","sas":"123-456","received_at":"2026-01-01T00:00:00.000Z"}]})")
                .object());
        QVERIFY(p);
        const QStringList lines = FF::pending(*p);
        QCOMPARE(lines.at(0), u"Pending pairing requests (1):"_s);
        QCOMPARE(lines.at(1), u"  r1  b (10.0.0.2:7900)  code 123-456"_s);
        QVERIFY(lines.last().contains(u"claude-peers federation accept <id>"_s));
        QVERIFY(!Broker::FederationPendingAnswer::fromJson(QJsonObject {{u"ok"_s, true}}));
        // The round trip the broker side writes.
        QCOMPARE(Broker::FederationPendingAnswer::fromJson(p->toJson())->requests.at(0).sas, u"123-456"_s);
        // Decided requests stay listed a while (for the tray), marked; state and origin round-trip.
        auto decided = Broker::FederationPendingAnswer::fromJson(
            QJsonDocument::fromJson(R"({"ok":true,"requests":[{"id":"r2","host":"10.0.0.3","port":7900,
                "hostname":"c","fingerprint":"sha256-CC","sas":"654321","state":"rejected","origin":"code"}]})")
                .object());
        QVERIFY(decided);
        QCOMPARE(FF::pending(*decided).at(1), u"  r2  c (10.0.0.3:7900)  code 654321  [rejected]"_s);
        const auto again = Broker::FederationPendingAnswer::fromJson(decided->toJson());
        QCOMPARE(again->requests.at(0).state, u"rejected"_s);
        QCOMPARE(again->requests.at(0).origin, u"code"_s);
    }

    void wireRequestsRoundTripAndRefuse()
    {
        Broker::FederationTokenRequest token {u"10.0.0.5"_s, true};
        QCOMPARE(token.toJson(), QJsonObject({{u"host"_s, u"10.0.0.5"_s}, {u"legacy"_s, true}}));
        QCOMPARE(Broker::FederationTokenRequest().toJson(), QJsonObject());
        QCOMPARE(Broker::FederationTokenRequest::fromJson(token.toJson())->host, u"10.0.0.5"_s);
        QVERIFY(!Broker::FederationTokenRequest::fromJson({{u"legacy"_s, u"yes"_s}}));
        QCOMPARE(Broker::FederationJoinRequest::fromJson({{u"url"_s, u"cpt://h:1/t"_s}})->url,
                 u"cpt://h:1/t"_s);
        QVERIFY(!Broker::FederationJoinRequest::fromJson({}));
        QVERIFY(!Broker::FederationJoinRequest::fromJson({{u"url"_s, QString(5000, u'x')}}));
        Broker::FederationInitRequest init {7901, {u"10.0.0.0/8"_s}};
        const auto back = Broker::FederationInitRequest::fromJson(init.toJson());
        QVERIFY(back);
        QCOMPARE(back->port, 7901);
        QCOMPARE(back->subnets, QStringList({u"10.0.0.0/8"_s}));
        QVERIFY(!Broker::FederationInitRequest::fromJson({{u"port"_s, 70000}}));
        QVERIFY(!Broker::FederationInitRequest::fromJson({{u"subnets"_s, QJsonArray({1})}}));
        QVERIFY(!Broker::FederationAcceptRequest::fromJson({}));
        // A token answer must carry a cpt:// URL when it says ok.
        QVERIFY(!Broker::FederationTokenAnswer::fromJson({{u"ok"_s, true}, {u"psk"_s, u"x"_s}}));
        const auto refused =
            Broker::FederationTokenAnswer::fromJson({{u"ok"_s, false}, {u"error"_s, u"no"_s}});
        QVERIFY(refused && !refused->ok);
        Broker::FederationDoctorAnswer doctor;
        doctor.checks.append({u"port"_s, u"fail"_s, u"taken"_s, u"free it"_s});
        QCOMPARE(Broker::FederationDoctorAnswer::fromJson(doctor.toJson())->checks.at(0).fix, u"free it"_s);
    }

    void hostPort_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("ipv4") << u"192.168.1.5:7900"_s << u"192.168.1.5"_s << 7900;
        QTest::newRow("name") << u"rafi-mac.local:1"_s << u"rafi-mac.local"_s << 1;
        QTest::newRow("ipv6 brackets") << u"[fe80::1]:7900"_s << u"fe80::1"_s << 7900;
        QTest::newRow("last colon") << u"fe80::1:7900"_s << u"fe80::1"_s << 7900;
        QTest::newRow("no port") << u"host"_s << QString() << 0;
        QTest::newRow("port 0") << u"host:0"_s << QString() << 0;
        QTest::newRow("port 65536") << u"host:65536"_s << QString() << 0;
        QTest::newRow("no host") << u":7900"_s << QString() << 0;
        QTest::newRow("junk port") << u"host:79x"_s << QString() << 0;
    }
    void hostPort()
    {
        QFETCH(QString, text);
        QFETCH(QString, host);
        QFETCH(int, port);
        const auto hp = FF::hostPort(text);
        QCOMPARE(bool(hp), port != 0);
        if (hp) {
            QCOMPARE(hp->host, host);
            QCOMPARE(hp->port, port);
        }
    }

    void joinTarget_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        const QString token =
            u"MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZg"_s;
        QTest::newRow("0.7 form") << u"cpt://192.168.1.5:7900/"_s + token << u"192.168.1.5"_s << 7900;
        QTest::newRow("with fp") << u"cpt://192.168.1.5:7900;fp=sha256-abc_-/"_s + token << u"192.168.1.5"_s
                                 << 7900;
        QTest::newRow("not cpt") << u"https://192.168.1.5:7900/"_s + token << QString() << 0;
        QTest::newRow("no token") << u"cpt://192.168.1.5:7900/"_s << QString() << 0;
        QTest::newRow("no port") << u"cpt://192.168.1.5/"_s + token << QString() << 0;
        QTest::newRow("empty") << QString() << QString() << 0;
    }
    void joinTarget()
    {
        QFETCH(QString, url);
        QFETCH(QString, host);
        QFETCH(int, port);
        const auto hp = FF::joinTarget(url);
        QCOMPARE(bool(hp), port != 0);
        if (hp) {
            QCOMPARE(hp->host, host);
            QCOMPARE(hp->port, port);
        }
    }

    void cidr_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        // docs/spec/peers-api.md §6.6's tested cases, and IPv6.
        for (const char *ok : {"192.168.1.0/24", "10.0.0.0/16", "172.30.240.0/20", "10.1.2.3/32", "0.0.0.0/0",
                               "fd00::/8", "::/0", "fe80::1/128"})
            QTest::newRow(ok) << QString::fromLatin1(ok) << true;
        for (const char *bad : {"10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0", "10.0.0.256/8", "10.0.0/8",
                                "host/8", "fd00::/129", "1::2::3/64", "/8", "10.0.0.0/x"})
            QTest::newRow(bad) << QString::fromLatin1(bad) << false;
    }
    void cidr()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(FF::isCidr(text), valid);
    }

    void attemptsList()
    {
        QCOMPARE(FF::attempts({}).size(), 1);
        QVERIFY(FF::attempts({}).first().startsWith(u"No refused"_s));
        const QJsonObject answer = QJsonDocument::fromJson(R"({"attempts":[
            {"kind":"refused","address":"10.0.0.9","hostname":"mallory","fingerprint":"sha256-m",
             "path":"/federation/pair/request","status":403,"reason":"wrong code",
             "first_at":"2026-12-01T05:00:00.000Z","last_at":"2026-12-01T05:01:00.000Z","count":3}],
            "revoked":[{"address":"10.0.0.2:7900","hostname":"beta","fingerprint":"sha256-b",
             "revoked_at":"2026-12-01T04:00:00.000Z"}],
            "ignored":[{"fingerprint":"sha256-i","hostname":"stranger","address":"10.0.0.7:7900",
             "ignored_at":"2026-12-01T03:00:00.000Z"}]})")
                                       .object();
        const QStringList lines = FF::attempts(answer);
        const QString text = lines.join(u'\n');
        QVERIFY2(lines.at(1).contains(u"refused  10.0.0.9 (mallory)  x3"_s), qPrintable(text));
        QVERIFY2(text.contains(u"403 /federation/pair/request: wrong code"_s), qPrintable(text));
        QVERIFY2(text.contains(u"fingerprint sha256-m"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Revoked"_s) && text.contains(u"10.0.0.2:7900  beta  sha256-b"_s),
                 qPrintable(text));
        QVERIFY2(text.contains(u"Ignored"_s) && text.contains(u"sha256-i  stranger  10.0.0.7:7900"_s) &&
                     text.contains(u"federation unignore <fingerprint>"_s),
                 qPrintable(text));
    }

    void doctorLines()
    {
        using Level = FF::Check::Level;
        QCOMPARE(FF::checkLines({Level::Ok, u"Config: x"_s, {}}), QStringList({u"  OK   Config: x"_s}));
        QCOMPARE(FF::checkLines({Level::Fail, u"Port 7900 is taken"_s, u"choose another"_s}),
                 QStringList({u"  FAIL Port 7900 is taken"_s, u"       Fix: choose another"_s}));
        QCOMPARE(FF::checkLines({Level::Warn, u"w"_s, {}}), QStringList({u"  WARN w"_s}));
        QCOMPARE(
            FF::doctorSummary(
                {{Level::Ok, {}, {}}, {Level::Ok, {}, {}}, {Level::Fail, {}, {}}, {Level::Warn, {}, {}}}),
            u"2 passed, 1 failed, 1 warning(s)"_s);
    }
};

QTEST_GUILESS_MAIN(tst_FederationFormat)
#include "tst_federationformat.moc"
