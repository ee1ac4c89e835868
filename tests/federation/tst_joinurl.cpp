// `cpt://` join URLs (docs/spec/peers-api.md §6.11, docs/spec/federation-security.md §1.6): our form with
// ";fp=", 0.7's form, IPv6 in brackets, every malformed part refused with its own kind, and
// 0.7's own parsing algorithm applied to what we emit.
#include "federation/certificatepin.h"
#include "federation/joinurl.h"

#include <QCryptographicHash>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace Federation;
using Kind = JoinUrlError::Kind;

namespace {

const QByteArray token =
    QByteArrayLiteral("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
const QString tokenB64 =
    QStringLiteral("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZg");

QString pin(const char *seed = "key")
{
    return QStringLiteral("sha256-") +
        QString::fromLatin1(QCryptographicHash::hash(seed, QCryptographicHash::Sha256)
                                .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

// Node's Buffer.from(x, "base64url"): characters outside the alphabet are skipped, decoding
// stops at the first '='.
QByteArray nodeBase64UrlDecode(QStringView text)
{
    QByteArray clean;
    for (const QChar c : text) {
        if (c == u'=')
            break;
        const char16_t u = c.unicode();
        if ((u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'-' ||
            u == u'_')
            clean.append(char(u));
    }
    return QByteArray::fromBase64(clean, QByteArray::Base64UrlEncoding);
}

// ECMAScript parseInt(s, 10) for what a port can hold: leading blanks, digits until the first
// other character; -1 for NaN.
int parseInt(QStringView s)
{
    s = s.trimmed();
    qsizetype n = 0;
    while (n < s.size() && s[n] >= u'0' && s[n] <= u'9')
        ++n;
    return n == 0 ? -1 : s.first(n).toInt();
}

struct ReferenceJoin
{
    bool ok = false;
    QString host;
    int port = -1;
    QByteArray token;
};

// 0.7's federationJoin parsing (docs/spec/peers-api.md §6.11): starts with cpt://; host:port ends
// at the first '/' after the first ':'; host/port split at the last ':'; the remainder is the token.
ReferenceJoin referenceParse(const QString &url)
{
    ReferenceJoin r;
    if (!url.startsWith(QStringLiteral("cpt://")))
        return r;
    const QString rest = url.mid(6);
    const qsizetype colon = rest.indexOf(u':');
    const qsizetype slash = rest.indexOf(u'/', colon);
    if (colon < 0 || slash < 0)
        return r;
    const QString hostPort = rest.left(slash);
    const qsizetype last = hostPort.lastIndexOf(u':');
    r.host = hostPort.left(last);
    r.port = parseInt(QStringView(hostPort).sliced(last + 1));
    r.token = nodeBase64UrlDecode(QStringView(rest).sliced(slash + 1));
    r.ok = true;
    return r;
}

} // namespace

class tst_JoinUrl : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void specVector()
    {
        const QString url = formatJoinUrl({QStringLiteral("192.168.1.5"), 7900, token, {}});
        QCOMPARE(url, QStringLiteral("cpt://192.168.1.5:7900/") + tokenB64);
        const auto parsed = parseJoinUrl(url);
        QVERIFY(parsed.has_value());
        QCOMPARE(parsed->host, QStringLiteral("192.168.1.5"));
        QCOMPARE(parsed->port, 7900);
        QCOMPARE(parsed->token, token);
        QVERIFY(parsed->fingerprint.isEmpty());
    }

    void roundTrips_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<QString>("fingerprint");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ipv4 with fp")
            << QStringLiteral("192.168.1.5") << 7900 << token << pin()
            << QStringLiteral("cpt://192.168.1.5:7900;fp=") + pin() + u'/' + tokenB64;
        QTest::newRow("hostname") << QStringLiteral("box.local") << 17900 << QByteArray("x") << QString()
                                  << QStringLiteral("cpt://box.local:17900/eA");
        QTest::newRow("ipv6") << QStringLiteral("fd00::5") << 7900 << token << pin("b")
                              << QStringLiteral("cpt://[fd00::5]:7900;fp=") + pin("b") + u'/' + tokenB64;
        QTest::newRow("ipv6 link-local with zone")
            << QStringLiteral("fe80::1%eth0") << 1 << QByteArray("~!") << QString()
            << QStringLiteral("cpt://[fe80::1%eth0]:1/fiE");
        QTest::newRow("max port, token needing _ and -")
            << QStringLiteral("10.0.0.1") << 65535 << QByteArray("~~~\?\?\?>>>") << QString()
            << QStringLiteral("cpt://10.0.0.1:65535/fn5-Pz8_Pj4-");
    }

    void roundTrips()
    {
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QByteArray, token);
        QFETCH(QString, fingerprint);
        QFETCH(QString, expected);
        const JoinUrl url {host, quint16(port), token, fingerprint};
        const QString text = formatJoinUrl(url);
        QCOMPARE(text, expected);
        QVERIFY(!text.contains(u'?') && !text.contains(u'#'));
        const auto parsed = parseJoinUrl(text);
        QVERIFY2(parsed.has_value(), parsed ? "" : qPrintable(parsed.error().message));
        QCOMPARE(*parsed, url);

        // 0.7's parser on our output: host (IPv6 keeps its brackets, as a URL host), port and
        // token come out right, the fingerprint is ignored.
        const ReferenceJoin reference = referenceParse(text);
        QVERIFY(reference.ok);
        QCOMPARE(reference.host, host.contains(u':') ? u'[' + host + u']' : host);
        QCOMPARE(reference.port, port);
        QCOMPARE(reference.token, token);
    }

    // The same, with Node's own parseInt and Buffer.from(…, "base64url")
    // (docs/spec/peers-api.md §6.11's code path).
    void javascriptParserReadsOurForm()
    {
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (node.isEmpty())
            QSKIP("node is not installed: referenceParse covers the same algorithm");
        const QString url = formatJoinUrl({QStringLiteral("fd00::5"), 7900, token, pin()});
        const char *script =
            "const url = process.argv[1];\n"
            "if (!url.startsWith(\"cpt://\")) throw new Error(\"scheme\");\n"
            "const rest = url.slice(6);\n"
            "const slash = rest.indexOf(\"/\", rest.indexOf(\":\"));\n"
            "const hostPort = rest.slice(0, slash);\n"
            "const last = hostPort.lastIndexOf(\":\");\n"
            "const token = Buffer.from(rest.slice(slash + 1), \"base64url\").toString(\"utf8\");\n"
            "console.log(JSON.stringify([hostPort.slice(0, last), parseInt(hostPort.slice(last + 1)), "
            "token]));\n";
        QProcess process;
        process.start(node, {QStringLiteral("-e"), QString::fromLatin1(script), url});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(process.readAllStandardOutput().trimmed(), "[\"[fd00::5]\",7900,\"" + token + "\"]");
    }

    // Why we never write "?fp=": 0.7 would read two junk bytes into the token.
    void queryFormWouldCorruptA07Token()
    {
        const QString handBuilt =
            QStringLiteral("cpt://192.168.1.5:7900/") + tokenB64 + QStringLiteral("?fp=") + pin();
        QVERIFY(referenceParse(handBuilt).token != token);
        const auto ours = parseJoinUrl(handBuilt);
        QVERIFY(ours.has_value());
        QCOMPARE(ours->token, token);
        QCOMPARE(ours->fingerprint, pin());
    }

    void acceptsHandBuiltForms_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("fingerprint");
        QTest::newRow("hash") << QStringLiteral("cpt://h:1/") + tokenB64 + QStringLiteral("#fp=") + pin()
                              << pin();
        QTest::newRow("query") << QStringLiteral("cpt://h:1/") + tokenB64 + QStringLiteral("?fp=") + pin()
                               << pin();
        QTest::newRow("both, equal") << QStringLiteral("cpt://h:1;fp=") + pin() + u'/' + tokenB64 +
                QStringLiteral("?fp=") +
                pin() << pin();
        QTest::newRow("surrounding blanks")
            << QStringLiteral("  cpt://h:1/") + tokenB64 + QStringLiteral(" \n") << QString();
        QTest::newRow("upper-case scheme") << QStringLiteral("CPT://h:1/") + tokenB64 << QString();
        QTest::newRow("padded token") << QStringLiteral("cpt://h:1/eA==") << QString();
    }

