#include "tokenfile.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace TokenFile = Broker::TokenFile;

namespace {

int modeOf(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

void writeRaw(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

} // namespace

class tst_TokenFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void generatesSixtyFourLowerHex()
    {
        static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
        const QByteArray a = TokenFile::generate();
        const QByteArray b = TokenFile::generate();
        QVERIFY(hex.match(QString::fromLatin1(a)).hasMatch());
        QVERIFY(a != b);
    }

    void createsFileWithMode0600()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("token"));
        auto token = TokenFile::readOrCreate(path);
        QVERIFY(token);
        QCOMPARE(token->size(), 64);
        QCOMPARE(modeOf(path), 0600);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), *token + '\n');
        // A second call reads the same token instead of replacing it.
        QCOMPARE(*TokenFile::readOrCreate(path), *token);
    }

    void readTrimsWhitespace_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("newline") << QByteArray("abc\n");
        QTest::newRow("crlf") << QByteArray("abc\r\n");
        QTest::newRow("spaces") << QByteArray("  abc  \n\n");
        QTest::newRow("tab") << QByteArray("\tabc");
        QTest::newRow("bare") << QByteArray("abc");
    }
    void readTrimsWhitespace()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("token"));
        writeRaw(path, content);
        auto token = TokenFile::read(path);
        QVERIFY(token);
        QCOMPARE(*token, QByteArray("abc"));
    }

    void missingFileIsAnError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("absent"));
        auto token = TokenFile::read(path);
        QVERIFY(!token);
        QCOMPARE(token.error().code, QStringLiteral("token_missing"));
        QVERIFY(token.error().message.contains(path));
    }

    void emptyFileIsAnError_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("whitespace only") << QByteArray(" \n\t\n");
    }
    void emptyFileIsAnError()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("token"));
        writeRaw(path, content);
        auto token = TokenFile::read(path);
        QVERIFY(!token);
        QCOMPARE(token.error().code, QStringLiteral("token_empty"));
    }

    void emptyFileIsReplacedByReadOrCreate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("token"));
        writeRaw(path, "\n");
        auto token = TokenFile::readOrCreate(path);
        QVERIFY(token);
        QCOMPARE(token->size(), 64);
    }

    void directoryIsUnreadable()
    {
        QTemporaryDir dir;
        auto token = TokenFile::read(dir.path());
        QVERIFY(!token);
    }

    void rewriteKeeps0600()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("token"));
        QVERIFY(TokenFile::write(path, "first"));
        QCOMPARE(modeOf(path), 0600);
        // Even a file someone loosened is tightened again on rotation.
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
        QVERIFY(TokenFile::write(path, "second"));
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(*TokenFile::read(path), QByteArray("second"));
    }

    void writeIntoMissingDirectoryFails()
    {
        QTemporaryDir dir;
        auto written = TokenFile::write(dir.filePath(QStringLiteral("no/such/dir/token")), "x");
        QVERIFY(!written);
        QCOMPARE(written.error().code, QStringLiteral("token_unwritable"));
    }

    void oversizedFileReadsOnlyTheHead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("token"));
        writeRaw(path, QByteArray(1 << 20, 'a'));
        auto token = TokenFile::read(path);
        QVERIFY(token);
        QVERIFY(token->size() <= 4096);
    }
};

QTEST_GUILESS_MAIN(tst_TokenFile)
#include "tst_tokenfile.moc"
