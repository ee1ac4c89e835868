// PeersPage offscreen: peers grouped by machine, sorted within, filtered, details, rename, status.
#include "app/tray/brokerhost.h"
#include "app/tray/pages/peerspage.h"
#include "app/tray/peersbymachinemodel.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traypresenter.h"
#include "common/brokerclient.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>

#include <unistd.h>

using App::BrokerHost;
using App::PeersModel;
using App::PeersPage;
using App::TrayPresenter;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

namespace {

Broker::Peer peer(const QString &id, const QString &name, const QString &cwd, const QString &summary)
{
    Broker::Peer p;
    p.id = id;
    p.pid = 100;
    p.sessionName = name;
    p.cwd = cwd;
    p.summary = summary;
    p.channelPush = QStringLiteral("working");
    p.lastSeen = QStringLiteral("2025-03-04T05:06:07.000Z");
    return p;
}

// The cells of one column, peers only, machine after machine in the view's order.
QStringList column(QAbstractItemModel *model, int col)
{
    QStringList out;
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex machine = model->index(g, 0);
        for (int row = 0; row < model->rowCount(machine); ++row)
            out << model->index(row, col, machine).data().toString();
    }
    return out;
}

int peerRows(QAbstractItemModel *model)
{
    return int(column(model, PeersModel::IdColumn).size());
}

QStringList machines(QAbstractItemModel *model)
{
    QStringList out;
    for (int g = 0; g < model->rowCount(); ++g)
        out << model->index(g, 0).data(PeersModel::MachineRole).toString();
    return out;
}

} // namespace

