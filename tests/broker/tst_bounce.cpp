// Bounce texts of the orphan and stale sweeps (docs/spec/peers-api.md §11.8, §11.9).
#include "broker/internal/bounce.h"

#include <QTest>

class tst_Bounce : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formatsText_data()
    {
        QTest::addColumn<QString>("original");
        QTest::addColumn<QString>("preview");
        QTest::newRow("short") << QStringLiteral("hello") << QStringLiteral("hello");
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("exactly 100") << QString(100, QLatin1Char('x')) << QString(100, QLatin1Char('x'));
        QTest::newRow("101") << QString(101, QLatin1Char('y'))
                             << QString(100, QLatin1Char('y')) + QStringLiteral("...");
        QTest::newRow("multi-line") << QStringLiteral("a\nb") << QStringLiteral("a\nb");
        // 100 UTF-16 code units, as JavaScript's slice counts them.
        QTest::newRow("utf16 units") << QString(60, QChar(0x00E9)) + QString(60, QLatin1Char('z'))
                                     << QString(60, QChar(0x00E9)) + QString(40, QLatin1Char('z')) +
                QStringLiteral("...");
    }
    void formatsText()
    {
        QFETCH(QString, original);
        QFETCH(QString, preview);
        const QString expected = QStringLiteral("\u26A0 Message #42 to WORKER could not be delivered "
                                                "\u2014 peer has disconnected.\n> ") +
            preview;
        QCOMPARE(Broker::Bounce::text(42, QStringLiteral("WORKER"), original), expected);
    }

    void placeholdersInNamesAreNotExpanded()
    {
        QCOMPARE(Broker::Bounce::text(7, QStringLiteral("%1%2"), QStringLiteral("%3")),
                 QStringLiteral(
                     "\u26A0 Message #7 to %1%2 could not be delivered \u2014 peer has disconnected.\n> %3"));
    }

    void whoReceivesBounces_data()
    {
        QTest::addColumn<QString>("fromId");
        QTest::addColumn<bool>("receives");
        QTest::newRow("peer") << QStringLiteral("d92a5e28") << true;
        QTest::newRow("cli") << QStringLiteral("cli") << false;
        QTest::newRow("system") << QStringLiteral("system") << false;
        QTest::newRow("remote") << QStringLiteral("rafi-macbook:380ea400") << false;
        QTest::newRow("empty") << QString() << false;
    }
    void whoReceivesBounces()
    {
        QFETCH(QString, fromId);
        QFETCH(bool, receives);
        QCOMPARE(Broker::Bounce::senderMayReceiveBounce(fromId), receives);
    }
};

QTEST_GUILESS_MAIN(tst_Bounce)
#include "tst_bounce.moc"
