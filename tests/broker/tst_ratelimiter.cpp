// Per-peer fixed-window rate limit (docs/spec/peers-api.md §11.6, keyed by sender instead of one bucket).
#include "broker/internal/ratelimiter.h"

#include <QTest>

class tst_RateLimiter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sixtyPassAndTheSixtyFirstIsRefused()
    {
        Broker::RateLimiter limiter(60);
        const qint64 t0 = 1'000'000;
        for (int i = 1; i <= 60; ++i)
            QVERIFY2(limiter.allow(QStringLiteral("peer-a"), t0 + i), qPrintable(QString::number(i)));
        QVERIFY(!limiter.allow(QStringLiteral("peer-a"), t0 + 61));
        QVERIFY(!limiter.allow(QStringLiteral("peer-a"), t0 + 62)); // refused ones count too
    }

    void otherPeerIsUnaffected()
    {
        Broker::RateLimiter limiter(60);
        for (int i = 0; i < 61; ++i)
            limiter.allow(QStringLiteral("peer-a"), 0);
        QVERIFY(!limiter.allow(QStringLiteral("peer-a"), 1));
        for (int i = 0; i < 60; ++i)
            QVERIFY(limiter.allow(QStringLiteral("peer-b"), 1));
        QVERIFY(!limiter.allow(QStringLiteral("peer-b"), 1));
    }

    void windowResetsAfterSixtySeconds()
    {
        Broker::RateLimiter limiter(60);
        for (int i = 0; i < 61; ++i)
            limiter.allow(QStringLiteral("p"), 1000);
        QVERIFY(!limiter.allow(QStringLiteral("p"), 1000 + 59'999));
        QVERIFY(limiter.allow(QStringLiteral("p"), 1000 + 60'000));
    }

    void zeroDisables()
    {
        Broker::RateLimiter limiter(0);
        for (int i = 0; i < 1000; ++i)
            QVERIFY(limiter.allow(QStringLiteral("p"), 0));
    }

    void garbageCollectionDropsExpiredWindowsOnly()
    {
        Broker::RateLimiter limiter(60);
        limiter.allow(QStringLiteral("old"), 0);
        limiter.allow(QStringLiteral("new"), 50'000);
        QCOMPARE(limiter.size(), 2);
        limiter.collectGarbage(60'000);
        QCOMPARE(limiter.size(), 1);
        limiter.collectGarbage(110'000);
        QCOMPARE(limiter.size(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_RateLimiter)
#include "tst_ratelimiter.moc"
