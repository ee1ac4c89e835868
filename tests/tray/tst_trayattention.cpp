// The tray's attention path without a broker or a display: the worst-of state, the attention
// order, the presenter's tooltip, count and menu entries, its skipping of unchanged updates,
// the tray menu's peer entries and the peers table's state column. A fixed clock, no timing.
#include "app/tray/attention.h"
#include "app/tray/peersmodel.h"
#include "app/tray/trayicon.h"
#include "app/tray/traypresenter.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using App::AttentionSummary;
using App::PeersModel;
using App::TrayPresenter;
using App::TrayState;
using Broker::Attention;

Q_DECLARE_METATYPE(Broker::Attention)
Q_DECLARE_METATYPE(App::TrayState)

namespace {

const QDateTime Now = QDateTime::fromString(u"2026-11-30T12:00:00.000Z"_s, Qt::ISODateWithMs);

Broker::Peer peer(const QString &id, const QString &name, Attention state = Attention::Unknown,
                  qint64 secondsAgo = 0, const QString &message = {})
{
    Broker::Peer p;
    p.id = id;
    p.pid = 100;
    p.cwd = u"/work/"_s + id;
    p.sessionName = name;
    p.registeredAt = u"2026-11-30T10:00:00.000Z"_s;
    p.lastSeen = u"2026-11-30T11:59:59.000Z"_s;
    p.attention = state;
    if (state != Attention::Unknown)
        p.attentionSince = Now.addSecs(-secondsAgo).toString(Qt::ISODateWithMs);
    p.attentionMessage = message;
    return p;
}

TrayPresenter::Input running(const QList<Broker::Peer> &peers, qint64 pending = 0)
{
    TrayPresenter::Input input;
    input.state = App::BrokerHost::State::Running;
    input.port = 7999;
    input.snapshot.peers = peers;
    input.snapshot.pendingMessages = pending;
    return input;
}

QStringList ids(const QList<App::AttentionItem> &items)
{
    QStringList out;
    for (const auto &item : items)
        out << item.peerId;
    return out;
}

} // namespace

