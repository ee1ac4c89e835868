// SettingsPage offscreen against a real broker in a temp HOME: fields from the config file,
// plain-words refusals, a save that keeps the file's other keys and is applied by /reload, the
// restart note, the autostart box and the snippets.
#include "brokerclient.h"
#include "brokerhost.h"
#include "configsettings.h"
#include "connectsnippets.h"
#include "settingspage.h"
#include "testsupport.h"
#include "traytestsupport.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

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
