// SnapshotPublisher: a burst of change signals gives few snapshots, and an unchanged one none.
#include "app/tray/snapshotpublisher.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using App::BrokerSnapshot;
using App::SnapshotPublisher;

namespace {

BrokerSnapshot withPending(qint64 pending)
{
    BrokerSnapshot snapshot;
    snapshot.pendingMessages = pending;
    return snapshot;
}

} // namespace

class tst_SnapshotPublisher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void coalescesOneEventLoopPass()
    {
        qint64 pending = 1;
        SnapshotPublisher publisher([&] { return withPending(pending); });
        QSignalSpy published(&publisher, &SnapshotPublisher::published);
        for (int i = 0; i < 1000; ++i)
            publisher.markDirty(); // one burst, as a group commit of 1,000 messages signals it
        QCOMPARE(publisher.computeCount(), 0); // nothing computed inside the burst
        QTRY_COMPARE(published.count(), 1);
        QCOMPARE(publisher.computeCount(), 1);
        QCOMPARE(published.at(0).at(0).value<BrokerSnapshot>().pendingMessages, 1);
    }

    void computesAtMostOncePerIntervalUnderSteadyTraffic()
    {
        qint64 pending = 0;
        SnapshotPublisher publisher([&] { return withPending(pending); });
        publisher.setIntervalMs(100);
        QSignalSpy published(&publisher, &SnapshotPublisher::published);
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 1000) { // traffic on every pass, each changing the count
            ++pending;
            publisher.markDirty();
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        }
        const qint64 elapsed = clock.elapsed();
        // Upper bound only: a slow machine gives fewer snapshots, never more.
        QVERIFY2(
            publisher.computeCount() <= elapsed / 100 + 2,
            qPrintable(QStringLiteral("%1 computes in %2 ms").arg(publisher.computeCount()).arg(elapsed)));
        QVERIFY(publisher.computeCount() >= 2); // and it did keep publishing during the traffic
        QCOMPARE(published.count(), publisher.computeCount());
    }

    void skipsAnUnchangedSnapshot()
    {
        BrokerSnapshot value = withPending(3);
        SnapshotPublisher publisher([&] { return value; });
        publisher.setIntervalMs(0);
        QSignalSpy published(&publisher, &SnapshotPublisher::published);
        publisher.markDirty();
        QTRY_COMPARE(publisher.computeCount(), 1);
        QCOMPARE(published.count(), 1);

        publisher.markDirty(); // e.g. a heartbeat that changed nothing shown
        QTRY_COMPARE(publisher.computeCount(), 2);
        QCOMPARE(published.count(), 1);

        Broker::Peer peer;
        peer.id = QStringLiteral("abcd1234");
        value.peers = {peer};
        publisher.markDirty();
        QTRY_COMPARE(published.count(), 2);
        value.peers.first().summary = QStringLiteral("new summary"); // any field counts
        publisher.markDirty();
        QTRY_COMPARE(published.count(), 3);
    }

    void publishesAgainAfterAReset()
    {
        SnapshotPublisher publisher([] { return BrokerSnapshot {}; });
        publisher.setIntervalMs(0);
        QSignalSpy published(&publisher, &SnapshotPublisher::published);
        publisher.markDirty();
        QTRY_COMPARE(published.count(), 1);
        publisher.reset(); // the broker stopped; the GUI cleared its copy
        publisher.markDirty();
        QTRY_COMPARE(published.count(), 2); // the same value, published for the new run
    }

    void resetDropsPendingWork()
    {
        SnapshotPublisher publisher([] { return withPending(1); });
        publisher.setIntervalMs(50);
        publisher.markDirty();
        publisher.reset();
        QTest::qWait(200); // must-not-happen: four intervals
        QCOMPARE(publisher.computeCount(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_SnapshotPublisher)
#include "tst_snapshotpublisher.moc"
