// TrayPresenter and PeersModel driven by a real in-process broker on a free port.
#include "app/tray/brokerhost.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traypresenter.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <unistd.h>

using App::BrokerHost;
using App::PeersModel;
using App::TrayPresenter;
using TestSupport::scaled;
using TrayTestSupport::registration;
using TrayTestSupport::settingsFor;

class tst_TrayPresenter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reportsStoppedBeforeStart()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        TrayPresenter presenter(&host);
        QCOMPARE(presenter.statusText(), QStringLiteral("Broker not running: stopped"));
        QCOMPARE(presenter.iconState(), TrayPresenter::IconState::Error);
        QVERIFY(presenter.canRetry());
        QVERIFY(presenter.toolTip().startsWith(QStringLiteral("claude-peers\n")));
    }

    void followsPeersAndMessagesLive()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        TrayPresenter presenter(&host);
        PeersModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.attach(&host);
        QSignalSpy changed(&presenter, &TrayPresenter::changed);

        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        const QString port = QString::number(home.port());
        QCOMPARE(presenter.statusText(),
                 QStringLiteral("Broker running on port %1 — 0 peers, 0 pending").arg(port));
        QCOMPARE(presenter.iconState(), TrayPresenter::IconState::Idle);
        QVERIFY(!presenter.canRetry());
        QVERIFY(presenter.toolTip().contains(presenter.statusText()));
        QVERIFY(changed.count() > 0);

        const QByteArray token = home.token();
        QVERIFY(!token.isEmpty());
        // Two live pids: ours and our parent's (ctest or the shell), so neither is pruned.
        auto first = TestSupport::httpPostJson(
            home.port(), QStringLiteral("/register"),
            registration(QCoreApplication::applicationPid(), QStringLiteral("/work/alpha")), token);
        QCOMPARE(first.status, 200);
        const QString alpha = first.object().value(QStringLiteral("id")).toString();
        QVERIFY(!alpha.isEmpty());
        QTRY_COMPARE(model.rowCount(), 1);
        QTRY_COMPARE(presenter.statusText(),
                     QStringLiteral("Broker running on port %1 — 1 peer, 0 pending").arg(port));
        QCOMPARE(model.index(0, PeersModel::DirectoryColumn).data().toString(),
                 QStringLiteral("/work/alpha"));

        auto second =
            TestSupport::httpPostJson(home.port(), QStringLiteral("/register"),
                                      registration(::getppid(), QStringLiteral("/work/beta")), token);
        QCOMPARE(second.status, 200);
        const QString beta = second.object().value(QStringLiteral("id")).toString();
        QTRY_COMPARE(model.rowCount(), 2);
        QTRY_COMPARE(presenter.peerCount(), 2);

        // Rename: the row changes in place.
        QSignalSpy dataChanged(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QCOMPARE(TestSupport::httpPostJson(home.port(), QStringLiteral("/set-name"),
                                           {{QStringLiteral("id"), alpha},
                                            {QStringLiteral("session_name"), QStringLiteral("ALPHA")}},
                                           token)
                     .status,
                 200);
        QTRY_COMPARE(model.index(model.rowOf(alpha), PeersModel::NameColumn).data().toString(),
                     QStringLiteral("ALPHA"));
        QVERIFY(dataChanged.count() >= 1);

        // A message waiting for beta counts as pending until beta acknowledges it.
        const auto sent = TestSupport::httpPostJson(home.port(), QStringLiteral("/send-message"),
                                                    {{QStringLiteral("from_id"), alpha},
                                                     {QStringLiteral("to_id"), beta},
                                                     {QStringLiteral("text"), QStringLiteral("hello")}},
                                                    token);
        QCOMPARE(sent.status, 200);
        QVERIFY2(sent.object().value(QStringLiteral("ok")).toBool(), sent.body.constData());
        QTRY_COMPARE(presenter.statusText(),
                     QStringLiteral("Broker running on port %1 — 2 peers, 1 pending").arg(port));
        QCOMPARE(presenter.pendingCount(), 1);
        const qint64 messageId = sent.object().value(QStringLiteral("message_id")).toInteger();
        QCOMPARE(TestSupport::httpPostJson(
                     home.port(), QStringLiteral("/ack-messages"),
                     {{QStringLiteral("id"), beta}, {QStringLiteral("message_ids"), QJsonArray {messageId}}},
                     token)
                     .status,
                 200);
        QTRY_COMPARE(presenter.pendingCount(), 0);

        // Unregister: exactly that row goes.
        QCOMPARE(TestSupport::httpPostJson(home.port(), QStringLiteral("/unregister"),
                                           {{QStringLiteral("id"), beta}}, token)
                     .status,
                 200);
        QTRY_COMPARE(model.rowCount(), 1);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(model.peerAt(0).id, alpha);
        QTRY_COMPARE(presenter.statusText(),
                     QStringLiteral("Broker running on port %1 — 1 peer, 0 pending").arg(port));
        QCOMPARE(reset.count(), 0);

        // Stopping empties the table and says so.
        host.stop();
        QCOMPARE(presenter.statusText(), QStringLiteral("Broker not running: stopped"));
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(presenter.canRetry());
    }

    void reportsAFailureAndRecoversOnRetry()
    {
        TestSupport::TestHome home;
        // Something that is not a broker holds the port: it accepts and never answers.
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost, home.port()));

        BrokerHost host(settingsFor(home));
        host.setTiming({.retryIntervalMs = 50, .handoverTimeoutMs = 1000, .requestTimeoutMs = 500});
        TrayPresenter presenter(&host);
        QSignalSpy notified(&presenter, &TrayPresenter::notificationRequested);
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Failed, scaled(5000));
        QVERIFY2(presenter.statusText().startsWith(QStringLiteral("Broker not running: ")),
                 qPrintable(presenter.statusText()));
        QVERIFY2(presenter.statusText().contains(QString::number(home.port())),
                 qPrintable(presenter.statusText()));
        QCOMPARE(presenter.iconState(), TrayPresenter::IconState::Error);
        QVERIFY(presenter.canRetry());
        QCOMPARE(notified.count(), 1);
        const auto event = notified.at(0).at(0).value<App::NotificationEvent>();
        QCOMPARE(event.kind, App::NotificationKind::BrokerProblem);
        QCOMPARE(event.body, host.lastError().message);

        squatter.close();
        host.start();
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        QVERIFY(presenter.statusText().startsWith(QStringLiteral("Broker running on port")));
        QVERIFY(!presenter.canRetry());
    }

    void showsBusyWhileStartingOrHandingOver()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        TrayPresenter presenter(&host);
        QList<TrayPresenter::IconState> seen;
        connect(&presenter, &TrayPresenter::changed, this, [&] { seen << presenter.iconState(); });
        host.start();
        QTRY_COMPARE(host.state(), BrokerHost::State::Running);
        QVERIFY(seen.contains(TrayPresenter::IconState::Busy));
        QCOMPARE(seen.last(), TrayPresenter::IconState::Idle);
    }
};

QTEST_GUILESS_MAIN(tst_TrayPresenter)
#include "tst_traypresenter.moc"
