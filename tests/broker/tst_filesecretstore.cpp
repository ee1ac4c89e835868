#include "broker/filesecretstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

#include <sys/stat.h>

using Broker::FileSecretStore;
using Broker::SecretError;
using Broker::SecretLocation;
using Broker::SecretRead;
using Broker::SecretResult;
using Broker::SecretStore;

class tst_FileSecretStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void defaultPathsSitInHome()
    {
        Broker::Location location;
        location.tokenPath = QStringLiteral("/elsewhere/token");
        location.configPath = QStringLiteral("/home/u/.claude-peers-config.json");
        const auto paths = FileSecretStore::defaultPaths(location);
        QCOMPARE(paths.value(SecretStore::localTokenKey), QStringLiteral("/elsewhere/token"));
        QCOMPARE(paths.value(SecretStore::federationPskKey),
                 QStringLiteral("/home/u/.claude-peers-federation-psk"));
        QCOMPARE(paths.value(SecretStore::openCodePasswordKey),
                 QStringLiteral("/home/u/.claude-peers-opencode-password"));
    }

    void writesReadsAndRemovesOwnerOnlyFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("psk"));
        FileSecretStore store({{SecretStore::federationPskKey, path}});
        QObject context;

        std::optional<SecretResult<SecretLocation>> written;
        store.write(SecretStore::federationPskKey, "s3cret", &context, [&](auto r) { written = r; });
        QVERIFY(!written); // answers come through the event loop, never inside the call
        QTRY_VERIFY(written);
        QVERIFY(*written);
        QCOMPARE((*written)->kind, SecretLocation::Kind::File);
        QCOMPARE((*written)->name, path);
        struct stat st
        {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 07777), 0600);

        std::optional<SecretResult<SecretRead>> read;
        store.read(SecretStore::federationPskKey, &context, [&](auto r) { read = r; });
        QTRY_VERIFY(read);
        QVERIFY(*read);
        QCOMPARE((*read)->secret, QByteArray("s3cret"));
        QCOMPARE((*read)->where.name, path);

        std::optional<SecretResult<SecretLocation>> removed;
        store.remove(SecretStore::federationPskKey, &context, [&](auto r) { removed = r; });
        QTRY_VERIFY(removed);
        QVERIFY(*removed);
        QVERIFY(!QFile::exists(path));

        read.reset();
        store.read(SecretStore::federationPskKey, &context, [&](auto r) { read = r; });
        QTRY_VERIFY(read);
        QVERIFY(!*read);
        QCOMPARE(read->error().kind, SecretError::Kind::NotFound);
    }

    void noAnswerAfterTheContextIsGone()
    {
        QTemporaryDir dir;
        FileSecretStore store({{SecretStore::localTokenKey, dir.filePath(QStringLiteral("t"))}});
        bool called = false;
        {
            QObject context;
            store.read(SecretStore::localTokenKey, &context, [&](auto) { called = true; });
        }
        QTest::qWait(50);
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(tst_FileSecretStore)
#include "tst_filesecretstore.moc"
