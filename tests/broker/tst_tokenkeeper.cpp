#include "common/tokenfile.h"
#include "tests/support/fakesecretstore.h"
#include "tests/support/testsupport.h"

#include "broker/internal/tokenkeeper.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

#include <sys/stat.h>

using Broker::SecretError;
using Broker::SecretStore;
using Broker::TokenKeeper;
using TestSupport::FakeSecretStore;
using TestSupport::scaled;

namespace {

const QString kKey = SecretStore::localTokenKey;

int modeOf(const QString &path)
{
    struct stat st
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}

} // namespace

class tst_TokenKeeper : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<FakeSecretStore> m_keychain;
    Broker::Location m_location;

    QByteArray fileToken() const
    {
        auto token = Broker::TokenFile::read(m_location.tokenPath);
        return token ? *token : QByteArray();
    }
    std::unique_ptr<TokenKeeper> keeper(int retryMs = 50)
    {
        return std::make_unique<TokenKeeper>(m_location, m_keychain, retryMs);
    }
    static bool inKeychain(const TokenKeeper &k) { return k.status().localToken.isKeychain(); }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_keychain = std::make_shared<FakeSecretStore>();
        m_location = Broker::Location {};
        m_location.tokenPath = m_dir->filePath(QStringLiteral(".claude-peers-token"));
        m_location.configPath = m_dir->filePath(QStringLiteral(".claude-peers-config.json"));
    }

    void keychainTokenWinsAndTheFileIsRewritten()
    {
        QVERIFY(Broker::TokenFile::write(m_location.tokenPath, "from-file"));
        m_keychain->secrets.insert(kKey, "from-keychain");
        auto k = keeper();
        QSignalSpy changed(k.get(), &TokenKeeper::tokenChanged);
        QCOMPARE(*k->start(), QByteArray("from-file")); // serves at once, before the keychain answers
        QTRY_VERIFY(inKeychain(*k));
        QCOMPARE(k->token(), QByteArray("from-keychain"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().first().toByteArray(), QByteArray("from-keychain"));
        QCOMPARE(fileToken(), QByteArray("from-keychain"));
        QCOMPARE(modeOf(m_location.tokenPath), 0600);
        QCOMPARE(k->status().localToken.name, FakeSecretStore::location().name);
        QCOMPARE(k->status().tokenFile, m_location.tokenPath);
        QVERIFY(k->status().note.isEmpty());
    }

    void existingFileIsMovedIntoAnEmptyKeychain()
    {
        QVERIFY(Broker::TokenFile::write(m_location.tokenPath, "old-file-token"));
        auto k = keeper();
        QSignalSpy changed(k.get(), &TokenKeeper::tokenChanged);
        QVERIFY(k->start());
        QTRY_VERIFY(inKeychain(*k));
        QCOMPARE(m_keychain->secrets.value(kKey), QByteArray("old-file-token"));
        QCOMPARE(k->token(), QByteArray("old-file-token"));
        QCOMPARE(fileToken(), QByteArray("old-file-token"));
        QCOMPARE(changed.count(), 0);
    }

    void firstStartPutsOneFreshTokenInBoth()
    {
        auto k = keeper();
        auto token = k->start();
        QVERIFY(token);
        QCOMPARE(token->size(), 64);
        QTRY_VERIFY(inKeychain(*k));
        QCOMPARE(m_keychain->secrets.value(kKey), *token);
        QCOMPARE(fileToken(), *token);
    }

    void explicitTokenPathIsTheSourceOfTruth()
    {
        m_location.tokenPathExplicit = true;
        QVERIFY(Broker::TokenFile::write(m_location.tokenPath, "explicit"));
        m_keychain->secrets.insert(kKey, "from-keychain");
        auto k = keeper();
        QCOMPARE(*k->start(), QByteArray("explicit"));
        QCOMPARE(m_keychain->reads, 0);
        QCOMPARE(k->status().localToken.kind, Broker::SecretLocation::Kind::File);
        QCOMPARE(k->status().localToken.name, m_location.tokenPath);
        QVERIFY(k->status().note.contains(QStringLiteral("CLAUDE_PEERS_TOKEN")));
        // Rotation stays in the file; the keychain is not touched.
        bool done = false;
        k->rotate([&](Broker::Result<Broker::SecretsStatus> r) { done = bool(r); });
        QVERIFY(done);
        QCOMPARE(fileToken(), k->token());
        QCOMPARE(m_keychain->secrets.value(kKey), QByteArray("from-keychain"));
        QCOMPARE(m_keychain->writes, 0);
    }

    void withoutKeychainTheFileIsAllThereIs()
    {
        TokenKeeper k(m_location, nullptr, 50);
        QVERIFY(k.start());
        QCOMPARE(k.status().localToken.kind, Broker::SecretLocation::Kind::File);
        QVERIFY(!k.status().note.isEmpty());
    }

    void keychainNotUpYetIsAskedOnceMore()
    {
        m_keychain->secrets.insert(kKey, "from-keychain");
        m_keychain->failures = {SecretError::Kind::Unavailable};
        auto k = keeper(scaled(200));
        QVERIFY(k->start());
        QTRY_COMPARE(m_keychain->reads, 1);
        QTRY_VERIFY(k->status().note.contains(QStringLiteral("asked again")));
        QVERIFY(!inKeychain(*k));
        QTRY_VERIFY(inKeychain(*k));
        QCOMPARE(m_keychain->reads, 2);
        QCOMPARE(k->token(), QByteArray("from-keychain"));
        QCOMPARE(fileToken(), QByteArray("from-keychain"));
    }

    void afterTheOneRetryTheFileIsUsedAndSaidPlainly()
    {
        m_keychain->failures = {SecretError::Kind::Unavailable, SecretError::Kind::Failed};
        auto k = keeper(20);
        QSignalSpy status(k.get(), &TokenKeeper::statusChanged);
        const QByteArray token = *k->start();
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("No OS keychain answered")));
        QTRY_COMPARE(status.count(), 2); // "asking again", then "file only"
        QCOMPARE(k->status().localToken.kind, Broker::SecretLocation::Kind::File);
        QVERIFY(k->status().note.contains(m_location.tokenPath));
        // Only one retry: nothing more is asked, however long we wait.
        QTest::qWait(scaled(300));
        QCOMPARE(m_keychain->reads, 2);
        QCOMPARE(k->token(), token);
        QCOMPARE(fileToken(), token);
    }

    void refusedAccessIsNotRetried()
    {
        m_keychain->failures = {SecretError::Kind::Denied};
        auto k = keeper(20);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("refused access")));
        QVERIFY(k->start());
        QTRY_VERIFY(k->status().note.contains(QStringLiteral("refused access")));
        QTest::qWait(scaled(200));
        QCOMPARE(m_keychain->reads, 1);
    }

    void rotationGoesToTheKeychainThenTheFile()
    {
        auto k = keeper();
        const QByteArray old = *k->start();
        QTRY_VERIFY(inKeychain(*k));
        QSignalSpy changed(k.get(), &TokenKeeper::tokenChanged);
        std::optional<Broker::Result<Broker::SecretsStatus>> answer;
        k->rotate([&](Broker::Result<Broker::SecretsStatus> r) { answer = r; });
        QTRY_VERIFY(answer);
        QVERIFY(*answer);
        QVERIFY((*answer)->localToken.isKeychain());
        QVERIFY(k->token() != old);
        QCOMPARE(m_keychain->secrets.value(kKey), k->token());
        QCOMPARE(fileToken(), k->token());
        QCOMPARE(changed.count(), 1);
    }

    void rotationRefusedByTheKeychainKeepsTheOldToken()
    {
        auto k = keeper();
        const QByteArray old = *k->start();
        QTRY_VERIFY(inKeychain(*k));
        m_keychain->failures = {SecretError::Kind::Denied};
        std::optional<Broker::Result<Broker::SecretsStatus>> answer;
        k->rotate([&](Broker::Result<Broker::SecretsStatus> r) { answer = r; });
        QTRY_VERIFY(answer);
        QVERIFY(!*answer);
        QCOMPARE(answer->error().kind, Broker::ErrorKind::Keychain);
        QCOMPARE(k->token(), old);
        QCOMPARE(fileToken(), old);
        QCOMPARE(m_keychain->secrets.value(kKey), old);
    }

    void rotationBeforeTheKeychainAnswersIsNotUndone()
    {
        m_keychain->secrets.insert(kKey, "stale-keychain-token");
        QVERIFY(Broker::TokenFile::write(m_location.tokenPath, "stale-keychain-token"));
        m_keychain->failures = {SecretError::Kind::Unavailable};
        auto k = keeper(scaled(200));
        QVERIFY(k->start());
        QTRY_VERIFY(k->status().note.contains(QStringLiteral("asked again")));
        bool rotated = false;
        k->rotate([&](Broker::Result<Broker::SecretsStatus> r) { rotated = bool(r); });
        QVERIFY(rotated);
        const QByteArray fresh = k->token();
        QTRY_VERIFY(inKeychain(*k));
        QCOMPARE(k->token(), fresh);
        QCOMPARE(m_keychain->secrets.value(kKey), fresh);
        QCOMPARE(fileToken(), fresh);
    }

    void rotationAskedBeforeTheFirstAnswerWaitsForIt()
    {
        m_keychain->secrets.insert(kKey, "kept");
        auto k = keeper();
        QVERIFY(k->start());
        std::optional<Broker::Result<Broker::SecretsStatus>> answer;
        k->rotate([&](Broker::Result<Broker::SecretsStatus> r) { answer = r; });
        QVERIFY(!answer); // the keychain has not answered yet
        QTRY_VERIFY(answer);
        QVERIFY(*answer);
        QVERIFY((*answer)->localToken.isKeychain());
        QVERIFY(k->token() != QByteArray("kept"));
        QCOMPARE(m_keychain->secrets.value(kKey), k->token());
        QCOMPARE(fileToken(), k->token());
    }

    void rotationDoesNotWaitForeverForAKeychainThatDoesNotAnswer()
    {
        m_keychain->silent = true; // an unlock prompt nobody answers
        auto k = keeper();
        k->setRotationWaitMs(50);
        const QByteArray old = *k->start();
        std::optional<Broker::Result<Broker::SecretsStatus>> answer;
        k->rotate([&](Broker::Result<Broker::SecretsStatus> r) { answer = r; });
        QVERIFY(!answer);
        QTRY_VERIFY(answer);
        QVERIFY(*answer);
        QCOMPARE((*answer)->localToken.kind, Broker::SecretLocation::Kind::File);
        QVERIFY(k->token() != old);
        QCOMPARE(fileToken(), k->token());
    }

    void tokenFileChangedWhileRunningIsAdoptedAndStored()
    {
        auto k = keeper();
        QVERIFY(k->start());
        QTRY_VERIFY(inKeychain(*k));
        QVERIFY(Broker::TokenFile::write(m_location.tokenPath, "written-by-a-0.7-cli"));
        k->rereadFile();
        QCOMPARE(k->token(), QByteArray("written-by-a-0.7-cli"));
        QTRY_COMPARE(m_keychain->secrets.value(kKey), QByteArray("written-by-a-0.7-cli"));
    }

    void missingTokenFileIsWrittenAgainFromTheKeychain()
    {
        auto k = keeper();
        const QByteArray token = *k->start();
        QTRY_VERIFY(inKeychain(*k));
        QVERIFY(QFile::remove(m_location.tokenPath));
        k->rereadFile();
        QCOMPARE(fileToken(), token);
        QCOMPARE(modeOf(m_location.tokenPath), 0600);
    }
};

QTEST_GUILESS_MAIN(tst_TokenKeeper)
#include "tst_tokenkeeper.moc"
