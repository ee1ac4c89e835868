#include "app/tray/brokerhost.h"

#include "app/tray/brokerthread.h"
#include "app/tray/snapshotpublisher.h"
#include "app/tray/successorwatch.h"
#include "app/tray/traylogging.h"
#include "common/brokerclient.h"
#include "common/brokerlifecycle.h"

#include <QSignalBlocker>

#include <algorithm>

namespace App {

using Broker::Error;

namespace {

Broker::BrokerLifecycle::Options lifecycleOptions(const BrokerHost::Timing &timing)
{
    Broker::BrokerLifecycle::Options o;
    o.probeTimeoutMs = timing.requestTimeoutMs;
    o.pollTimeoutMs = std::min(timing.requestTimeoutMs, 500);
    o.firstPollMs = timing.firstRetryMs;
    o.maxPollMs = timing.retryIntervalMs;
    o.stopTimeoutMs = timing.handoverTimeoutMs;
    o.signalWhenRefused = false; // a broker that says no to a hand-over is left alone
    o.programName = QStringLiteral("claude-peers-tray");
    return o;
}

} // namespace

BrokerHost::BrokerHost(Broker::Settings settings, QObject *parent)
    : QObject(parent),
      m_thread(std::make_unique<BrokerThread>(settings)),
      m_client(new Broker::BrokerClient(settings.location, this)),
      m_lifecycle(new Broker::BrokerLifecycle(m_client, lifecycleOptions(m_timing), this)),
      m_watch(new SuccessorWatch(m_client, m_timing.watchIntervalMs, this)),
      m_port(settings.location.port)
{
    connect(m_lifecycle, &Broker::BrokerLifecycle::stopping, this, &BrokerHost::onOldBrokerAnswered);
    qRegisterMetaType<App::BrokerSnapshot>();
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &BrokerHost::retryStart);
    // Emitted on the broker thread: queued to this (GUI) thread.
    connect(m_thread.get(), &BrokerThread::snapshotPublished, this, &BrokerHost::onSnapshot);
    connect(m_thread.get(), &BrokerThread::shutdownRequested, this, [this] {
        if (m_state == State::Running)
            Q_EMIT shutdownRequested();
    });
    connect(m_thread.get(), &BrokerThread::handedOver, this, &BrokerHost::onHandedOver);
    connect(m_watch, &SuccessorWatch::polled, this, &BrokerHost::onSuccessorPolled);
    connect(m_watch, &SuccessorWatch::gone, this, &BrokerHost::onSuccessorGone);
    m_thread->launch();
    m_thread->post([](HostedBroker &broker) { broker.server().setTakeOver(true); });
}

BrokerHost::~BrokerHost()
{
    const QSignalBlocker blocker(this); // receivers may be half torn down with us
    stop();
    m_thread.reset(); // ends the loop; the server is destroyed on its thread
}

quint16 BrokerHost::port() const
{
    return m_port;
}

void BrokerHost::setTiming(const Timing &timing)
{
    m_timing = timing;
    m_lifecycle->setOptions(lifecycleOptions(timing));
    m_watch->setIntervalMs(timing.watchIntervalMs);
    m_thread->post(
        [ms = timing.snapshotIntervalMs](HostedBroker &broker) { broker.publisher().setIntervalMs(ms); });
}

QThread *BrokerHost::brokerThread() const
{
    return m_thread.get();
}

void BrokerHost::start()
{
    if (m_state == State::Starting || m_state == State::HandingOver || m_state == State::Running)
        return;
    m_watch->stop();
    m_lastError = {};
    m_previousPid = 0;
    setState(State::Starting);
    attemptStart();
}

void BrokerHost::attemptStart()
{
    const quint64 attempt = ++m_attempt;
    m_thread->post([this, attempt](HostedBroker &broker) {
        const Broker::Result<void> result = broker.start();
        const qint64 handedOverBy = broker.server().tookOverFrom();
        // Back to the GUI thread. The host outlives this job: its destructor waits for the thread.
        QMetaObject::invokeMethod(
            this,
            [this, attempt, result, handedOverBy] {
                if (handedOverBy > 0 && attempt == m_attempt)
                    m_previousPid = handedOverBy; // took its sockets over: no HandingOver state
                onStartAnswer(attempt, result);
            },
            Qt::QueuedConnection);
    });
}

