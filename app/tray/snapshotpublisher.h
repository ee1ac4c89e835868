#pragma once

#include "app/tray/brokersnapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>

namespace App {

// Turns the broker's change signals into few snapshots: markDirty() is cheap (it is called for
// every stored message); the snapshot is computed once the current event-loop pass is over, and
// then at most once per interval however much traffic there is, and published only when it
// differs from the last one. Lives on the broker thread, with the broker it reads.
class SnapshotPublisher : public QObject
{
    Q_OBJECT
public:
    using Compute = std::function<BrokerSnapshot()>;
    static constexpr int DefaultIntervalMs = 500; // the tray updates at most twice a second

    explicit SnapshotPublisher(Compute compute, QObject *parent = nullptr);

    void setIntervalMs(int ms);
    int intervalMs() const { return m_intervalMs; }

    // Something the snapshot shows may have changed.
    void markDirty();
    // Drops pending work and forgets the last value, so the next snapshot is published even
    // when it equals the one before (the broker stopped; the GUI has cleared its copy).
    void reset();

    int computeCount() const { return m_computes; }

Q_SIGNALS:
    void published(const App::BrokerSnapshot &snapshot);

private:
    void publish();

    Compute m_compute;
    QTimer m_timer;
    QElapsedTimer m_sinceLast;
    int m_intervalMs = DefaultIntervalMs;
    int m_computes = 0;
    bool m_hasValue = false;
    BrokerSnapshot m_value;
};

} // namespace App
