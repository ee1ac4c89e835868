#include "federation/certificate.h"
#include "federation/certificatepin.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Federation;

namespace {

CertificateFiles filesIn(const QTemporaryDir &dir, const QString &stem = QStringLiteral("fed"))
{
    return {dir.filePath(stem + QStringLiteral(".crt")), dir.filePath(stem + QStringLiteral(".key"))};
}

int fileMode(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

// Runs the openssl command line tool (an independent implementation to check ours against).
// Empty optional: the tool is not installed.
std::optional<QByteArray> openssl(const QStringList &arguments, const QByteArray &input = {})
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    if (program.isEmpty())
        return std::nullopt;
    QProcess process;
    process.start(program, arguments);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(30000) || process.exitCode() != 0) {
        qWarning() << "openssl" << arguments << "failed:" << process.readAllStandardError();
        return QByteArray();
    }
    return process.readAllStandardOutput();
}

// The pin as curl --pinnedpubkey computes it, through the openssl tool.
QString pinByOpensslTool(const QString &certificatePath)
{
    const auto pem = openssl({QStringLiteral("x509"), QStringLiteral("-in"), certificatePath,
                              QStringLiteral("-pubkey"), QStringLiteral("-noout")});
    if (!pem || pem->isEmpty())
        return {};
    const auto der = openssl(
        {QStringLiteral("pkey"), QStringLiteral("-pubin"), QStringLiteral("-outform"), QStringLiteral("der")},
        *pem);
    if (!der || der->isEmpty())
        return {};
    return QStringLiteral("sha256-") +
        QString::fromLatin1(QCryptographicHash::hash(*der, QCryptographicHash::Sha256)
                                .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

class tst_Certificate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void generatesEcdsaP256WithOwnerOnlyKey()
    {
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        // Whatever the umask, the key is never readable by others, not even for a moment.
        const mode_t previous = ::umask(0);
        const auto identity = generateIdentity(files, QStringLiteral("brokerhost"));
        ::umask(previous);
        QVERIFY2(identity, qPrintable(identity ? QString() : identity.error().message));
        QCOMPARE(fileMode(files.keyPath), 0600);
        QCOMPARE(identity->keyDescription, QStringLiteral("ECDSA P-256"));
        QVERIFY(identity->selfSigned);
        QVERIFY(isWellFormedPin(identity->pin));
        QCOMPARE(identity->privateKey.algorithm(), QSsl::Ec);
        QCOMPARE(identity->certificate.subjectInfo(QSslCertificate::CommonName),
                 QStringList {QStringLiteral("brokerhost")});
        const auto names = identity->certificate.subjectAlternativeNames().values(QSsl::DnsEntry);
        QVERIFY(names.contains(QStringLiteral("brokerhost")));
        QVERIFY(names.contains(QStringLiteral("brokerhost.local")));
        const qint64 days = QDateTime::currentDateTimeUtc().daysTo(identity->expiresAt());
        QVERIFY2(days >= 824 && days <= 825, qPrintable(QString::number(days)));
        QVERIFY(identity->certificate.effectiveDate() < QDateTime::currentDateTimeUtc());
        // Qt's own SPKI (RSA/EC only) hashes to the same pin.
        const QByteArray qtSpki = identity->certificate.publicKey().toDer();
        QCOMPARE(identity->pin, spkiPinFromDer(qtSpki));
        if (const QString byTool = pinByOpensslTool(files.certificatePath); !byTool.isEmpty())
            QCOMPARE(identity->pin, byTool);
    }

    void pinOfLoadedIdentityMatchesGenerated()
    {
        QTemporaryDir dir;
        const auto generated = generateIdentity(filesIn(dir), QStringLiteral("h"));
        QVERIFY(generated);
        const auto loaded = loadIdentity(filesIn(dir));
        QVERIFY(loaded);
        QCOMPARE(loaded->pin, generated->pin);
        QCOMPARE(spkiPin(loaded->certificate), generated->pin);
        QCOMPARE(loaded->certificate, generated->certificate);
    }

    void renewalKeepsKeyAndPin()
    {
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        GenerateOptions shortLived;
        shortLived.validityDays = 10;
        const auto first = generateIdentity(files, QStringLiteral("host-a"), shortLived);
        QVERIFY(first);
        const QByteArray keyBefore = [&] {
            QFile f(files.keyPath);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(needsRenewal(*first, QDateTime::currentDateTimeUtc(), 30));
        const auto ensured = ensureIdentity(files, QStringLiteral("host-a"));
        QVERIFY2(ensured, qPrintable(ensured ? QString() : ensured.error().message));
        QCOMPARE(ensured->outcome, EnsureOutcome::Renewed);
        QCOMPARE(ensured->identity.pin, first->pin);
        QVERIFY(ensured->identity.certificate != first->certificate);
        QVERIFY(ensured->identity.certificate.serialNumber() != first->certificate.serialNumber());
        QVERIFY(ensured->identity.expiresAt() > first->expiresAt().addDays(800));
        QFile keyFile(files.keyPath);
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        QCOMPARE(keyFile.readAll(), keyBefore);
        QCOMPARE(fileMode(files.keyPath), 0600);
        // Now far from expiry: the next start only loads.
        const auto again = ensureIdentity(files, QStringLiteral("host-a"));
        QVERIFY(again);
        QCOMPARE(again->outcome, EnsureOutcome::Loaded);
        QCOMPARE(again->identity.certificate, ensured->identity.certificate);
    }

    void ensureGeneratesOrIssuesForKey()
    {
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        const auto generated = ensureIdentity(files, QStringLiteral("h"));
        QVERIFY(generated);
        QCOMPARE(generated->outcome, EnsureOutcome::Generated);
        // The certificate lost, the key kept: a new certificate for the same key.
        QVERIFY(QFile::remove(files.certificatePath));
        const auto reissued = ensureIdentity(files, QStringLiteral("h"));
        QVERIFY2(reissued, qPrintable(reissued ? QString() : reissued.error().message));
        QCOMPARE(reissued->outcome, EnsureOutcome::Renewed);
        QCOMPARE(reissued->identity.pin, generated->identity.pin);
    }

    void certificateWithoutKeyIsAnError()
    {
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        QVERIFY(generateIdentity(files, QStringLiteral("h")));
        QVERIFY(QFile::remove(files.keyPath));
        const auto ensured = ensureIdentity(files, QStringLiteral("h"));
        QVERIFY(!ensured);
        QCOMPARE(ensured.error().kind, CertificateErrorKind::Missing);
        QVERIFY(ensured.error().message.contains(files.keyPath));
        QVERIFY(ensured.error().message.contains(files.certificatePath));
        QVERIFY(QFile::exists(files.certificatePath)); // nothing overwritten
        QVERIFY(!QFile::exists(files.keyPath));
    }

    void ed25519KeyLoadsThroughOpenSsl()
    {
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        GenerateOptions options;
        options.keyType = KeyType::Ed25519;
        const auto generated = generateIdentity(files, QStringLiteral("old-install"), options);
        QVERIFY2(generated, qPrintable(generated ? QString() : generated.error().message));
        const auto loaded = loadIdentity(files);
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().message));
        QCOMPARE(loaded->keyDescription, QStringLiteral("Ed25519"));
        QVERIFY(!loaded->privateKey.isNull());
        QCOMPARE(loaded->privateKey.algorithm(), QSsl::Opaque);
        QVERIFY(loaded->certificate.publicKey().isNull()); // why the pin is computed with OpenSSL
        QVERIFY(isWellFormedPin(loaded->pin));
        if (const QString byTool = pinByOpensslTool(files.certificatePath); !byTool.isEmpty())
            QCOMPARE(loaded->pin, byTool);
    }

    void loadsFilesMadeByTheOpensslTool_data()
    {
        QTest::addColumn<QStringList>("keyArguments");
        QTest::addColumn<QString>("description");
        // 0.7's own command (docs/spec/peers-api.md §6.10) and its Ed25519 fallback.
        QTest::newRow("rsa-2048 (0.7)") << QStringList {QStringLiteral("-newkey"), QStringLiteral("rsa:2048")}
                                        << QStringLiteral("RSA-2048");
        QTest::newRow("ed25519 (0.7 fallback)")
            << QStringList {QStringLiteral("-newkey"), QStringLiteral("ed25519")}
            << QStringLiteral("Ed25519");
        QTest::newRow("ec p-256") << QStringList {QStringLiteral("-newkey"), QStringLiteral("ec"),
                                                  QStringLiteral("-pkeyopt"),
                                                  QStringLiteral("ec_paramgen_curve:P-256")}
                                  << QStringLiteral("ECDSA P-256");
    }

    void loadsFilesMadeByTheOpensslTool()
    {
        QFETCH(QStringList, keyArguments);
        QFETCH(QString, description);
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        const auto made =
            openssl(QStringList {QStringLiteral("req")} + keyArguments +
                    QStringList {QStringLiteral("-noenc"), QStringLiteral("-keyout"), files.keyPath,
                                 QStringLiteral("-out"), files.certificatePath, QStringLiteral("-x509"),
                                 QStringLiteral("-days"), QStringLiteral("365"), QStringLiteral("-subj"),
                                 QStringLiteral("/CN=riche-wsl2")});
        if (!made)
            QSKIP("the openssl tool is not installed");
        QVERIFY(QFile::exists(files.keyPath));
        const auto loaded = loadIdentity(files);
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().message));
        QCOMPARE(loaded->keyDescription, description);
        QCOMPARE(loaded->pin, pinByOpensslTool(files.certificatePath));
        QVERIFY(!loaded->privateKey.isNull());
    }

    void refusesBadFiles_data()
    {
        QTest::addColumn<QByteArray>("certificate"); // "ours": a generated one
        QTest::addColumn<QByteArray>("key"); // "ours", "other": another generated key
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("garbage certificate") << QByteArray("hello") << QByteArray("ours")
                                             << int(CertificateErrorKind::BadFormat) << QStringLiteral("crt");
        QTest::newRow("garbage key") << QByteArray("ours")
                                     << QByteArray("-----BEGIN PRIVATE KEY-----\nAAAA\n")
                                     << int(CertificateErrorKind::BadFormat) << QStringLiteral("key");
        QTest::newRow("key of another certificate")
            << QByteArray("ours") << QByteArray("other") << int(CertificateErrorKind::KeyMismatch)
            << QStringLiteral("does not belong");
        QTest::newRow("oversized certificate")
            << QByteArray(2 * 1024 * 1024, 'A') << QByteArray("ours") << int(CertificateErrorKind::Unreadable)
            << QStringLiteral("larger");
    }

    void refusesBadFiles()
    {
        QFETCH(QByteArray, certificate);
        QFETCH(QByteArray, key);
        QFETCH(int, kind);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        const CertificateFiles other = filesIn(dir, QStringLiteral("other"));
        QVERIFY(generateIdentity(files, QStringLiteral("h")));
        QVERIFY(generateIdentity(other, QStringLiteral("h")));
        if (certificate != "ours")
            QVERIFY(writeFile(files.certificatePath, certificate));
        if (key == "other")
            QVERIFY(QFile::remove(files.keyPath) && QFile::copy(other.keyPath, files.keyPath));
        else if (key != "ours")
            QVERIFY(writeFile(files.keyPath, key));
        const auto loaded = loadIdentity(files);
        QVERIFY(!loaded);
        QCOMPARE(int(loaded.error().kind), kind);
        QVERIFY2(loaded.error().message.contains(mentions), qPrintable(loaded.error().message));
    }

    void refusesEncryptedKeyWithoutPrompting()
    {
        QTemporaryDir dir;
        const CertificateFiles files = filesIn(dir);
        QVERIFY(generateIdentity(files, QStringLiteral("h")));
        const auto encrypted =
            openssl({QStringLiteral("pkey"), QStringLiteral("-in"), files.keyPath, QStringLiteral("-aes256"),
                     QStringLiteral("-passout"), QStringLiteral("pass:secret")});
        if (!encrypted)
            QSKIP("the openssl tool is not installed");
        QVERIFY(writeFile(files.keyPath, *encrypted));
        const auto loaded = loadIdentity(files);
        QVERIFY(!loaded);
        QCOMPARE(loaded.error().kind, CertificateErrorKind::BadFormat);
        QVERIFY2(loaded.error().message.contains(QStringLiteral("encrypted")),
                 qPrintable(loaded.error().message));
    }

    void missingFilesNameThePath()
    {
        QTemporaryDir dir;
        const auto loaded = loadIdentity(filesIn(dir));
        QVERIFY(!loaded);
        QCOMPARE(loaded.error().kind, CertificateErrorKind::Missing);
        QVERIFY(loaded.error().message.contains(filesIn(dir).certificatePath));
    }

    void unwritableFolderIsAnError()
    {
        QTemporaryDir dir;
        const CertificateFiles files {dir.filePath(QStringLiteral("no/such/dir/fed.crt")),
                                      dir.filePath(QStringLiteral("no/such/dir/fed.key"))};
        const auto generated = generateIdentity(files, QStringLiteral("h"));
        QVERIFY(!generated);
        QCOMPARE(generated.error().kind, CertificateErrorKind::Unwritable);
        QVERIFY(generated.error().message.contains(QStringLiteral("no/such/dir")));
    }

    void filesFromEnvironment()
    {
        QProcessEnvironment environment;
        CertificateFiles files = CertificateFiles::fromEnvironment(environment, QStringLiteral("/home/u"));
        QCOMPARE(files.certificatePath, QStringLiteral("/home/u/.claude-peers-federation.crt"));
        QCOMPARE(files.keyPath, QStringLiteral("/home/u/.claude-peers-federation.key"));
        environment.insert(QStringLiteral("CLAUDE_PEERS_FEDERATION_CERT"), QStringLiteral("/etc/c.pem"));
        environment.insert(QStringLiteral("CLAUDE_PEERS_FEDERATION_KEY"), QStringLiteral("/etc/k.pem"));
        files = CertificateFiles::fromEnvironment(environment, QStringLiteral("/home/u"));
        QCOMPARE(files.certificatePath, QStringLiteral("/etc/c.pem"));
        QCOMPARE(files.keyPath, QStringLiteral("/etc/k.pem"));
    }

    void wellFormedPins_data()
    {
        QTest::addColumn<QString>("pin");
        QTest::addColumn<bool>("wellFormed");
        const QString digest = spkiPinFromDer("x").mid(7);
        QTest::newRow("real") << spkiPinFromDer("x") << true;
        QTest::newRow("no prefix") << digest << false;
        QTest::newRow("sha1 prefix") << (QStringLiteral("sha1-") + digest) << false;
        QTest::newRow("short") << (QStringLiteral("sha256-") + digest.chopped(1)) << false;
        QTest::newRow("padding") << (QStringLiteral("sha256-") + digest.chopped(1) + u'=') << false;
        QTest::newRow("standard base64") << (QStringLiteral("sha256-+") + digest.mid(1)) << false;
        QTest::newRow("empty") << QString() << false;
    }

    void wellFormedPins()
    {
        QFETCH(QString, pin);
        QFETCH(bool, wellFormed);
        QCOMPARE(isWellFormedPin(pin), wellFormed);
    }

    void pinsEqualComparesWholeStrings()
    {
        QVERIFY(pinsEqual(u"sha256-abc", u"sha256-abc"));
        QVERIFY(!pinsEqual(u"sha256-abc", u"sha256-abd"));
        QVERIFY(!pinsEqual(u"sha256-abc", u"sha256-ab"));
        QVERIFY(!pinsEqual(u"", u"sha256-a"));
    }

    void shortAuthenticationStringIsSymmetricSixDigits()
    {
        const QString a = spkiPinFromDer("key a");
        const QString b = spkiPinFromDer("key b");
        const QString c = spkiPinFromDer("key c");
        const QString ab = shortAuthenticationString(a, b);
        QCOMPARE(ab.size(), 6);
        QVERIFY(std::all_of(ab.begin(), ab.end(), [](QChar ch) { return ch.isDigit(); }));
        QCOMPARE(shortAuthenticationString(b, a), ab);
        QVERIFY(shortAuthenticationString(a, c) != ab);
        QVERIFY(shortAuthenticationString(a, b, "nonces") != ab);
        QCOMPARE(shortAuthenticationString(a, b, "nonces"), shortAuthenticationString(b, a, "nonces"));
        // A fixed vector, so both sides of a mixed-version mesh keep agreeing.
        QCOMPARE(shortAuthenticationString(u"sha256-A", u"sha256-B"),
                 shortAuthenticationString(u"sha256-B", u"sha256-A"));
    }
};

QTEST_GUILESS_MAIN(tst_Certificate)
#include "tst_certificate.moc"
