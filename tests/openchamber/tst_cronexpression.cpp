// CronExpression: the checked-in vectors (data/cron-vectors.tsv: fields, names, L, #, DST gaps and
// overlaps in several zones), the expressions it must refuse with a message naming the field, and
// the bounds a hostile expression meets.
#include "openchamber/cronexpression.h"

#include <QFile>
#include <QTest>

using namespace OpenChamber;

class tst_CronExpression : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nextMatchesVectors_data();
    void nextMatchesVectors();
    void refusesBadExpressions_data();
    void refusesBadExpressions();
    void walksAYearOfOccurrencesInOrder();
    void invalidZoneHasNoNextRun();
    void refusesOverlongText();
};

void tst_CronExpression::nextMatchesVectors_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QDateTime>("after");
    QTest::addColumn<QString>("expected");
    QFile file(QStringLiteral(PEERS_CRON_VECTORS));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    int line = 0;
    int rows = 0;
    while (!file.atEnd()) {
        ++line;
        const QString text = QString::fromUtf8(file.readLine()).chopped(1);
        if (text.isEmpty() || text.startsWith(u'#'))
            continue;
        const QStringList cells = text.split(u'\t');
        QCOMPARE(cells.size(), 4);
        const QDateTime after = QDateTime::fromString(cells[2], Qt::ISODateWithMs);
        QVERIFY2(after.isValid(), qPrintable(cells[2]));
        QTest::addRow("%d: %s in %s after %s", line, qPrintable(cells[0]), qPrintable(cells[1]),
                      qPrintable(cells[2]))
            << cells[0] << cells[1] << after << cells[3];
        ++rows;
    }
    QVERIFY(rows >= 50);
}

void tst_CronExpression::nextMatchesVectors()
{
    QFETCH(QString, expression);
    QFETCH(QString, zone);
    QFETCH(QDateTime, after);
    QFETCH(QString, expected);
    const auto cron = CronExpression::parse(expression);
    QVERIFY2(cron, cron ? "" : qPrintable(cron.error()));
    const QTimeZone timeZone(zone.toUtf8());
    QVERIFY(timeZone.isValid());
    const auto next = cron->next(after, timeZone);
    if (expected == u"none") {
        QVERIFY2(!next, qPrintable(next ? next->toString(Qt::ISODate) : QString()));
        return;
    }
    QVERIFY(next);
    QCOMPARE(next->toUTC().toString(Qt::ISODate), expected);
}

