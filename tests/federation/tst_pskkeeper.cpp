// The federation PSK's keeper on its file (no keychain): a load reads it, and loads that overlap
// (two `federation init` at once, or init while federation starts) are each answered once.
#include "broker/filesecretstore.h"
#include "federation/pskkeeper.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class tst_PskKeeper : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void overlappingLoadsAreEachAnsweredOnce()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QByteArray psk = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";
        QFile file(home.filePath(u"psk"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(psk + '\n');
        file.close();
        auto store = std::make_shared<Broker::FileSecretStore>(
            QHash<QString, QString> {{QString(Broker::SecretStore::federationPskKey), file.fileName()}});
        Federation::PskKeeper keeper(nullptr, store, home.filePath(u"token"_s));

        QList<int> answers(3, 0);
        QList<bool> loaded(3, false);
        for (int i = 0; i < 3; ++i) {
            keeper.load([&, i](Broker::Result<void> result) {
                ++answers[i];
                loaded[i] = result.has_value();
            });
        }
        QTRY_COMPARE(answers, QList<int>({1, 1, 1}));
        QCOMPARE(loaded, QList<bool>({true, true, true}));
        QCOMPARE(keeper.psk(), psk);

        // A later load reads again, and nobody hears twice.
        bool again = false;
        keeper.load([&](Broker::Result<void> result) { again = result.has_value(); });
        QTRY_VERIFY(again);
        QCOMPARE(answers, QList<int>({1, 1, 1}));
    }
};

QTEST_GUILESS_MAIN(tst_PskKeeper)
#include "tst_pskkeeper.moc"
