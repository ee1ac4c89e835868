// PeersWindow offscreen: the table shows the model's rows, sorts, filters, shows the status.
#include "brokerhost.h"
#include "peersmodel.h"
#include "peerswindow.h"
#include "testsupport.h"
#include "traypresenter.h"
#include "traytestsupport.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <unistd.h>

using App::BrokerHost;
using App::PeersModel;
using App::PeersWindow;
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

QStringList column(QAbstractItemModel *model, int col)
{
    QStringList out;
    for (int row = 0; row < model->rowCount(); ++row)
        out << model->index(row, col).data().toString();
    return out;
}

} // namespace

class tst_PeersWindow : public QObject
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
        PeersWindow window(&model, &presenter);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QAbstractItemModel *shown = window.view()->model();
        QCOMPARE(shown->rowCount(), 3);
        QCOMPARE(shown->columnCount(), int(PeersModel::ColumnCount));
        // Attention-ordered by default: with no state known, by name, case-insensitively.
        QCOMPARE(column(shown, PeersModel::NameColumn),
                 (QStringList {QStringLiteral("alpha"), QStringLiteral("Bravo"), QStringLiteral("charlie")}));
        window.view()->sortByColumn(PeersModel::IdColumn, Qt::DescendingOrder);
        QCOMPARE(column(shown, PeersModel::IdColumn).first(), QStringLiteral("cccc0003"));

        // The filter matches any column.
        QTest::keyClicks(window.filterEdit(), QStringLiteral("/SRC/API"));
        QCOMPARE(shown->rowCount(), 2);
        window.filterEdit()->setText(QStringLiteral("css"));
        QCOMPARE(shown->rowCount(), 1);
        QCOMPARE(shown->index(0, PeersModel::NameColumn).data().toString(), QStringLiteral("charlie"));
        window.filterEdit()->clear();
        QCOMPARE(shown->rowCount(), 3);

        // A new peer appears while filtered views stay consistent.
        window.filterEdit()->setText(QStringLiteral("delta"));
        QCOMPARE(shown->rowCount(), 0);
        model.sync(
            {model.peerAt(0), model.peerAt(1), model.peerAt(2),
             peer(QStringLiteral("dddd0004"), QStringLiteral("delta"), QStringLiteral("/src/db"), {})});
        QCOMPARE(shown->rowCount(), 1);

        // Broker not running: the status says so and Retry is offered.
        QCOMPARE(window.statusLabel()->text(), presenter.statusText());
        QVERIFY(window.statusLabel()->text().startsWith(QStringLiteral("Broker not running")));
        QVERIFY(window.retryButton()->isVisible());
        QSignalSpy retry(&window, &PeersWindow::retryRequested);
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
        PeersWindow window(&model, &presenter);
        QObject::connect(&window, &PeersWindow::retryRequested, &host, &BrokerHost::start);
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
        QTRY_COMPARE(window.view()->model()->rowCount(), 2);
        QTRY_COMPARE(column(window.view()->model(), PeersModel::NameColumn),
                     (QStringList {QStringLiteral("API_WORKER"), QStringLiteral("TRAY")}));
        QTRY_COMPARE(column(window.view()->model(), PeersModel::PushColumn),
                     (QStringList {QStringLiteral("working"), QStringLiteral("working")}));
        QTRY_VERIFY(window.statusLabel()->text().contains(QStringLiteral("2 peers")));

        // For a human look at the layout: PEERS_TRAY_SCREENSHOT=/tmp/peers.png
        const QString shot = qEnvironmentVariable("PEERS_TRAY_SCREENSHOT");
        if (!shot.isEmpty())
            QVERIFY(window.grab().save(shot));
    }
};

QTEST_MAIN(tst_PeersWindow)
#include "tst_peerswindow.moc"
