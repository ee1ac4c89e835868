// StatusPage offscreen against a real broker in a temp HOME: the fields, the refresh while
// shown, the diagnostics text (the CLI's formatting) and a broker that stops answering.
#include "app/tray/brokerhost.h"
#include "app/tray/pages/statuspage.h"
#include "common/brokerclient.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using App::BrokerHost;
using App::StatusPage;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

class tst_StatusPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsTheBrokerAndCopiesDiagnostics()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        Broker::BrokerClient client(settingsFor(home).location);
        StatusPage page(&client);
        QSignalSpy refreshed(&page, &StatusPage::refreshed);
        page.show(); // shown: it asks at once, then every RefreshMs
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, scaled(5000));
        QCOMPARE(page.field(QStringLiteral("port"))->text(), QString::number(home.port()));
        QVERIFY(page.field(QStringLiteral("database"))
                    ->text()
                    .startsWith(settingsFor(home).location.databasePath));
        QCOMPARE(page.field(QStringLiteral("peers"))->text(), QStringLiteral("0"));
        QCOMPARE(page.field(QStringLiteral("pending"))->text(), QStringLiteral("0"));
        // The row says where the token lives in the page's words (not the CLI's "Secrets:" line).
        const QString secrets = page.field(QStringLiteral("secrets"))->text();
        QVERIFY2(secrets.startsWith(QStringLiteral("local token in the ")), qPrintable(secrets));
        QVERIFY2(secrets.contains(home.tokenPath()), qPrintable(secrets));
        QVERIFY(page.diagnostics().contains(QStringLiteral("Secrets: local token in the ")));
        QVERIFY(page.field(QStringLiteral("federation"))->text().startsWith(QStringLiteral("off")));
        QVERIFY(page.field(QStringLiteral("rates"))->text().contains(QStringLiteral("messages/s")));
        QVERIFY(!page.problemLabel()->isVisible());

        // A peer registers: the next refresh (the timer, not a click) shows it.
        const auto reg = TestSupport::httpPostJson(
            home.port(), QStringLiteral("/register"),
            TrayTestSupport::registration(QCoreApplication::applicationPid(), QStringLiteral("/src/api")),
            home.token());
        QCOMPARE(reg.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(page.field(QStringLiteral("peers"))->text(), QStringLiteral("1"),
                                  scaled(3 * StatusPage::RefreshMs));

        QTest::mouseClick(page.copyButton(), Qt::LeftButton);
        const QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(copied, page.diagnostics());
        for (const QString &expected :
             {QStringLiteral("Broker: ok (1 peer(s) registered)"), QStringLiteral("URL: http://127.0.0.1:"),
              QStringLiteral("Secrets:"), QStringLiteral("Broker Metrics:"), QStringLiteral("Database: "),
              QStringLiteral("Tray: ")})
            QVERIFY2(copied.contains(expected), qPrintable(expected + QStringLiteral(" not in\n") + copied));
        QVERIFY(!copied.contains(QString::fromUtf8(home.token()))); // never the token itself

        // The broker stops: the page says so in plain words.
        host.stop();
        QTRY_VERIFY_WITH_TIMEOUT(page.problemLabel()->isVisible(), scaled(3 * StatusPage::RefreshMs + 5000));
        QVERIFY(page.problemLabel()->text().startsWith(QStringLiteral("The broker does not answer")));
        QCOMPARE(page.field(QStringLiteral("uptime"))->text(), QStringLiteral("unknown"));

        // Hidden: no more requests.
        page.hide();
        QTRY_VERIFY(!page.isRefreshing()); // a round already out may still finish
        refreshed.clear();
        QTest::qWait(scaled(2 * StatusPage::RefreshMs + 500));
        QCOMPARE(refreshed.count(), 0);
    }
};

QTEST_MAIN(tst_StatusPage)
#include "tst_statuspage.moc"