    void acceptsHandBuiltForms()
    {
        QFETCH(QString, url);
        QFETCH(QString, fingerprint);
        const auto parsed = parseJoinUrl(url);
        QVERIFY2(parsed.has_value(), parsed ? "" : qPrintable(parsed.error().message));
        QCOMPARE(parsed->host, QStringLiteral("h"));
        QCOMPARE(parsed->port, 1);
        QCOMPARE(parsed->fingerprint, fingerprint);
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<Kind>("kind");
        const QString t = u'/' + tokenB64;
        QTest::newRow("empty") << QString() << Kind::BadScheme;
        QTest::newRow("https") << QStringLiteral("https://h:7900") + t << Kind::BadScheme;
        QTest::newRow("one slash") << QStringLiteral("cpt:/h:7900") + t << Kind::BadScheme;
        QTest::newRow("too long") << QStringLiteral("cpt://h:1/") + QString(5000, u'A') << Kind::TooLong;
        QTest::newRow("no port") << QStringLiteral("cpt://h") + t << Kind::BadPort;
        QTest::newRow("empty port") << QStringLiteral("cpt://h:") + t << Kind::BadPort;
        QTest::newRow("port 0") << QStringLiteral("cpt://h:0") + t << Kind::BadPort;
        QTest::newRow("port 65536") << QStringLiteral("cpt://h:65536") + t << Kind::BadPort;
        QTest::newRow("port 99999999999") << QStringLiteral("cpt://h:99999999999") + t << Kind::BadPort;
        QTest::newRow("port with letters") << QStringLiteral("cpt://h:79a0") + t << Kind::BadPort;
        QTest::newRow("signed port") << QStringLiteral("cpt://h:+7900") + t << Kind::BadPort;
        QTest::newRow("no host") << QStringLiteral("cpt://:7900") + t << Kind::BadHost;
        QTest::newRow("userinfo") << QStringLiteral("cpt://") + pin() + QStringLiteral("@h:7900") + t
                                  << Kind::BadHost;
        QTest::newRow("space in host") << QStringLiteral("cpt://my host:7900") + t << Kind::BadHost;
        QTest::newRow("ipv6 without brackets") << QStringLiteral("cpt://fd00::5:7900") + t << Kind::BadHost;
        QTest::newRow("unclosed bracket") << QStringLiteral("cpt://[fd00::5:7900") + t << Kind::BadHost;
        QTest::newRow("ipv4 in brackets") << QStringLiteral("cpt://[10.0.0.1]:7900") + t << Kind::BadHost;
        QTest::newRow("junk in brackets") << QStringLiteral("cpt://[zz::]:7900") + t << Kind::BadHost;
        // A zone is an interface name: nothing that would change the URL's structure (fuzz finding).
        QTest::newRow("zone with ?") << QStringLiteral("cpt://[fe80::1%eth?0]:1") + t << Kind::BadHost;
        QTest::newRow("zone with #") << QStringLiteral("cpt://[fe80::1%e#0]:1") + t << Kind::BadHost;
        QTest::newRow("empty zone") << QStringLiteral("cpt://[fe80::1%]:1") + t << Kind::BadHost;
        QTest::newRow("bracket without port") << QStringLiteral("cpt://[fd00::5]") + t << Kind::BadPort;
        QTest::newRow("no token") << QStringLiteral("cpt://h:7900") << Kind::BadToken;
        QTest::newRow("empty token") << QStringLiteral("cpt://h:7900/") << Kind::BadToken;
        QTest::newRow("plus in token") << QStringLiteral("cpt://h:7900/ab+c") << Kind::BadToken;
        QTest::newRow("slash in token") << QStringLiteral("cpt://h:7900/ab/c") << Kind::BadToken;
        QTest::newRow("token of 5 characters") << QStringLiteral("cpt://h:7900/abcde") << Kind::BadToken;
        QTest::newRow("binary token") << QStringLiteral("cpt://h:7900/AAE") << Kind::BadToken;
        QTest::newRow("token with a newline") << QStringLiteral("cpt://h:7900/YQpi") << Kind::BadToken;
        QTest::newRow("huge token") << QStringLiteral("cpt://h:7900/") +
                QString::fromLatin1(QByteArray(1100, 'a').toBase64(QByteArray::Base64UrlEncoding))
                                    << Kind::BadToken;
        QTest::newRow("hex fingerprint")
            << QStringLiteral("cpt://h:7900;fp=sha256:abcd") + t << Kind::BadFingerprint;
        QTest::newRow("short fingerprint")
            << QStringLiteral("cpt://h:7900;fp=sha256-abc") + t << Kind::BadFingerprint;
        QTest::newRow("md5 fingerprint")
            << QStringLiteral("cpt://h:7900;fp=md5-") + pin().mid(7) + t << Kind::BadFingerprint;
        QTest::newRow("fingerprint not base64url")
            << QStringLiteral("cpt://h:7900;fp=sha256-") + QString(43, u'+') + t << Kind::BadFingerprint;
        QTest::newRow("empty fingerprint") << QStringLiteral("cpt://h:7900;fp=") + t << Kind::BadFingerprint;
        QTest::newRow("fingerprint twice")
            << QStringLiteral("cpt://h:7900;fp=") + pin() + QStringLiteral(";fp=") + pin() + t
            << Kind::BadFingerprint;
        QTest::newRow("two fingerprints")
            << QStringLiteral("cpt://h:7900;fp=") + pin() + t + QStringLiteral("#fp=") + pin("other")
            << Kind::BadFingerprint;
        QTest::newRow("unknown parameter")
            << QStringLiteral("cpt://h:7900;v=2") + t << Kind::UnknownParameter;
        QTest::newRow("empty parameter") << QStringLiteral("cpt://h:7900;") + t << Kind::UnknownParameter;
        QTest::newRow("unknown query")
            << QStringLiteral("cpt://h:7900") + t + QStringLiteral("?x=1") << Kind::UnknownParameter;
    }

    void refuses()
    {
        QFETCH(QString, url);
        QFETCH(Kind, kind);
        const auto parsed = parseJoinUrl(url);
        QVERIFY2(!parsed.has_value(), qPrintable(url));
        QCOMPARE(parsed.error().kind, kind);
        QVERIFY(!parsed.error().message.isEmpty());
        // The token (a secret) never appears in an error message.
        QVERIFY(!parsed.error().message.contains(tokenB64));
    }

    void fingerprintForm()
    {
        QVERIFY(isWellFormedPin(pin()));
        QVERIFY(!isWellFormedPin(pin().chopped(1)));
        QVERIFY(!isWellFormedPin(QString(pin() + u'A')));
        QVERIFY(!isWellFormedPin(pin().toUpper()));
        QVERIFY(!isWellFormedPin(QString()));
        // 43 characters hold 258 bits: a last character with low bits set is not a SHA-256.
        QVERIFY(!isWellFormedPin(QString(pin().chopped(1) + u'B')));
    }
};

QTEST_GUILESS_MAIN(tst_JoinUrl)
#include "tst_joinurl.moc"
