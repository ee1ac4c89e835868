// SettingsPage offscreen against a real broker in a temp HOME: fields from the config file,
// plain-words refusals, a save that keeps the file's other keys and is applied by /reload, the
// restart note, the autostart box and the snippets.
#include "app/tray/brokerhost.h"
#include "app/tray/connectsnippets.h"
#include "app/tray/pages/notificationsettings.h"
#include "app/tray/pages/settingspage.h"
#include "common/brokerclient.h"
#include "common/configsettings.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimeEdit>

using App::BrokerHost;
using App::SettingsPage;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

class tst_SettingsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savesCheckedSettingsAndReloads()
    {
        TestSupport::TestHome home;
        const Broker::Location location = settingsFor(home).location;
        QFile file(location.configPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"federation":{"enabled":false,"port":7911},"mine":{"keep":true}})");
        file.close();
        BrokerHost host(settingsFor(home));
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));

        Broker::BrokerClient client(location);
        SettingsPage page(&client,
                          App::ConnectSnippets {QStringLiteral("/opt/cp/claude-peers-mcp"),
                                                QStringLiteral("/opt/cp/claude-peers")});
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.federationPortEdit()->text(), QStringLiteral("7911"));
        QVERIFY(page.subnetsEdit()->text().isEmpty());
        QVERIFY(page.brokerPortLabel()->text().startsWith(QString::number(home.port())));
        QVERIFY(page.brokerPortLabel()->text().contains(QStringLiteral("CLAUDE_PEERS_PORT")));

        // A bad value: refused in plain words, nothing written.
        QSignalSpy saved(&page, &SettingsPage::saved);
        page.subnetsEdit()->setText(QStringLiteral("192.168.1.0"));
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.first().at(0).toBool(), false);
        QVERIFY(page.saveStatus()->text().startsWith(QStringLiteral("Not saved: federation.subnets:")));
        QVERIFY(page.saveStatus()->text().contains(QStringLiteral("192.168.1.0/24")));
        QCOMPARE(Broker::ConfigFile::load(location.configPath).federationSubnets(), QStringList());

        // Good values: written with the rest of the file kept, and the broker reloads.
        page.subnetsEdit()->setText(QStringLiteral("192.168.1.0/24, fd00::/64"));
        page.federationPortEdit()->setText(QStringLiteral("7912"));
        saved.clear();
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, scaled(5000));
        QCOMPARE(saved.first().at(0).toBool(), true);
        QCOMPARE(page.saveStatus()->text(), QStringLiteral("Saved; the broker applied it."));
        const Broker::ConfigFile written = Broker::ConfigFile::load(location.configPath);
        QCOMPARE(written.federationPort(), std::optional<int>(7912));
        QCOMPARE(written.federationSubnets(),
                 (QStringList {QStringLiteral("192.168.1.0/24"), QStringLiteral("fd00::/64")}));
        QVERIFY(
            written.root().value(QStringLiteral("mine")).toObject().value(QStringLiteral("keep")).toBool());
        QCOMPARE(written.federationEnabled(), std::optional<bool>(false));

        // The OpenCode URL is read at start: the page says a restart is needed.
        page.openCodeUrlEdit()->setText(QStringLiteral("http://127.0.0.1:4100"));
        saved.clear();
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, scaled(5000));
        QVERIFY(page.saveStatus()->text().contains(QStringLiteral("claude-peers restart")));

        // Nothing changed: nothing written.
        saved.clear();
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QCOMPARE(page.saveStatus()->text(), QStringLiteral("Nothing changed."));

        // The broker is down: still saved, and said so.
        host.stop();
        page.federationPortEdit()->setText(QStringLiteral("7913"));
        saved.clear();
        QTest::mouseClick(page.saveButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, scaled(10000));
        QVERIFY(
            page.saveStatus()->text().startsWith(QStringLiteral("Saved; the broker did not take it now")));
        QCOMPARE(Broker::ConfigFile::load(location.configPath).federationPort(), std::optional<int>(7913));
    }

    // The notification preferences on the page and `claude-peers notifications` edit the same
    // object of the same file: what the page sets is what the CLI reports, and what the CLI sets
    // the page shows (it follows the file), keeping the file's other keys.
    void notificationPreferencesFollowTheCli()
    {
        TestSupport::TestHome home;
        const Broker::Location location = settingsFor(home).location;
        QFile file(location.configPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"mine":{"keep":true}})");
        file.close();
        Broker::BrokerClient client(location);
        SettingsPage page(&client,
                          App::ConnectSnippets {QStringLiteral("/opt/cp/claude-peers-mcp"),
                                                QStringLiteral("/opt/cp/claude-peers")});
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        App::NotificationSettings *n = page.notificationSettings();
        QVERIFY(n);
        const auto cli = [&home](const QStringList &args) {
            QProcess p;
            p.setProcessEnvironment(home.environment());
            p.start(TestSupport::cliExe(), QStringList {QStringLiteral("notifications")} + args);
            p.waitForFinished(TestSupport::scaled(10000));
            return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        };
        const auto status = [&cli] { return cli({QStringLiteral("status"), QStringLiteral("--json")}); };
        const auto kinds = [&status] { return status().value(QStringLiteral("kinds")).toObject(); };

        // The defaults, as the CLI has them.
        QVERIFY(n->enabledBox()->isChecked());
        QVERIFY(n->kindBox(App::NotificationKind::NeedsYou)->isChecked());
        QVERIFY(!n->kindBox(App::NotificationKind::PeerJoined)->isChecked());
        QVERIFY(!n->pausedBox()->isChecked());
        QCOMPARE(n->mutedList()->count(), 0);

        // Page → file → CLI.
        QSignalSpy changed(n, &App::NotificationSettings::changed);
        n->kindBox(App::NotificationKind::PeerJoined)->click();
        n->kindBox(App::NotificationKind::SessionDone)->click();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(kinds().value(QStringLiteral("peer_joined")).toBool(), true);
        QCOMPARE(kinds().value(QStringLiteral("session_done")).toBool(), false);
        n->quietFromEdit()->setTime(QTime(23, 0));
        n->quietToEdit()->setTime(QTime(6, 30));
        QCOMPARE(status().value(QStringLiteral("quiet_hours")), QJsonValue()); // not on yet
        n->quietHoursBox()->click();
        QCOMPARE(status().value(QStringLiteral("quiet_hours")).toString(), QStringLiteral("23:00-06:30"));
        n->quietToEdit()->setTime(QTime(7, 15));
        QCOMPARE(status().value(QStringLiteral("quiet_hours")).toString(), QStringLiteral("23:00-07:15"));
        n->onlyWaitingBox()->click();
        QCOMPARE(status().value(QStringLiteral("only_waiting_for_me")).toBool(), true);
        n->pausedBox()->click();
        QJsonObject now = status();
        QCOMPARE(now.value(QStringLiteral("paused")).toBool(), true);
        QCOMPARE(now.value(QStringLiteral("paused_until")), QJsonValue()); // until resumed
        QVERIFY(Broker::ConfigFile::load(location.configPath)
                    .root()
                    .value(QStringLiteral("mine"))
                    .toObject()
                    .value(QStringLiteral("keep"))
                    .toBool());

        // CLI → file → page (it follows the file while shown).
        cli({QStringLiteral("mute"), QStringLiteral("p1")});
        cli({QStringLiteral("mute"), QStringLiteral("p2")});
        QTRY_COMPARE_WITH_TIMEOUT(n->mutedList()->count(), 2, scaled(5000));
        QVERIFY(!n->unmuteButton()->isEnabled()); // nothing selected
        n->mutedList()->item(0)->setSelected(true);
        QCOMPARE(n->mutedList()->item(0)->text(), QStringLiteral("p1"));
        QVERIFY(n->unmuteButton()->isEnabled());
        n->unmuteButton()->click();
        QCOMPARE(status().value(QStringLiteral("muted_peers")).toArray(), QJsonArray {QStringLiteral("p2")});
        QCOMPARE(n->mutedList()->count(), 1);

        cli({QStringLiteral("resume")});
        QTRY_VERIFY_WITH_TIMEOUT(!n->pausedBox()->isChecked(), scaled(5000));
        cli({QStringLiteral("pause"), QStringLiteral("--for"), QStringLiteral("2h")});
        QTRY_VERIFY_WITH_TIMEOUT(n->pausedBox()->isChecked(), scaled(5000));
        QVERIFY2(n->pausedBox()->text().startsWith(QStringLiteral("Paused until ")),
                 qPrintable(n->pausedBox()->text()));
        cli({QStringLiteral("kind"), QStringLiteral("needs_you"), QStringLiteral("off")});
        QTRY_VERIFY_WITH_TIMEOUT(!n->kindBox(App::NotificationKind::NeedsYou)->isChecked(), scaled(5000));
        cli({QStringLiteral("quiet-hours"), QStringLiteral("off")});
        QTRY_VERIFY_WITH_TIMEOUT(!n->quietHoursBox()->isChecked(), scaled(5000));
        cli({QStringLiteral("off")});
        QTRY_VERIFY_WITH_TIMEOUT(!n->enabledBox()->isChecked(), scaled(5000));
        QVERIFY(!n->kindBox(App::NotificationKind::PeerJoined)->isEnabled()); // all off at once
        // Loading what the CLI wrote wrote nothing back.
        QCOMPARE(changed.count(), 7);

        // A file that does not parse: the page says so and changes nothing.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{ not json");
        file.close();
        page.hide();
        page.show(); // read again when shown
        QVERIFY(!n->statusLabel()->text().isEmpty());
        QVERIFY(!n->enabledBox()->isEnabled());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("{ not json"));
    }

    void autostartBoxAndSnippets()
    {
        SettingsPage page(nullptr,
                          App::ConnectSnippets {QStringLiteral("/opt/my tools/claude-peers-mcp"),
                                                QStringLiteral("/opt/cp/claude-peers")});
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy toggled(&page, &SettingsPage::autostartToggled);
        page.setAutostartChecked(true);
        QCOMPARE(toggled.count(), 0); // set from the file system, not the user
        page.autostartBox()->click(); // as a user click: clicked(), unlike setChecked
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled.first().at(0).toBool(), false);

        QCOMPARE(page.mcpAddView()->toPlainText(),
                 QStringLiteral("claude mcp add --scope user --transport stdio claude-peers -- "
                                "'/opt/my tools/claude-peers-mcp'"));
        QVERIFY(page.openCodeView()->toPlainText().contains(
            QStringLiteral("\"/opt/my tools/claude-peers-mcp\"")));
        const QJsonObject hooks = QJsonDocument::fromJson(page.hooksView()->toPlainText().toUtf8()).object();
        QVERIFY(hooks.value(QStringLiteral("hooks")).toObject().contains(QStringLiteral("Notification")));
        QVERIFY(page.hooksView()->toPlainText().contains(
            QStringLiteral("/opt/cp/claude-peers hook Notification")));
        auto *copy = page.findChild<QPushButton *>(QStringLiteral("mcpAddCopy"));
        QVERIFY(copy);
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), page.mcpAddView()->toPlainText());
    }
};

QTEST_MAIN(tst_SettingsPage)
#include "tst_settingspage.moc"
