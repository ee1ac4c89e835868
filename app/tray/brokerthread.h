#pragma once

#include "app/tray/brokersnapshot.h"
#include "broker/brokerserver.h"

#include <QSemaphore>
#include <QThread>

#include <functional>

namespace App {

class SnapshotPublisher;

// What lives on the broker thread: the server (its SQLite connection, sockets and timers) and
// the publisher of its snapshots. Created and destroyed on that thread, used only there.
class HostedBroker : public QObject
{
    Q_OBJECT
public:
    explicit HostedBroker(Broker::Settings settings, QObject *parent = nullptr);
    ~HostedBroker() override;

    Broker::BrokerServer &server() { return *m_server; }
    SnapshotPublisher &publisher() { return *m_publisher; }

    // The server's start(); a first snapshot follows when it runs.
    Broker::Result<void> start();
    void stop();

private:
    Broker::BrokerServer *m_server;
    SnapshotPublisher *m_publisher;
};

// The tray's broker thread: one event loop for the broker, as in the headless broker, so
// delivery never waits for the GUI and the GUI never waits for SQLite. Other threads touch the
// broker's objects only by posting jobs here and hear back through queued signals (or talk to it
// over loopback HTTP like any client: docs/architecture.md, "Threads").
class BrokerThread : public QThread
{
    Q_OBJECT
public:
    explicit BrokerThread(Broker::Settings settings, QObject *parent = nullptr);
    ~BrokerThread() override; // ends the loop; the broker's objects are destroyed on this thread

    // Starts the thread; returns when its objects exist.
    void launch();

    // Runs job on the broker thread, after the jobs posted before it. Returns at once.
    void post(std::function<void(HostedBroker &)> job);
    // The same, and waits until it has run: as long as the broker thread is busy. For stop and
    // quit only; never from the broker thread.
    void postAndWait(std::function<void(HostedBroker &)> job);

Q_SIGNALS:
    // Emitted on the broker thread; receivers on other threads get them queued.
    void snapshotPublished(const App::BrokerSnapshot &snapshot);
    void shutdownRequested(); // POST /shutdown was accepted and answered
    void handedOver(qint64 successorPid); // a successor took the sockets; the server has stopped

protected:
    void run() override;

private:
    void serve(); // the broker's life on this thread: built, its event loop, destroyed

    Broker::Settings m_settings;
    HostedBroker *m_broker = nullptr; // lives in serve(), on this thread
    QSemaphore m_ready;
};

} // namespace App