void tst_CronExpression::refusesBadExpressions_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("empty") << QString() << QStringLiteral("5 fields");
    QTest::newRow("four fields") << QStringLiteral("* * * *") << QStringLiteral("it has 4");
    QTest::newRow("seven fields") << QStringLiteral("* * * * * * *") << QStringLiteral("it has 7");
    QTest::newRow("minute 60") << QStringLiteral("60 * * * *")
                               << QStringLiteral("minute: 60 is out of range 0-59");
    QTest::newRow("hour 24") << QStringLiteral("* 24 * * *") << QStringLiteral("hour: 24 is out of range");
    QTest::newRow("day 0") << QStringLiteral("* * 0 * *")
                           << QStringLiteral("day-of-month: 0 is out of range");
    QTest::newRow("day 32") << QStringLiteral("* * 32 * *") << QStringLiteral("day-of-month");
    QTest::newRow("month 13") << QStringLiteral("* * * 13 *") << QStringLiteral("month: 13");
    QTest::newRow("weekday 8") << QStringLiteral("* * * * 8") << QStringLiteral("day-of-week: 8");
    QTest::newRow("second 60") << QStringLiteral("60 * * * * *") << QStringLiteral("second: 60");
    QTest::newRow("backwards range") << QStringLiteral("5-1 * * * *") << QStringLiteral("runs backwards");
    QTest::newRow("step 0") << QStringLiteral("*/0 * * * *") << QStringLiteral("step '0'");
    QTest::newRow("empty step") << QStringLiteral("*/ * * * *") << QStringLiteral("step ''");
    QTest::newRow("two steps") << QStringLiteral("*/2/3 * * * *") << QStringLiteral("step '2/3'");
    QTest::newRow("word") << QStringLiteral("a * * * *") << QStringLiteral("'a' is not a valid value");
    QTest::newRow("weekday name as month") << QStringLiteral("* * * mon *") << QStringLiteral("month: 'mon'");
    QTest::newRow("empty list item") << QStringLiteral("1,,2 * * * *") << QStringLiteral("empty item");
    QTest::newRow("negative") << QStringLiteral("-1 * * * *") << QStringLiteral("a value is missing");
    QTest::newRow("open range") << QStringLiteral("1- * * * *") << QStringLiteral("a value is missing");
    QTest::newRow("huge number") << QStringLiteral("99999999999 * * * *") << QStringLiteral("out of range");
    QTest::newRow("sixth week") << QStringLiteral("* * * * 1#6") << QStringLiteral("1 to 5");
    QTest::newRow("week zero") << QStringLiteral("* * * * 1#0") << QStringLiteral("1 to 5");
    QTest::newRow("L in minutes") << QStringLiteral("L * * * *") << QStringLiteral("minute: 'L'");
    QTest::newRow("bare L weekday") << QStringLiteral("* * * * L") << QStringLiteral("day-of-week: 'L'");
    QTest::newRow("? in hours") << QStringLiteral("* ? * * *") << QStringLiteral("hour: '?'");
    QTest::newRow("unknown alias") << QStringLiteral("@every5m") << QStringLiteral("unknown cron alias");
    QTest::newRow("plus step") << QStringLiteral("*/+5 * * * *") << QStringLiteral("step '+5'");
}

void tst_CronExpression::refusesBadExpressions()
{
    QFETCH(QString, expression);
    QFETCH(QString, messagePart);
    const auto cron = CronExpression::parse(expression);
    QVERIFY(!cron);
    QVERIFY2(cron.error().contains(messagePart), qPrintable(cron.error()));
}

// Every occurrence of a busy expression over a year in a DST zone: strictly increasing, each on a
// wall time the expression names, and the count as the calendar says (the gap hour loses its two
// runs into one at 03:00, the overlap hour runs twice because the hour field is '*').
void tst_CronExpression::walksAYearOfOccurrencesInOrder()
{
    const auto cron = CronExpression::parse(u"*/30 * * * *");
    QVERIFY(cron);
    const QTimeZone berlin("Europe/Berlin");
    QDateTime at(QDate(2025, 12, 31), QTime(23, 59, 59), QTimeZone::utc()); // 2026-01-01T00:00Z counts
    const QDateTime end(QDate(2027, 1, 1), QTime(0, 0), QTimeZone::utc());
    int count = 0;
    while (true) {
        const auto next = cron->next(at, berlin);
        QVERIFY(next);
        QVERIFY(*next > at);
        if (*next >= end)
            break;
        QCOMPARE(next->toTimeZone(berlin).time().minute() % 30, 0);
        at = *next;
        ++count;
    }
    // 365 days × 48 half hours: the spring gap drops 2 runs, the autumn overlap adds 2.
    QCOMPARE(count, 365 * 48);
}

void tst_CronExpression::invalidZoneHasNoNextRun()
{
    const auto cron = CronExpression::parse(u"* * * * *");
    QVERIFY(cron);
    QVERIFY(!cron->next(QDateTime::currentDateTimeUtc(), QTimeZone("No/Such_Zone")));
    QVERIFY(!cron->next(QDateTime(), QTimeZone::utc()));
}

void tst_CronExpression::refusesOverlongText()
{
    const QString text = QStringLiteral("1,").repeated(600) + QStringLiteral("1 * * * *");
    const auto cron = CronExpression::parse(text);
    QVERIFY(!cron);
    QVERIFY2(cron.error().contains(u"longer than"), qPrintable(cron.error()));
}

QTEST_GUILESS_MAIN(tst_CronExpression)
#include "tst_cronexpression.moc"
