#include "brokerhost.h"

#include "brokerclient.h"
#include "brokerthread.h"
#include "snapshotpublisher.h"
#include "traylogging.h"

#include <QJsonObject>
#include <QSignalBlocker>

#include <algorithm>

namespace App {

using Broker::Error;

BrokerHost::BrokerHost(Broker::Settings settings, QObject *parent)
    : QObject(parent),
      m_thread(std::make_unique<BrokerThread>(settings)),
      m_client(new Broker::BrokerClient(settings.location, this)),
      m_port(settings.location.port)
{
    qRegisterMetaType<App::BrokerSnapshot>();
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &BrokerHost::retryStart);
    // Emitted on the broker thread: queued to this (GUI) thread.
    connect(m_thread.get(), &BrokerThread::snapshotPublished, this, &BrokerHost::onSnapshot);
    connect(m_thread.get(), &BrokerThread::shutdownRequested, this, [this] {
        if (m_state == State::Running)
            Q_EMIT shutdownRequested();
    });
    m_thread->launch();
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
        // Back to the GUI thread. The host outlives this job: its destructor waits for the thread.
        QMetaObject::invokeMethod(
            this, [this, attempt, result] { onStartAnswer(attempt, result); }, Qt::QueuedConnection);
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
    m_client->abortAll(); // their callbacks must not run after this
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

// Someone holds the database lock or the port. If it is a broker that answers, ask it to
// hand over; anything else (a foreign program on the port, a hung broker) is an error the
// user has to see.
void BrokerHost::onStartRefused(const Error &error)
{
    m_refusal = error;
    qCInfo(lcHost).noquote() << QStringLiteral(
                                    "broker start refused (%1): %2 - asking the running broker to hand over")
                                    .arg(error.code(), error.message);
    m_client->get(
        QStringLiteral("/health"),
        [this](Broker::Result<QJsonValue> answer) {
            if (!answer) {
                fail({Broker::ErrorKind::PortBusy,
                      QStringLiteral("%1 (no broker answers on port %2 to take over from: %3)")
                          .arg(m_refusal.message)
                          .arg(port())
                          .arg(answer.error().message)});
                return;
            }
            const QJsonObject health = answer->toObject();
            if (health.value(QStringLiteral("status")).toString() != u"ok") {
                fail({Broker::ErrorKind::PortBusy,
                      QStringLiteral("Port %1 is in use by a program that is not a claude-peers broker.")
                          .arg(port())});
                return;
            }
            m_previousPid = health.value(QStringLiteral("pid")).toInteger();
            askToHandOver();
        },
        m_timing.requestTimeoutMs);
}

void BrokerHost::askToHandOver()
{
    qCInfo(lcHost).noquote() << QStringLiteral("asking the broker on port %1 (pid %2) to hand over")
                                    .arg(port())
                                    .arg(m_previousPid);
    m_handoverClock.start();
    m_client->post(
        QStringLiteral("/shutdown"), QJsonObject {},
        [this](Broker::Result<QJsonValue> answer) {
            // A broker that exits before its answer is flushed looks unreachable: the port is
            // about to be free, so that counts as accepted. A status answer means refused.
            if (!answer && answer.error().kind != Broker::ErrorKind::Unreachable) {
                fail({Broker::ErrorKind::HandoverRefused,
                      QStringLiteral("The broker already running on port %1 refused to hand over: %2")
                          .arg(port())
                          .arg(answer.error().message)});
                return;
            }
            setState(State::HandingOver);
            m_handoverDeadline = QDeadlineTimer(m_timing.handoverTimeoutMs);
            m_nextRetryMs = std::min(m_timing.firstRetryMs, m_timing.retryIntervalMs);
            m_retryTimer.start(m_nextRetryMs);
        },
        m_timing.requestTimeoutMs);
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
    const bool cleared = state != State::Running && m_snapshot != BrokerSnapshot {};
    if (cleared)
        m_snapshot = {};
    Q_EMIT stateChanged(state);
    if (cleared)
        Q_EMIT snapshotChanged(m_snapshot);
}

} // namespace App