void BrokerHost::onStartAnswer(quint64 attempt, const Broker::Result<void> &result)
{
    if (attempt != m_attempt) // stop() came in between and has stopped what this started
        return;
    const bool busy = !result &&
        (result.error().kind == Broker::ErrorKind::Locked ||
         result.error().kind == Broker::ErrorKind::PortInUse);
    if (m_state == State::Starting) {
        if (result)
            succeed();
        else if (busy)
            onStartRefused(result.error());
        else
            fail(result.error());
    } else if (m_state == State::HandingOver) {
        if (result) {
            qCInfo(lcHost).noquote() << QStringLiteral(
                                            "took the port over from the broker with pid %1 in %2 ms")
                                            .arg(m_previousPid)
                                            .arg(m_handoverClock.elapsed());
            succeed();
        } else if (busy) {
            onRetryRefused(result.error());
        } else {
            fail(result.error());
        }
    }
}

void BrokerHost::stop()
{
    m_retryTimer.stop();
    m_watch->stop();
    m_lifecycle->abort(); // its callbacks must not run after this
    m_client->abortAll();
    ++m_attempt;
    m_thread->postAndWait([port = port()](HostedBroker &broker) {
        if (broker.server().isRunning())
            qCInfo(lcHost) << "stopping the broker on port" << port;
        broker.stop();
    });
    m_lastError = {};
    setState(State::Stopped);
}

void BrokerHost::reload()
{
    m_thread->post([](HostedBroker &broker) { broker.server().reload(); });
}

void BrokerHost::runOnBrokerThread(std::function<void(Broker::BrokerServer &)> job)
{
    m_thread->post([job = std::move(job)](HostedBroker &broker) { job(broker.server()); });
}

void BrokerHost::onSnapshot(const BrokerSnapshot &snapshot)
{
    if (m_state != State::Running) // computed before a stop(); the GUI has already cleared it
        return;
    m_snapshot = snapshot;
    Q_EMIT snapshotChanged(m_snapshot);
}

void BrokerHost::onHandedOver(qint64 successorPid)
{
    if (m_state != State::Running)
        return;
    ++m_attempt;
    m_lastError = {};
    if (!m_followSuccessor) {
        qCInfo(lcHost) << "the broker process" << successorPid << "took the port over; no longer hosting";
        setState(State::Stopped);
        Q_EMIT handedOver(successorPid);
        return;
    }
    qCInfo(lcHost)
        << "the broker process" << successorPid
        << "took the port over; following it as a client (the last snapshot stays until it answers)";
    m_servingPid = successorPid;
    setState(State::Elsewhere);
    m_watch->start();
    Q_EMIT handedOver(successorPid);
}

void BrokerHost::onSuccessorPolled(const BrokerSnapshot &snapshot, qint64 pid)
{
    if (m_state != State::Elsewhere)
        return;
    if (pid > 0 && pid != m_servingPid) {
        qCInfo(lcHost) << "the port is now served by the broker process" << pid;
        m_servingPid = pid;
        Q_EMIT stateChanged(m_state); // what the tray says names the process
    }
    if (snapshot == m_snapshot)
        return;
    m_snapshot = snapshot;
    Q_EMIT snapshotChanged(m_snapshot);
}

void BrokerHost::onSuccessorGone(const Error &error)
{
    if (m_state != State::Elsewhere)
        return;
    fail({Broker::ErrorKind::Unreachable,
          QStringLiteral("the broker process %1 that took port %2 over is gone; choose Retry to host the "
                         "broker here again")
              .arg(m_servingPid)
              .arg(port())});
    qCDebug(lcHost).noquote() << "last poll:" << error.message;
}

