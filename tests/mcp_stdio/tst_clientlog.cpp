// MCP logging for broker trouble (issue 7 §3.4): levels, setLevel, one notification per change.
#include "mcp_stdio/clientlog.h"

#include <QSignalSpy>
#include <QTest>

using namespace Mcp;

class tst_ClientLog : public QObject
{
    Q_OBJECT

    static QJsonObject params(const QSignalSpy &spy, int i)
    {
        return spy.at(i).at(0).toJsonObject().value(QLatin1String("params")).toObject();
    }

private Q_SLOTS:
    void levelNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        for (const char *n :
             {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"})
            QTest::newRow(n) << QString::fromLatin1(n) << true;
        QTest::newRow("upper case") << QStringLiteral("ERROR") << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("unknown") << QStringLiteral("loud") << false;
    }
    void levelNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        const auto level = ClientLog::levelFromName(name);
        QCOMPARE(level.has_value(), valid);
        if (level)
            QCOMPARE(ClientLog::levelName(*level), name);
    }

    void notificationShape()
    {
        const QJsonObject n = ClientLog::notification(ClientLog::Level::Error, QStringLiteral("no broker"));
        QCOMPARE(n.value(QLatin1String("jsonrpc")).toString(), QStringLiteral("2.0"));
        QCOMPARE(n.value(QLatin1String("method")).toString(), QStringLiteral("notifications/message"));
        QVERIFY(!n.contains(QLatin1String("id")));
        const QJsonObject p = n.value(QLatin1String("params")).toObject();
        QCOMPARE(p.value(QLatin1String("level")).toString(), QStringLiteral("error"));
        QCOMPARE(p.value(QLatin1String("logger")).toString(), QStringLiteral("claude-peers"));
        QCOMPARE(p.value(QLatin1String("data")).toString(), QStringLiteral("no broker"));
    }

    void troubleBeforeInitializeGoesOutOnce()
    {
        ClientLog log;
        QSignalSpy sent(&log, &ClientLog::notify);
        log.reportTrouble(QStringLiteral("no broker"));
        QCOMPARE(sent.size(), 0); // before initialize is answered: nothing on stdout
        log.setEnabled(true);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(params(sent, 0).value(QLatin1String("data")).toString(), QStringLiteral("no broker"));
        log.reportTrouble(QStringLiteral("no broker")); // the same trouble again: no repeat
        log.setEnabled(true);
        QCOMPARE(sent.size(), 1);
        log.reportTrouble(QStringLiteral("credential refused"));
        QCOMPARE(sent.size(), 2);
        log.reportTrouble(QString()); // over
        QCOMPARE(sent.size(), 3);
        QCOMPARE(params(sent, 2).value(QLatin1String("level")).toString(), QStringLiteral("info"));
        log.reportTrouble(QString());
        QCOMPARE(sent.size(), 3);
    }

    void setLevelFiltersLessSevereMessages()
    {
        ClientLog log;
        log.setEnabled(true);
        QSignalSpy sent(&log, &ClientLog::notify);
        log.setMinimumLevel(ClientLog::Level::Critical);
        log.reportTrouble(QStringLiteral("no broker")); // an error: below critical
        log.reportTrouble(QString());
        QCOMPARE(sent.size(), 0);
        log.setMinimumLevel(ClientLog::Level::Warning);
        log.reportTrouble(QStringLiteral("no broker"));
        log.reportTrouble(QString()); // "connected again" is info: below warning
        QCOMPARE(sent.size(), 1);
        QCOMPARE(params(sent, 0).value(QLatin1String("level")).toString(), QStringLiteral("error"));
    }
};

QTEST_GUILESS_MAIN(tst_ClientLog)
#include "tst_clientlog.moc"
