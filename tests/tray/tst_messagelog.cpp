// The Messages page's GUI-free parts: the delivery ticks (one function), the log model (batches,
// updates, bounces, cap), the threads and the filters, each model under QAbstractItemModelTester.
#include "app/tray/pages/messagelog.h"
#include "app/tray/pages/messagethreads.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using App::DeliveryTicks;
using App::LogEntry;
using App::MessageLogModel;

namespace {

Broker::Message message(qint64 id, const QString &from, const QString &to, bool delivered = false,
                        const QString &text = QStringLiteral("hello"))
{
    Broker::Message m;
    m.id = id;
    m.fromId = from;
    m.toId = to;
    m.text = text;
    m.sentAt = QStringLiteral("2026-12-01T05:00:00.000Z");
    m.delivered = delivered;
    return m;
}

Broker::Message bounce(qint64 id, qint64 original, const QString &sender)
{
    Broker::Message m =
        message(id, QStringLiteral("system"), sender, false, QStringLiteral("\u26a0 Message #x"));
    m.replyTo = original;
    return m;
}

QList<qint64> idsOf(const MessageLogModel &model)
{
    QList<qint64> ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids << model.entryAt(row).message.id;
    return ids;
}

} // namespace

class tst_MessageLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ticks_data()
    {
        QTest::addColumn<bool>("delivered");
        QTest::addColumn<QString>("pushedBy");
        QTest::addColumn<qint64>("bouncedBy");
        QTest::addColumn<bool>("missing");
        QTest::addColumn<QString>("channelPush");
        QTest::addColumn<bool>("pushed");
        QTest::addColumn<int>("seenVia");
        QTest::addColumn<bool>("bounced");
        QTest::addColumn<bool>("lost");
        const int unknown = int(DeliveryTicks::SeenVia::Unknown);
        const int channel = int(DeliveryTicks::SeenVia::Channel);
        const int tool = int(DeliveryTicks::SeenVia::ToolResult);
        QTest::newRow("stored only") << false << "" << 0LL << false << "working" << false << unknown << false
                                     << false;
        QTest::newRow("pushed by stream")
            << false << "stream" << 0LL << false << "working" << true << unknown << false << false;
        QTest::newRow("acked, channel")
            << true << "stream" << 0LL << false << "working" << true << channel << false << false;
        QTest::newRow("acked, banner")
            << true << "poll" << 0LL << false << "unverified" << true << tool << false << false;
        QTest::newRow("acked, handout forgotten")
            << true << "" << 0LL << false << "unknown" << true << unknown << false << false;
        QTest::newRow("bounced") << false << "stream" << 42LL << true << "" << true << unknown << true
                                 << false;
        QTest::newRow("dropped without bounce")
            << false << "" << 0LL << true << "" << false << unknown << false << true;
        QTest::newRow("acked then purged")
            << true << "" << 0LL << true << "working" << true << channel << false << false;
    }

    void ticks()
    {
        QFETCH(bool, delivered);
        QFETCH(QString, pushedBy);
        QFETCH(qint64, bouncedBy);
        QFETCH(bool, missing);
        QFETCH(QString, channelPush);
        LogEntry entry {
            message(7, QStringLiteral("a"), QStringLiteral("b"), delivered), {}, bouncedBy, missing};
        if (!pushedBy.isEmpty())
            entry.handout = {QStringLiteral("2026-12-01T05:00:00.010Z"), pushedBy};
        const DeliveryTicks ticks = App::deliveryTicks(entry, channelPush);
        QVERIFY(ticks.stored);
        QTEST(ticks.pushed, "pushed");
        QCOMPARE(ticks.acked, delivered);
        QTEST(int(ticks.seenVia), "seenVia");
        QTEST(ticks.bounced, "bounced");
        QTEST(ticks.lost, "lost");
        QCOMPARE(ticks.pushedBy, pushedBy);
    }

    void mergesBatchesAtBothEndsAndInTheMiddle()
    {
        App::PeerDirectory peers(QStringLiteral("here"));
        MessageLogModel model(&peers);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QList<Broker::Message> tail;
        for (qint64 id = 10; id < 20; ++id)
            tail << message(id, QStringLiteral("a"), QStringLiteral("b"));
        model.merge(tail);
        QCOMPARE(inserted.size(), 1); // one batch
        model.merge({message(21, QStringLiteral("a"), QStringLiteral("b")),
                     message(20, QStringLiteral("b"), QStringLiteral("a")),
                     message(3, QStringLiteral("a"), QStringLiteral("c")),
                     message(4, QStringLiteral("a"), QStringLiteral("c"))});
        QCOMPARE(inserted.size(), 3); // head and tail, one batch each
        model.merge({message(7, QStringLiteral("a"), QStringLiteral("c"))});
        QCOMPARE(idsOf(model), (QList<qint64> {3, 4, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}));
        QCOMPARE(model.highestId(), 21);
        QCOMPARE(model.lowestId(), 3);
        // A known id again: its state changes in place, no new row.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.merge({message(12, QStringLiteral("a"), QStringLiteral("b"), true)},
                    {{12,
                      Broker::MessageHandout {QStringLiteral("2026-12-01T05:00:01.000Z"),
                                              QStringLiteral("stream")}}});
        QCOMPARE(model.rowCount(), 15);
        QCOMPARE(changed.size(), 1);
        QVERIFY(model.ticksAt(model.rowOfId(12)).acked);
        QVERIFY(!model.unsettledIds(100).contains(12));
        QCOMPARE(model.unsettledIds(3), (QList<qint64> {21, 20, 19}));
        QCOMPARE(model.unsettledIds(2, 19), (QList<qint64> {18, 17}));
    }

    void linksBouncesAndMarksLostMessages()
    {
        App::PeerDirectory peers(QStringLiteral("here"));
        MessageLogModel model(&peers);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.merge({message(1, QStringLiteral("op"), QStringLiteral("gone")),
                     message(2, QStringLiteral("cli"), QStringLiteral("gone"))});
        model.merge({bounce(3, 1, QStringLiteral("op"))});
        QVERIFY(model.ticksAt(model.rowOfId(1)).bounced);
        QCOMPARE(MessageLogModel::ticksText(model.ticksAt(model.rowOfId(1))),
                 QStringLiteral("\u26a0 bounced"));
        // The bounce is shown in its message's thread.
        QCOMPARE(model.index(model.rowOfId(3), 0).data(MessageLogModel::ThreadKeyRole).toString(),
                 App::threadKey(QStringLiteral("op"), QStringLiteral("gone")));
        model.markMissing({1, 2});
        QVERIFY(model.ticksAt(model.rowOfId(1)).bounced);
        QVERIFY(model.ticksAt(model.rowOfId(2)).lost);
        QCOMPARE(model.unsettledIds(10), QList<qint64> {});
        // A bounce that came before its message (an older page loaded later) still marks it.
        model.merge({bounce(11, 10, QStringLiteral("op"))});
        model.merge({message(10, QStringLiteral("op"), QStringLiteral("late"))});
        QVERIFY(model.ticksAt(model.rowOfId(10)).bounced);
    }

    void capsRowsDroppingTheOldest()
    {
        MessageLogModel model(nullptr);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setMaxRows(5);
        QList<Broker::Message> batch;
        for (qint64 id = 1; id <= 8; ++id)
            batch << message(id, QStringLiteral("a"), QStringLiteral("b"));
        model.merge(batch);
        QCOMPARE(idsOf(model), (QList<qint64> {4, 5, 6, 7, 8}));
        QVERIFY(model.droppedOlder());
    }

    void threadsFollowTheLog()
    {
        App::PeerDirectory peers(QStringLiteral("here"));
        Broker::Peer reviewer;
        reviewer.id = QStringLiteral("b");
        reviewer.sessionName = QStringLiteral("reviewer");
        peers.update({reviewer});
        MessageLogModel log(&peers);
        App::MessageThreadsModel threads(&log, &peers);
        QAbstractItemModelTester tester(&threads, QAbstractItemModelTester::FailureReportingMode::QtTest);
        log.merge({message(1, QStringLiteral("a"), QStringLiteral("b")),
                   message(2, QStringLiteral("b"), QStringLiteral("a")),
                   message(3, QStringLiteral("a"), QStringLiteral("host2:c"))});
        QCOMPARE(threads.rowCount(), 3); // All, a↔b, a↔host2:c
        const int ab = threads.rowOfKey(App::threadKey(QStringLiteral("b"), QStringLiteral("a")));
        QVERIFY(ab > 0);
        QCOMPARE(threads.index(ab).data(App::MessageThreadsModel::CountRole).toInt(), 2);
        QVERIFY(threads.index(ab).data().toString().contains(QStringLiteral("reviewer (b) \u00b7 here")));
        QCOMPARE(threads.index(0).data(App::MessageThreadsModel::CountRole).toInt(), 3);
        QCOMPARE(App::MessageThreadsModel::otherPeer(App::threadKey(QStringLiteral("a"), QStringLiteral("b")),
                                                     QStringLiteral("b")),
                 QStringLiteral("a"));
        QCOMPARE(peers.label(QStringLiteral("host2:c")), QStringLiteral("host2:c \u00b7 host2"));
        log.clear();
        QCOMPARE(threads.rowCount(), 1);
    }

    void filtersByThreadPeerScopeAndText()
    {
        App::PeerDirectory peers(QStringLiteral("here"));
        Broker::Peer a, b;
        a.id = QStringLiteral("a");
        a.cwd = QStringLiteral("/w/one");
        b.id = QStringLiteral("b");
        b.cwd = QStringLiteral("/w/two");
        b.gitRoot = QStringLiteral("/w");
        peers.update({a, b});
        MessageLogModel log(&peers);
        App::MessageFilterModel filter(&peers);
        filter.setSourceModel(&log);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        log.merge({message(1, QStringLiteral("a"), QStringLiteral("b"), false, QStringLiteral("Needle here")),
                   message(2, QStringLiteral("a"), QStringLiteral("host2:c")),
                   message(3, QStringLiteral("c"), QStringLiteral("d"))});
        QCOMPARE(filter.rowCount(), 3);
        filter.setThread(App::threadKey(QStringLiteral("a"), QStringLiteral("b")));
        QCOMPARE(filter.rowCount(), 1);
        filter.setThread({});
        filter.setPeer(QStringLiteral("a"));
        QCOMPARE(filter.rowCount(), 2);
        filter.setScope(App::MessageFilterModel::Scope::Machine);
        QCOMPARE(filter.rowCount(), 1);
        filter.setPeer({});
        filter.setScope(App::MessageFilterModel::Scope::Repo, QStringLiteral("/w"));
        QCOMPARE(filter.rowCount(), 1);
        filter.setScope(App::MessageFilterModel::Scope::Directory, QStringLiteral("/w/one"));
        QCOMPARE(filter.rowCount(), 2);
        filter.setScope(App::MessageFilterModel::Scope::Any);
        filter.setText(QStringLiteral("needle"));
        QCOMPARE(filter.rowCount(), 1);
        // Live rows pass through the filter as they come.
        log.merge(
            {message(4, QStringLiteral("d"), QStringLiteral("c"), false, QStringLiteral("another NEEDLE"))});
        QCOMPARE(filter.rowCount(), 2);
    }
};

QTEST_GUILESS_MAIN(tst_MessageLog)
#include "tst_messagelog.moc"
