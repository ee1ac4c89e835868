// Two real helpers given the same controlling terminal (issue 7 §1.3): neither may void the
// other's registration. The newcomer gets its own id while the first one lives; the terminal's
// id passes on only once its holder is dead.
#include "mcp_stdio/tty.h"
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QTest>

#include <csignal>

using namespace TestSupport;

class tst_SameTty : public QObject
{
    Q_OBJECT

    // id -> registered_at of every listed peer.
    static QHash<QString, QString> registrations(const TestHome &home)
    {
        const HttpResult r = httpPostJson(home.port(), QStringLiteral("/list-peers"),
                                          QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")},
                                                       {QStringLiteral("cwd"), QStringLiteral("/")}},
                                          home.token());
        QHash<QString, QString> rows;
        for (const QJsonValue &p : r.json().toArray())
            rows.insert(p.toObject().value(QLatin1String("id")).toString(),
                        p.toObject().value(QLatin1String("registered_at")).toString());
        return rows;
    }

    static QString idFromWhoami(McpClient &c)
    {
        const QString text = McpClient::text(c.callTool(QStringLiteral("whoami")));
        const QString first = text.section(QLatin1Char('\n'), 0, 0);
        return first.startsWith(QLatin1String("ID: ")) ? first.mid(4).section(QLatin1Char(' '), 0, 0)
                                                       : QString();
    }

    static qint64 sendFromCli(const TestHome &home, const QString &to, const QString &text)
    {
        const HttpResult r = httpPostJson(home.port(), QStringLiteral("/send-message"),
                                          QJsonObject {{QStringLiteral("from_id"), QStringLiteral("cli")},
                                                       {QStringLiteral("to_id"), to},
                                                       {QStringLiteral("text"), text}},
                                          home.token());
        return r.object().value(QLatin1String("message_id")).toInteger(-1);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(mcpExe()), "claude-peers-mcp not built");
        QVERIFY2(QFileInfo::exists(brokerExe()), "claude-peers-broker not built");
    }

    void twoLiveHelpersOnOneTtyKeepTheirRegistrations()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const QString tty = QStringLiteral("pts/0");
        const QString ttyId = Mcp::Tty::peerIdForTty(tty); // 478e3862, as in the issue

        McpClient first(helperEnvironment(home, false, tty));
        QVERIFY(first.start());
        QVERIFY(first.initialize());
        QTRY_VERIFY_WITH_TIMEOUT(registrations(home).contains(ttyId), scaled(10000));

        McpClient second(helperEnvironment(home, false, tty));
        QVERIFY(second.start());
        QVERIFY(second.initialize());
        QTRY_VERIFY_WITH_TIMEOUT(registrations(home).size() == 2, scaled(10000));
        const QHash<QString, QString> settled = registrations(home);

        // The fight re-registered both about 1.5 times a second: after 3 s nothing may have moved.
        QTest::qWait(scaled(3000));
        QCOMPARE(registrations(home), settled);
        QCOMPARE(idFromWhoami(first), ttyId);
        const QString secondId = idFromWhoami(second);
        QVERIFY(!secondId.isEmpty());
        QVERIFY(secondId != ttyId);
        QVERIFY(settled.contains(secondId));
        // The newcomer says why it did not get the terminal's id.
        QVERIFY2(McpClient::text(second.callTool(QStringLiteral("whoami"))).contains(ttyId),
                 qPrintable(McpClient::text(second.callTool(QStringLiteral("whoami")))));

        // Each gets its own mail, pushed.
        QVERIFY(sendFromCli(home, ttyId, QStringLiteral("to the first")) > 0);
        QVERIFY(sendFromCli(home, secondId, QStringLiteral("to the second")) > 0);
        QVERIFY(first.waitForChannelMessages(1, scaled(10000)));
        QVERIFY(second.waitForChannelMessages(1, scaled(10000)));
        QCOMPARE(first.channelMessages().at(0).value(QLatin1String("content")).toString(),
                 QStringLiteral("to the first"));
        QCOMPARE(second.channelMessages().at(0).value(QLatin1String("content")).toString(),
                 QStringLiteral("to the second"));
        QCOMPARE(registrations(home), settled);
        QVERIFY(first.nonJsonLines().isEmpty());
        QVERIFY(second.nonJsonLines().isEmpty());
    }

    void theTerminalsIdPassesOnWhenItsHolderIsDead()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const QString tty = QStringLiteral("pts/93");
        const QString ttyId = Mcp::Tty::peerIdForTty(tty);
        {
            McpClient gone(helperEnvironment(home, false, tty));
            QVERIFY(gone.start());
            QVERIFY(gone.initialize());
            QTRY_VERIFY_WITH_TIMEOUT(registrations(home).contains(ttyId), scaled(10000));
            gone.kill(); // no /unregister: the row stays, its pid is dead
            QVERIFY(gone.waitForExit(5000));
        }
        // No listing in between (it would prune the dead row): the registration finds it.
        McpClient next(helperEnvironment(home, false, tty));
        QVERIFY(next.start());
        QVERIFY(next.initialize());
        QTRY_COMPARE_WITH_TIMEOUT(idFromWhoami(next), ttyId, scaled(10000));
        QVERIFY2(
            !McpClient::text(next.callTool(QStringLiteral("whoami"))).contains(QLatin1String("belongs to")),
            qPrintable(McpClient::text(next.callTool(QStringLiteral("whoami")))));
        QVERIFY(sendFromCli(home, ttyId, QStringLiteral("after the restart")) > 0);
        QVERIFY(next.waitForChannelMessages(1, scaled(10000)));
        QCOMPARE(next.channelMessages().at(0).value(QLatin1String("content")).toString(),
                 QStringLiteral("after the restart"));
        QCOMPARE(registrations(home).keys(), QStringList {ttyId});
    }
};

QTEST_GUILESS_MAIN(tst_SameTty)
#include "tst_sametty.moc"