class tst_TrayAttention : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ordersByUrgencyThenLongestWaiting()
    {
        const AttentionSummary summary = AttentionSummary::of({
            peer(u"idle1"_s, u"zulu"_s, Attention::Idle, 30),
            peer(u"unk1"_s, u"bravo"_s),
            peer(u"need1"_s, u"newer"_s, Attention::NeedsYou, 10),
            peer(u"busy1"_s, u"worker"_s, Attention::Busy, 5),
            peer(u"need2"_s, u"older"_s, Attention::NeedsYou, 600),
            peer(u"unk2"_s, u"alpha"_s),
        });
        QCOMPARE(ids(summary.items),
                 QStringList({u"need2"_s, u"need1"_s, u"busy1"_s, u"idle1"_s, u"unk2"_s, u"unk1"_s}));
        QCOMPARE(summary.needsYou, 2);
        QCOMPARE(summary.busy, 1);
        QCOMPARE(summary.idle, 1);
    }

    void worstOf_data()
    {
        QTest::addColumn<Attention>("peerState");
        QTest::addColumn<bool>("failed");
        QTest::addColumn<bool>("starting");
        QTest::addColumn<qint64>("pending");
        QTest::addColumn<TrayState>("expected");
        QTest::newRow("needs-you beats all")
            << Attention::NeedsYou << true << true << qint64(3) << TrayState::NeedsYou;
        QTest::newRow("error beats busy")
            << Attention::Busy << true << false << qint64(3) << TrayState::Error;
        QTest::newRow("busy beats unread")
            << Attention::Busy << false << false << qint64(3) << TrayState::Busy;
        QTest::newRow("starting is busy") << Attention::Idle << false << true << qint64(0) << TrayState::Busy;
        QTest::newRow("unread beats idle")
            << Attention::Idle << false << false << qint64(1) << TrayState::Unread;
        QTest::newRow("idle") << Attention::Idle << false << false << qint64(0) << TrayState::Idle;
        QTest::newRow("unknown is idle")
            << Attention::Unknown << false << false << qint64(0) << TrayState::Idle;
    }
    void worstOf()
    {
        QFETCH(Attention, peerState);
        QFETCH(bool, failed);
        QFETCH(bool, starting);
        QFETCH(qint64, pending);
        QFETCH(TrayState, expected);
        const AttentionSummary summary = AttentionSummary::of(
            {peer(u"a"_s, u"a"_s, peerState, 1), peer(u"b"_s, u"b"_s, Attention::Idle, 1)});
        QCOMPARE(summary.trayState(failed, starting, pending), expected);
    }

    void timeInStateTexts_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("seconds") << qint64(12) << u"12 s"_s;
        QTest::newRow("minutes") << qint64(3 * 60 + 59) << u"3 min"_s;
        QTest::newRow("whole hours") << qint64(2 * 3600) << u"2 h"_s;
        QTest::newRow("hours and minutes") << qint64(2 * 3600 + 5 * 60) << u"2 h 5 min"_s;
        QTest::newRow("days") << qint64(3 * 86400 + 7200) << u"3 d"_s;
        QTest::newRow("clock skew") << qint64(-40) << u"0 s"_s;
    }
    void timeInStateTexts()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, text);
        QCOMPARE(App::AttentionText::timeInState(Now.addSecs(-seconds), Now), text);
    }

    void presenterShowsWhoNeedsYou()
    {
        TrayPresenter presenter(nullptr);
        presenter.setClock([] { return Now; });
        QCOMPARE(presenter.iconState(), TrayState::Error); // no broker
        QVERIFY(presenter.canRetry());

        presenter.present(
            running({peer(u"p1"_s, u"alpha"_s, Attention::NeedsYou, 180, u"Allow Bash?"_s),
                     peer(u"p2"_s, u"beta"_s, Attention::Busy, 40),
                     peer(u"p3"_s, u"gamma"_s, Attention::NeedsYou, 20), peer(u"p4"_s, u"delta"_s)},
                    2));
        QCOMPARE(presenter.iconState(), TrayState::NeedsYou);
        QCOMPARE(presenter.iconCount(), 2);
        QCOMPARE(presenter.toolTip(),
                 u"claude-peers\n2 sessions need you: alpha, gamma\n1 busy, 0 idle\n"
                 "Broker running on port 7999 — 4 peers, 2 pending"_s);
        const auto items = presenter.menuItems();
        QCOMPARE(ids(items), QStringList({u"p1"_s, u"p3"_s, u"p2"_s, u"p4"_s}));
        QCOMPARE(presenter.menuText(items.at(0)), u"alpha — needs you · 3 min"_s);
        QCOMPARE(presenter.menuText(items.at(2)), u"beta — busy · 40 s"_s);
        QCOMPARE(presenter.menuText(items.at(3)), u"delta"_s);

        // Busy and unread carry no count.
        presenter.present(running({peer(u"p2"_s, u"beta"_s, Attention::Busy, 40)}, 2));
        QCOMPARE(presenter.iconState(), TrayState::Busy);
        QCOMPARE(presenter.iconCount(), 0);
        presenter.present(running({peer(u"p2"_s, u"beta"_s, Attention::Idle, 1)}, 2));
        QCOMPARE(presenter.iconState(), TrayState::Unread);
        QCOMPARE(presenter.iconCount(), 0);
    }

    void presenterSaysFederationWarningsOnce()
    {
        TrayPresenter presenter(nullptr);
        QSignalSpy notified(&presenter, &TrayPresenter::notificationRequested);
        const QString copied = u"The federation PSK is a copy of the local token: run rotate-psk"_s;
        TrayPresenter::Input input = running({peer(u"p1"_s, u"alpha"_s)});
        input.snapshot.federationWarnings = {copied};
        presenter.present(input);
        QVERIFY(presenter.toolTip().endsWith(u"\n"_s + copied));
        QCOMPARE(notified.count(), 1);
        const auto event = notified.at(0).at(0).value<App::NotificationEvent>();
        QCOMPARE(event.kind, App::NotificationKind::FederationWarning);
        QCOMPARE(event.body, copied);

        // Said once: the same warning on later snapshots changes nothing.
        input.snapshot.pendingMessages = 3;
        presenter.present(input);
        QCOMPARE(notified.count(), 1);
        // Gone (rotated), it leaves the tooltip; should it come back, it is said again.
        presenter.present(running({peer(u"p1"_s, u"alpha"_s)}));
        QVERIFY(!presenter.toolTip().contains(copied));
        presenter.present(input);
        QCOMPARE(notified.count(), 2);
    }

    // What the presenter asks to be told: a session that starts needing you (once per time it
    // starts), peers that join or leave after the first running snapshot; not a restated state.
    void presenterAsksForNeedsYouJoinedAndLeft()
    {
        TrayPresenter presenter(nullptr);
        QSignalSpy notified(&presenter, &TrayPresenter::notificationRequested);
        const auto events = [&] {
            QList<App::NotificationEvent> out;
            for (const auto &args : std::as_const(notified))
                out << args.at(0).value<App::NotificationEvent>();
            notified.clear();
            return out;
        };
        presenter.present(running({peer(u"p1"_s, u"alpha"_s, Attention::Busy, 5),
                                   peer(u"p2"_s, u"beta"_s, Attention::NeedsYou, 3, u"Allow Bash?"_s)}));
        auto seen = events();
        QCOMPARE(seen.size(), 1); // the first snapshot: nobody "joined"; beta needs you
        QCOMPARE(seen.at(0).kind, App::NotificationKind::NeedsYou);
        QCOMPARE(seen.at(0).peerId, u"p2"_s);
        QCOMPARE(seen.at(0).title, u"beta needs you"_s);
        QCOMPARE(seen.at(0).body, u"Allow Bash?"_s);

        // Still needing you: not said again. alpha starts needing you; gamma joins; beta leaves.
        presenter.present(running({peer(u"p1"_s, u"alpha"_s, Attention::NeedsYou, 1, u"Question"_s),
                                   peer(u"p3"_s, u"gamma"_s, Attention::Idle, 0)}));
        seen = events();
        QCOMPARE(seen.size(), 3);
        QCOMPARE(seen.at(0).kind, App::NotificationKind::NeedsYou);
        QCOMPARE(seen.at(0).peerId, u"p1"_s);
        QCOMPARE(seen.at(1).kind, App::NotificationKind::PeerJoined);
        QCOMPARE(seen.at(1).peerId, u"p3"_s);
        QCOMPARE(seen.at(2).kind, App::NotificationKind::PeerLeft);
        QCOMPARE(seen.at(2).peerId, u"p2"_s);
        QCOMPARE(seen.at(2).title, u"beta left"_s);

        // The broker stops and runs again with the same peers: nothing joined, nobody new needs you.
        TrayPresenter::Input stopped;
        presenter.present(stopped);
        presenter.present(running({peer(u"p1"_s, u"alpha"_s, Attention::NeedsYou, 1, u"Question"_s),
                                   peer(u"p3"_s, u"gamma"_s, Attention::Idle, 0)}));
        QCOMPARE(events().size(), 0);
        // alpha is answered, then needs you again: said again.
        presenter.present(
            running({peer(u"p1"_s, u"alpha"_s, Attention::Busy, 0), peer(u"p3"_s, u"gamma"_s)}));
        QCOMPARE(events().size(), 0);
        presenter.present(
            running({peer(u"p1"_s, u"alpha"_s, Attention::NeedsYou, 0), peer(u"p3"_s, u"gamma"_s)}));
        seen = events();
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen.at(0).kind, App::NotificationKind::NeedsYou);
    }

    void presenterMenuIsCapped()
    {
        TrayPresenter presenter(nullptr);
        QList<Broker::Peer> many;
        for (int i = 0; i < 20; ++i)
            many << peer(u"p%1"_s.arg(i, 2, 10, QChar(u'0')), u"n%1"_s.arg(i),
                         i % 3 == 0 ? Attention::NeedsYou : Attention::Idle, i);
        presenter.present(running(many));
        QCOMPARE(presenter.menuItems().size(), TrayPresenter::MaxMenuPeers);
        QCOMPARE(presenter.menuItems().first().state, Attention::NeedsYou);
        QCOMPARE(presenter.attention().needsYou, 7);
        QVERIFY(presenter.toolTip().contains(u"7 sessions need you: n18, n15, n12, …"_s));
    }

    void presenterSkipsWhatDidNotChange()
    {
        TrayPresenter presenter(nullptr);
        QSignalSpy changed(&presenter, &TrayPresenter::changed);
        const QList<Broker::Peer> peers {peer(u"p1"_s, u"alpha"_s, Attention::Busy, 5)};
        presenter.present(running(peers));
        QCOMPARE(changed.count(), 1);
        for (int i = 0; i < 50; ++i)
            presenter.present(running(peers));
        QCOMPARE(changed.count(), 1);

        // A heartbeat (last_seen) or a summary changes nothing the tray shows.
        QList<Broker::Peer> heartbeat = peers;
        heartbeat[0].lastSeen = u"2026-11-30T12:00:00.000Z"_s;
        heartbeat[0].summary = u"now editing tests"_s;
        presenter.present(running(heartbeat));
        QCOMPARE(changed.count(), 1);

        // A new state does, once.
        heartbeat[0].attention = Attention::NeedsYou;
        heartbeat[0].attentionSince = u"2026-11-30T12:00:00.000Z"_s;
        presenter.present(running(heartbeat));
        presenter.present(running(heartbeat));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(presenter.iconState(), TrayState::NeedsYou);
    }

    void trayMenuListsPeersFirstAndOpensThem()
    {
        TrayPresenter presenter(nullptr);
        presenter.setClock([] { return Now; });
        App::TrayIcon tray(&presenter);
        QVERIFY(tray.peerActions().isEmpty());

        presenter.present(running({peer(u"p1"_s, u"alpha"_s, Attention::Idle, 60),
                                   peer(u"p2"_s, u"beta"_s, Attention::NeedsYou, 120, u"Allow Bash?"_s)}));
        const QList<QAction *> entries = tray.peerActions();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(0)->text(), u"beta — needs you · 2 min"_s);
        QCOMPARE(entries.at(0)->toolTip(), u"Allow Bash?"_s);
        QCOMPARE(entries.at(1)->text(), u"alpha — idle · 1 min"_s);
        // Right under the status line, above "Peers…".
        const QList<QAction *> all = tray.menu()->actions();
        QCOMPARE(all.indexOf(entries.at(0)), 1);
        QCOMPARE(all.indexOf(entries.at(1)), 2);

        QSignalSpy requested(&tray, &App::TrayIcon::peerRequested);
        entries.at(0)->trigger();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), u"p2"_s);

        // Same peers, same states: the entries stay (no menu rebuild).
        presenter.present(running({peer(u"p1"_s, u"alpha"_s, Attention::Idle, 60),
                                   peer(u"p2"_s, u"beta"_s, Attention::NeedsYou, 120, u"Allow Bash?"_s)},
                                  1));
        QCOMPARE(tray.peerActions(), entries);
    }

    void tableShowsStateAndTimeInState()
    {
        PeersModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setClock([] { return Now; });
        model.sync({peer(u"p1"_s, u"alpha"_s, Attention::NeedsYou, 180, u"Allow Bash?"_s),
                    peer(u"p2"_s, u"beta"_s)});
        QCOMPARE(model.headerData(PeersModel::StateColumn, Qt::Horizontal).toString(), u"State"_s);
        QCOMPARE(model.index(0, PeersModel::StateColumn).data().toString(), u"needs you · 3 min"_s);
        QVERIFY(model.index(0, PeersModel::StateColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(u"Allow Bash?\n"_s));
        QCOMPARE(model.index(1, PeersModel::StateColumn).data().toString(), QString());
        // Attention order sorts before names.
        QVERIFY(model.index(0, PeersModel::StateColumn).data(PeersModel::SortRole).toString() <
                model.index(1, PeersModel::StateColumn).data(PeersModel::SortRole).toString());

        // The clock moves the time in state, the last-seen age and the reachability badge: one
        // signal for every row, all columns.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.refreshTimes();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(0, 0));
        QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(1, PeersModel::ColumnCount - 1));

        // A state change is one cell.
        changed.clear();
        model.sync({peer(u"p1"_s, u"alpha"_s, Attention::Busy, 1), peer(u"p2"_s, u"beta"_s)});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(0, PeersModel::StateColumn));
        QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(0, PeersModel::StateColumn));
        QCOMPARE(model.index(0, PeersModel::StateColumn).data().toString(), u"busy · 1 s"_s);
    }
};

QTEST_MAIN(tst_TrayAttention)
#include "tst_trayattention.moc"
