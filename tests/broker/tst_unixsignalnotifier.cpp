// Self-pipe signal delivery: a raised signal arrives as a Qt signal in the event loop.
#include "common/unixsignalnotifier.h"

#include <QSignalSpy>
#include <QTest>

#include <csignal>

class tst_UnixSignalNotifier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void deliversSignalsThroughTheEventLoop()
    {
        Broker::UnixSignalNotifier notifier({SIGUSR1, SIGUSR2});
        QVERIFY(notifier.isValid());
        QSignalSpy spy(&notifier, &Broker::UnixSignalNotifier::signalReceived);
        ::raise(SIGUSR1);
        ::raise(SIGUSR2);
        QVERIFY(spy.isEmpty()); // never emitted from inside the handler
        QTRY_COMPARE(spy.size(), 2);
        QCOMPARE(spy.at(0).at(0).toInt(), SIGUSR1);
        QCOMPARE(spy.at(1).at(0).toInt(), SIGUSR2);
    }

    void canBeCreatedAgainAfterDestruction()
    {
        // The tray and tests create and destroy it; the handlers must be restored each time.
        for (int i = 0; i < 2; ++i) {
            Broker::UnixSignalNotifier notifier({SIGUSR1});
            QSignalSpy spy(&notifier, &Broker::UnixSignalNotifier::signalReceived);
            ::raise(SIGUSR1);
            QTRY_COMPARE(spy.size(), 1);
        }
        struct sigaction current = {};
        ::sigaction(SIGUSR1, nullptr, &current);
        QVERIFY(current.sa_handler == SIG_DFL);
    }
};

QTEST_GUILESS_MAIN(tst_UnixSignalNotifier)
#include "tst_unixsignalnotifier.moc"
