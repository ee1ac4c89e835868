// Peer ids (docs/spec/peers-api.md §7.9 vectors) and session secrets (liveness: tests/common/tst_liveness).
#include "broker/internal/peerid.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

class tst_PeerId : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void derivesIdFromTty_data()
    {
        QTest::addColumn<QString>("tty");
        QTest::addColumn<QString>("id");
        QTest::newRow("pts/44") << QStringLiteral("pts/44") << QStringLiteral("d92a5e28");
        QTest::newRow("pts/0") << QStringLiteral("pts/0") << QStringLiteral("478e3862");
        QTest::newRow("/dev/pts/0") << QStringLiteral("/dev/pts/0") << QStringLiteral("321f9571");
        QTest::newRow("ttys001") << QStringLiteral("ttys001") << QStringLiteral("380ea400");
    }
    void derivesIdFromTty()
    {
        QFETCH(QString, tty);
        QFETCH(QString, id);
        QCOMPARE(Broker::PeerId::fromTty(tty), id);
        QCOMPARE(Broker::PeerId::derive(tty), id);
    }

    void randomIdsAreEightLowerAlnum()
    {
        static const QRegularExpression shape(QStringLiteral("^[a-z0-9]{8}$"));
        QSet<QString> seen;
        for (int i = 0; i < 200; ++i) {
            const QString id = Broker::PeerId::derive(QString());
            QVERIFY2(shape.match(id).hasMatch(), qPrintable(id));
            seen.insert(id);
        }
        QVERIFY(seen.size() > 190); // not a constant
    }

    void sessionSecretIs64HexAndHashedWithSha256()
    {
        const QByteArray secret = Broker::SessionSecret::generate();
        QCOMPARE(secret.size(), 64);
        QVERIFY(Broker::SessionSecret::looksLikeSecret(secret));
        QVERIFY(secret != Broker::SessionSecret::generate());
        // SHA-256("abc")
        QCOMPARE(Broker::SessionSecret::hash("abc"),
                 QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void rejectsThingsThatAreNotSecrets_data()
    {
        QTest::addColumn<QByteArray>("credential");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("short") << QByteArray(63, 'a');
        QTest::newRow("long") << QByteArray(65, 'a');
        QTest::newRow("upper") << QByteArray(64, 'A');
        QTest::newRow("non-hex") << QByteArray(64, 'g');
    }
    void rejectsThingsThatAreNotSecrets()
    {
        QFETCH(QByteArray, credential);
        QVERIFY(!Broker::SessionSecret::looksLikeSecret(credential));
    }
};

QTEST_GUILESS_MAIN(tst_PeerId)
#include "tst_peerid.moc"