class tst_PeersPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsSortsAndFiltersRows()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home)); // not started
        TrayPresenter presenter(&host);
        PeersModel model;
        model.sync({peer(QStringLiteral("cccc0003"), QStringLiteral("charlie"), QStringLiteral("/src/web"),
                         QStringLiteral("CSS fixes")),
                    peer(QStringLiteral("aaaa0001"), QStringLiteral("alpha"), QStringLiteral("/src/api"),
                         QStringLiteral("auth refactor")),
                    peer(QStringLiteral("bbbb0002"), QStringLiteral("Bravo"), QStringLiteral("/src/api"),
                         QStringLiteral("tests"))});
        PeersPage window(&model, &presenter, nullptr);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QAbstractItemModel *shown = window.view()->model();
        QCOMPARE(peerRows(shown), 3);
        QCOMPARE(shown->columnCount(), int(PeersModel::ColumnCount));
        // Attention-ordered by default: with no state known, by name, case-insensitively.
        QCOMPARE(column(shown, PeersModel::NameColumn),
                 (QStringList {QStringLiteral("alpha"), QStringLiteral("Bravo"), QStringLiteral("charlie")}));
        window.view()->sortByColumn(PeersModel::IdColumn, Qt::DescendingOrder);
        QCOMPARE(column(shown, PeersModel::IdColumn).first(), QStringLiteral("cccc0003"));

        // The filter matches any column.
        QTest::keyClicks(window.filterEdit(), QStringLiteral("/SRC/API"));
        QCOMPARE(peerRows(shown), 2);
        window.filterEdit()->setText(QStringLiteral("css"));
        QCOMPARE(peerRows(shown), 1);
        QCOMPARE(column(shown, PeersModel::NameColumn), QStringList {QStringLiteral("charlie")});
        window.filterEdit()->clear();
        QCOMPARE(peerRows(shown), 3);

        // A new peer appears while filtered views stay consistent.
        window.filterEdit()->setText(QStringLiteral("delta"));
        QCOMPARE(peerRows(shown), 0);
        model.sync(
            {model.peerAt(0), model.peerAt(1), model.peerAt(2),
             peer(QStringLiteral("dddd0004"), QStringLiteral("delta"), QStringLiteral("/src/db"), {})});
        QCOMPARE(peerRows(shown), 1);
        window.filterEdit()->clear();

        // Broker not running: the status says so and Retry is offered.
        QCOMPARE(window.statusLabel()->text(), presenter.statusText());
        QVERIFY(window.statusLabel()->text().startsWith(QStringLiteral("Broker not running")));
        QVERIFY(window.retryButton()->isVisible());
        QSignalSpy retry(&window, &PeersPage::retryRequested);
        QTest::mouseClick(window.retryButton(), Qt::LeftButton);
        QCOMPARE(retry.count(), 1);
    }

    void showsLiveBrokerPeers()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        TrayPresenter presenter(&host);
        PeersModel model;
        model.attach(&host);
        Broker::BrokerClient client(settingsFor(home).location);
        PeersPage window(&model, &presenter, &client);
        QObject::connect(&window, &PeersPage::retryRequested, &host, &BrokerHost::start);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.retryButton()->isVisible());
        QTest::mouseClick(window.retryButton(), Qt::LeftButton); // Retry starts the broker
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        QTRY_VERIFY(!window.retryButton()->isVisible());
        QVERIFY(window.statusLabel()->text().startsWith(QStringLiteral("Broker running on port")));

        const QByteArray token = home.token();
        const struct
        {
            qint64 pid;
            const char *cwd;
            const char *name;
            const char *summary;
        } sessions[] = {
            {QCoreApplication::applicationPid(), "/home/dev/claude-peers", "API_WORKER",
             "[claude-peers:main] Implementing the broker HTTP API"},
            {::getppid(), "/home/dev/claude-peers/app/tray", "TRAY",
             "[claude-peers:main] Tray app and Peers window"},
        };
        for (const auto &s : sessions) {
            const auto reg = TestSupport::httpPostJson(
                home.port(), QStringLiteral("/register"),
                {{QStringLiteral("pid"), s.pid},
                 {QStringLiteral("cwd"), QString::fromUtf8(s.cwd)},
                 {QStringLiteral("git_root"), QStringLiteral("/home/dev/claude-peers")},
                 {QStringLiteral("tty"), QJsonValue::Null},
                 {QStringLiteral("session_name"), QString::fromUtf8(s.name)},
                 {QStringLiteral("summary"), QString::fromUtf8(s.summary)}},
                token);
            QCOMPARE(reg.status, 200);
            const QString id = reg.object().value(QStringLiteral("id")).toString();
            TestSupport::httpPostJson(
                home.port(), QStringLiteral("/set-channel-push"),
                {{QStringLiteral("id"), id}, {QStringLiteral("status"), QStringLiteral("working")}}, token);
        }
        QTRY_COMPARE(peerRows(window.view()->model()), 2);
        QTRY_COMPARE(column(window.view()->model(), PeersModel::NameColumn),
                     (QStringList {QStringLiteral("API_WORKER"), QStringLiteral("TRAY")}));
        QTRY_COMPARE(column(window.view()->model(), PeersModel::ReachabilityColumn),
                     (QStringList {QStringLiteral("push"), QStringLiteral("push")}));
        QCOMPARE(column(window.view()->model(), PeersModel::ProjectColumn),
                 (QStringList {QStringLiteral("claude-peers [main]"),
                               QStringLiteral("claude-peers/app/tray [main]")}));
        QTRY_VERIFY(window.statusLabel()->text().contains(QStringLiteral("2 peers")));

        // Rename through the broker (/set-name with the main token): the row follows.
        const QString trayId =
            model.peerAt(model.rowOf(column(window.view()->model(), PeersModel::IdColumn).at(1))).id;
        window.selectPeer(trayId);
        QCOMPARE(window.selectedPeerId(), trayId);
        QVERIFY(window.detailsView()->toPlainText().contains(QStringLiteral("Name: TRAY")));
        QVERIFY(window.renameButton()->isEnabled());
        QCOMPARE(window.nameEdit()->text(), QStringLiteral("TRAY"));
        QSignalSpy renamed(&window, &PeersPage::peerRenamed);
        window.nameEdit()->setText(QStringLiteral("  tray-window  "));
        QTest::mouseClick(window.renameButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(renamed.count(), 1, scaled(5000));
        QCOMPARE(renamed.first().at(1).toString(), QStringLiteral("tray-window"));
        QTRY_VERIFY(
            column(window.view()->model(), PeersModel::NameColumn).contains(QStringLiteral("tray-window")));
        QTRY_VERIFY(window.detailsView()->toPlainText().contains(QStringLiteral("Name: tray-window")));
        QCOMPARE(window.selectedPeerId(), trayId); // the selection stays on the renamed row

        // An empty name is refused here, in plain words, without asking the broker.
        window.nameEdit()->setText(QStringLiteral("   "));
        QTest::mouseClick(window.renameButton(), Qt::LeftButton);
        QCOMPARE(window.renameStatus()->text(), QStringLiteral("Type a name first."));
        // A name the broker refuses (over 2048 bytes) comes back as its error.
        window.nameEdit()->setText(QString(3000, QLatin1Char('x')));
        QTest::mouseClick(window.renameButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.renameStatus()->text().startsWith(QStringLiteral("Could not rename")),
                                 scaled(5000));
        QVERIFY(window.renameStatus()->text().contains(QStringLiteral("2048")));
        QCOMPARE(renamed.count(), 1);

        // For a human look at the layout: PEERS_TRAY_SCREENSHOT=/tmp/peers.png
        const QString shot = qEnvironmentVariable("PEERS_TRAY_SCREENSHOT");
        if (!shot.isEmpty())
            QVERIFY(window.grab().save(shot));
    }

    void groupsByMachineWithBadgesMarkersAndDetails()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home)); // not started
        TrayPresenter presenter(&host);
        PeersModel model;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        model.setClock([now] { return now; });
        const QString fresh = now.addSecs(-2).toString(Qt::ISODateWithMs);
        Broker::Peer a =
            peer(QStringLiteral("aaaa0001"), QStringLiteral("alpha"), QStringLiteral("/src/api"), {});
        a.lastSeen = fresh;
        Broker::Peer b =
            peer(QStringLiteral("bbbb0002"), QStringLiteral("bravo"), QStringLiteral("/src/api"), {});
        b.lastSeen = fresh;
        b.channelPush = QStringLiteral("unverified");
        b.attention = Broker::Attention::NeedsYou;
        b.attentionSince = now.addSecs(-90).toString(Qt::ISODateWithMs);
        Broker::Peer remote = peer(QStringLiteral("lab-box:cccc0003"), QStringLiteral("charlie"),
                                   QStringLiteral("/src/api"), {});
        remote.lastSeen = now.addSecs(-45).toString(Qt::ISODateWithMs);
        remote.channelPush.clear();
        Broker::Peer other =
            peer(QStringLiteral("attic:dddd0004"), QStringLiteral("delta"), QStringLiteral("/x"), {});
        other.lastSeen = fresh;
        model.sync({remote, a, other, b});
        Broker::BrokerClient client(settingsFor(home).location);
        PeersPage page(&model, &presenter, &client);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));

        QAbstractItemModel *shown = page.view()->model();
        // This machine first, then the others by hostname; who needs you first within a machine.
        QCOMPARE(machines(shown),
                 (QStringList {QString(), QStringLiteral("attic"), QStringLiteral("lab-box")}));
        QCOMPARE(column(shown, PeersModel::NameColumn),
                 (QStringList {QStringLiteral("bravo"), QStringLiteral("alpha"), QStringLiteral("delta"),
                               QStringLiteral("charlie")}));
        // Sorting the other way keeps the machines' order.
        page.view()->sortByColumn(PeersModel::NameColumn, Qt::DescendingOrder);
        QCOMPARE(machines(shown),
                 (QStringList {QString(), QStringLiteral("attic"), QStringLiteral("lab-box")}));
        QCOMPARE(column(shown, PeersModel::NameColumn).mid(0, 2),
                 (QStringList {QStringLiteral("bravo"), QStringLiteral("alpha")}));
        QVERIFY(page.view()->isExpanded(shown->index(2, 0)));
        QCOMPARE(column(shown, PeersModel::ReachabilityColumn),
                 (QStringList {QStringLiteral("poll only"), QStringLiteral("push"), QStringLiteral("push"),
                               QStringLiteral("stale")}));
        // Same folder on this machine: both marked (an icon and the names in the role); the
        // remote peer in a folder of the same path is another machine's folder.
        const QModelIndex here = shown->index(0, 0);
        QVERIFY(!shown->index(0, PeersModel::NameColumn, here).data(Qt::DecorationRole).isNull());
        QCOMPARE(
            shown->index(0, PeersModel::NameColumn, here).data(PeersModel::SameFolderRole).toStringList(),
            QStringList {QStringLiteral("alpha")});
        QVERIFY(
            shown->index(0, PeersModel::NameColumn, shown->index(2, 0)).data(Qt::DecorationRole).isNull());
        // Filtering by a machine's name shows its peers.
        page.filterEdit()->setText(QStringLiteral("lab-box"));
        QCOMPARE(column(shown, PeersModel::NameColumn), QStringList {QStringLiteral("charlie")});
        page.filterEdit()->clear();

        // Details: every field, copyable; a remote peer cannot be renamed from here.
        QVERIFY(!page.copyDetailsButton()->isEnabled());
        page.selectPeer(QStringLiteral("lab-box:cccc0003"));
        QVERIFY(page.detailsView()->toPlainText().contains(QStringLiteral("Machine: lab-box")));
        QVERIFY(!page.renameButton()->isEnabled());
        page.selectPeer(QStringLiteral("bbbb0002"));
        QVERIFY(page.renameButton()->isEnabled());
        QTest::mouseClick(page.copyDetailsButton(), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), page.detailsView()->toPlainText());
        QVERIFY(page.detailsView()->toPlainText().contains(QStringLiteral("State: needs you")));

        // The selected peer leaves: the panel no longer shows it.
        model.sync({remote, a, other});
        QVERIFY(!page.detailsView()->toPlainText().contains(QLatin1String("bbbb0002")));
        QCOMPARE(page.detailsView()->toPlainText().isEmpty(), page.selectedPeerId().isEmpty());
    }

    // The scope box offers the machines, repos and folders present (0.7's scopes) and filters
    // by one, with the text filter on top; it follows peers that come, keeping the choice. The
    // scope column shows the repo, else the folder. A peer's action is Message.
    void scopeBoxFiltersAndMessageAction()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home)); // not started
        TrayPresenter presenter(&host);
        PeersModel model;
        Broker::Peer a =
            peer(QStringLiteral("aaaa0001"), QStringLiteral("alpha"), QStringLiteral("/src/api/server"), {});
        a.gitRoot = QStringLiteral("/src/api");
        Broker::Peer b =
            peer(QStringLiteral("bbbb0002"), QStringLiteral("bravo"), QStringLiteral("/src/api"), {});
        b.gitRoot = QStringLiteral("/src/api");
        Broker::Peer c =
            peer(QStringLiteral("cccc0003"), QStringLiteral("charlie"), QStringLiteral("/notes"), {});
        Broker::Peer r =
            peer(QStringLiteral("lab-box:dddd0004"), QStringLiteral("delta"), QStringLiteral("/src/api"), {});
        r.gitRoot = QStringLiteral("/src/api");
        model.sync({a, b, c, r});
        PeersPage page(&model, &presenter, nullptr);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QAbstractItemModel *shown = page.view()->model();
        QVERIFY(!page.openSessionButton()->isVisible()); // no OpenCode sessions on this page

        QStringList scopes;
        for (int i = 0; i < page.scopeBox()->count(); ++i)
            scopes << page.scopeBox()->itemText(i);
        QCOMPARE(scopes,
                 (QStringList {QStringLiteral("All scopes"), QStringLiteral("Machine: this machine"),
                               QStringLiteral("Machine: lab-box"), QStringLiteral("Repo: /src/api"),
                               QStringLiteral("Repo: /src/api (lab-box)"), QStringLiteral("Folder: /notes"),
                               QStringLiteral("Folder: /src/api"), QStringLiteral("Folder: /src/api/server"),
                               QStringLiteral("Folder: /src/api (lab-box)")}));
        QCOMPARE(page.scopeBox()->currentIndex(), 0);
        page.view()->sortByColumn(PeersModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(column(shown, PeersModel::ScopeColumn),
                 (QStringList {QStringLiteral("/src/api"), QStringLiteral("/src/api"),
                               QStringLiteral("/notes"), QStringLiteral("/src/api")}));

        page.scopeBox()->setCurrentIndex(3); // the repo on this machine
        QCOMPARE(column(shown, PeersModel::NameColumn),
                 (QStringList {QStringLiteral("alpha"), QStringLiteral("bravo")}));
        page.filterEdit()->setText(QStringLiteral("server"));
        QCOMPARE(column(shown, PeersModel::NameColumn), QStringList {QStringLiteral("alpha")});
        page.filterEdit()->clear();
        page.scopeBox()->setCurrentIndex(2); // lab-box
        QCOMPARE(column(shown, PeersModel::NameColumn), QStringList {QStringLiteral("delta")});
        QCOMPARE(machines(shown), QStringList {QStringLiteral("lab-box")});

        // A peer in a new folder: a new entry, the choice stays.
        Broker::Peer e =
            peer(QStringLiteral("eeee0005"), QStringLiteral("echo"), QStringLiteral("/srv/web"), {});
        model.sync({a, b, c, r, e});
        QCOMPARE(page.scopeBox()->count(), int(scopes.size()) + 1);
        QCOMPARE(page.scopeBox()->currentText(), QStringLiteral("Machine: lab-box"));
        QCOMPARE(column(shown, PeersModel::NameColumn), QStringList {QStringLiteral("delta")});
        // lab-box's peer leaves: its scope stays chosen (and empty) until another is chosen.
        model.sync({a, b, c, e});
        QCOMPARE(page.scopeBox()->currentText(), QStringLiteral("Machine: lab-box"));
        QCOMPARE(peerRows(shown), 0);
        page.scopeBox()->setCurrentIndex(0);
        QCOMPARE(peerRows(shown), 4);

        // Message: the selected peer's action (button, or double click / Enter on the row).
        QSignalSpy message(&page, &PeersPage::messageRequested);
        QVERIFY(!page.messageButton()->isEnabled());
        page.selectPeer(QStringLiteral("cccc0003"));
        QVERIFY(page.messageButton()->isEnabled());
        QTest::mouseClick(page.messageButton(), Qt::LeftButton);
        Q_EMIT page.view()->activated(page.view()->currentIndex());
        QCOMPARE(message.size(), 2);
        QCOMPARE(message.at(1).at(0).toString(), QStringLiteral("cccc0003"));
    }
};

QTEST_MAIN(tst_PeersPage)
#include "tst_peerspage.moc"