// Someone holds the database lock or the port. If it is a broker that answers, ask it to
// hand over (BrokerLifecycle: /shutdown, then wait until its port is free and its process
// gone); anything else (a foreign program on the port, a hung broker) is an error the user has
// to see.
void BrokerHost::onStartRefused(const Error &error)
{
    m_refusal = error;
    qCInfo(lcHost).noquote() << QStringLiteral(
                                    "broker start refused (%1): %2 - asking the running broker to hand over")
                                    .arg(error.code(), error.message);
    m_handoverClock.start();
    m_handoverDeadline = QDeadlineTimer(m_timing.handoverTimeoutMs);
    m_lifecycle->stop([this](Broker::Result<Broker::BrokerLifecycle::Stopped> stopped) {
        if (!stopped) {
            fail(handOverError(stopped.error()));
            return;
        }
        if (!stopped->wasRunning) {
            fail({Broker::ErrorKind::PortBusy,
                  QStringLiteral("%1 (no broker answers on port %2 to take over from)")
                      .arg(m_refusal.message)
                      .arg(port())});
            return;
        }
        // Its port is free and its process gone; the lock file may still lag a moment.
        m_nextRetryMs = std::min(m_timing.firstRetryMs, m_timing.retryIntervalMs);
        attemptStart();
    });
}

void BrokerHost::onOldBrokerAnswered(const Broker::BrokerHealth &health)
{
    m_previousPid = health.pid;
    qCInfo(lcHost).noquote() << QStringLiteral("asking the broker on port %1 (pid %2) to hand over")
                                    .arg(port())
                                    .arg(m_previousPid);
    setState(State::HandingOver);
}

Error BrokerHost::handOverError(const Error &error) const
{
    if (error.kind == Broker::ErrorKind::NotABroker)
        return {Broker::ErrorKind::PortBusy, error.message};
    if (error.kind == Broker::ErrorKind::ShutdownRefused)
        return {Broker::ErrorKind::HandoverRefused,
                QStringLiteral("The broker already running on port %1 refused to hand over: %2")
                    .arg(port())
                    .arg(error.message)};
    if (error.kind == Broker::ErrorKind::StopTimeout)
        return {
            Broker::ErrorKind::HandoverTimeout,
            QStringLiteral("The broker on port %1 accepted to hand over but still holds it after %2 s: %3")
                .arg(port())
                .arg(m_timing.handoverTimeoutMs / 1000.0)
                .arg(m_refusal.message)};
    return error;
}

void BrokerHost::retryStart()
{
    if (m_state == State::HandingOver)
        attemptStart();
}

void BrokerHost::onRetryRefused(const Error &error)
{
    if (m_handoverDeadline.hasExpired()) {
        fail({Broker::ErrorKind::HandoverTimeout,
              QStringLiteral("The broker on port %1 accepted to hand over but still holds it after %2 s: %3")
                  .arg(port())
                  .arg(m_timing.handoverTimeoutMs / 1000.0)
                  .arg(error.message)});
    } else {
        m_nextRetryMs = std::min(m_nextRetryMs * 2, m_timing.retryIntervalMs);
        m_retryTimer.start(m_nextRetryMs);
    }
}

void BrokerHost::succeed()
{
    qCInfo(lcHost) << "broker running on port" << port();
    setState(State::Running);
    Q_EMIT started();
}

void BrokerHost::fail(const Error &error)
{
    m_retryTimer.stop();
    m_lastError = error;
    qCWarning(lcHost).noquote() << "broker not started:" << error.message;
    setState(State::Failed);
    Q_EMIT failed(error);
}

void BrokerHost::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    // Running → Elsewhere keeps what is shown until the successor's first answer: the same peers,
    // no flicker and no "joined" news for each of them.
    const bool cleared =
        state != State::Running && state != State::Elsewhere && m_snapshot != BrokerSnapshot {};
    if (cleared)
        m_snapshot = {};
    Q_EMIT stateChanged(state);
    if (cleared)
        Q_EMIT snapshotChanged(m_snapshot);
}

} // namespace App
