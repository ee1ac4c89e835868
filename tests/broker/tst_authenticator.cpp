// Bearer resolution: main token (constant-time compare) or a session secret bound to a peer.
#include "broker/clock.h"
#include "broker/internal/auth.h"
#include "broker/internal/peerid.h"
#include "broker/internal/store.h"

#include <QTemporaryDir>
#include <QTest>

using Broker::Authenticator;
using Broker::Credential;

class tst_Authenticator : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Broker::Store m_store;
    QByteArray m_secret;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto opened = m_store.open(m_dir.filePath(QStringLiteral("peers.db")));
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        m_secret = Broker::SessionSecret::generate();
        Broker::NewPeer peer;
        peer.id = QStringLiteral("d92a5e28");
        peer.pid = 4242;
        peer.cwd = QStringLiteral("/w");
        peer.tty = QStringLiteral("pts/44");
        peer.secretHash = Broker::SessionSecret::hash(m_secret);
        QVERIFY(m_store.registerPeer(peer, Broker::Clock::toIso(QDateTime::currentDateTimeUtc())));
    }

    void constantTimeEquals()
    {
        QVERIFY(Authenticator::constantTimeEquals("abc", "abc"));
        QVERIFY(!Authenticator::constantTimeEquals("abc", "abd"));
        QVERIFY(!Authenticator::constantTimeEquals("abc", "abcd"));
        QVERIFY(!Authenticator::constantTimeEquals("abc", ""));
        QVERIFY(Authenticator::constantTimeEquals("", ""));
    }

    void resolvesCredentials_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("kind");
        const QByteArray token(64, 'a');
        QTest::newRow("main token") << QByteArray("Bearer " + token) << int(Credential::Kind::MainToken);
        QTest::newRow("missing") << QByteArray() << int(Credential::Kind::None);
        QTest::newRow("lower-case scheme") << QByteArray("bearer " + token) << int(Credential::Kind::None);
        QTest::newRow("no space") << QByteArray("Bearer" + token) << int(Credential::Kind::None);
        QTest::newRow("two spaces") << QByteArray("Bearer  " + token) << int(Credential::Kind::None);
        QTest::newRow("basic") << QByteArray("Basic " + token) << int(Credential::Kind::None);
        QTest::newRow("token prefix")
            << QByteArray("Bearer " + token.left(63)) << int(Credential::Kind::None);
        QTest::newRow("token longer") << QByteArray("Bearer " + token + "a") << int(Credential::Kind::None);
        QTest::newRow("empty credential") << QByteArray("Bearer ") << int(Credential::Kind::None);
        QTest::newRow("unknown secret")
            << QByteArray("Bearer " + QByteArray(64, 'b')) << int(Credential::Kind::None);
    }
    void resolvesCredentials()
    {
        QFETCH(QByteArray, header);
        QFETCH(int, kind);
        Authenticator auth(m_store);
        auth.setToken(QByteArray(64, 'a'));
        QCOMPARE(int(auth.resolve(header).kind), kind);
    }

    void sessionSecretResolvesToItsPeer()
    {
        Authenticator auth(m_store);
        auth.setToken(QByteArray(64, 'a'));
        const Credential c = auth.resolve("Bearer " + m_secret);
        QCOMPARE(int(c.kind), int(Credential::Kind::Session));
        QCOMPARE(c.peerId, QStringLiteral("d92a5e28"));
        QVERIFY(!c.isMain());
    }

    void rotatedTokenReplacesTheOldOne()
    {
        Authenticator auth(m_store);
        auth.setToken("old-token");
        QVERIFY(auth.resolve("Bearer old-token").isMain());
        auth.setToken("new-token");
        QVERIFY(!auth.resolve("Bearer old-token").isValid());
        QVERIFY(auth.resolve("Bearer new-token").isMain());
    }
};

QTEST_GUILESS_MAIN(tst_Authenticator)
#include "tst_authenticator.moc"
