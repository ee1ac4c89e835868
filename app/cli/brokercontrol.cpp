#include "brokercontrol.h"

#include "command.h"
#include "context.h"
#include "launcher.h"

#include <csignal>
#include <utility>

namespace Cli {

namespace {
constexpr int ProbeTimeoutMs = 2000;
constexpr int PollProbeTimeoutMs = 500;
constexpr int ProgressAfterMs = 1000;
} // namespace

BrokerControl::BrokerControl(Context &context, QObject *parent) : QObject(parent), m_ctx(context)
{
    m_timer.setSingleShot(true);
}

void BrokerControl::probe(std::function<void(Health)> done)
{
    m_ctx.client().get(
        QStringLiteral("/health"),
        [done = std::move(done)](Broker::Result<QJsonValue> answer) {
            Health h;
            if (!answer) {
                h.error = answer.error();
            } else {
                h.up = true;
                h.raw = answer->toObject();
                h.pid = h.raw.value(QStringLiteral("pid")).toInteger();
                h.peers = h.raw.value(QStringLiteral("peers")).toInt();
            }
            done(h);
        },
        ProbeTimeoutMs);
}

Broker::Result<qint64> BrokerControl::verifiedPid(const Health &health) const
{
    const auto filePid = Broker::Launcher::readPidFile(m_ctx.location());
    if (!filePid)
        return Broker::fail(Broker::ErrorKind::NoPid,
                            QStringLiteral("no pid file at %1").arg(m_ctx.location().pidPath()));
    if (!Broker::Launcher::isProcessAlive(*filePid))
        return Broker::fail(
            Broker::ErrorKind::NoPid,
            QStringLiteral("the pid file names process %1, which is not running").arg(*filePid));
    if (health.pid <= 0)
        return Broker::fail(
            Broker::ErrorKind::NoPid,
            QStringLiteral("/health does not report a pid to check the pid file (%1) against").arg(*filePid));
    if (health.pid != *filePid)
        return Broker::fail(
            Broker::ErrorKind::NoPid,
            QStringLiteral("the pid file names process %1 but the broker on %2 reports pid %3")
                .arg(*filePid)
                .arg(m_ctx.url())
                .arg(health.pid));
    return *filePid;
}

void BrokerControl::stop(std::function<void(int, bool)> done)
{
    probe([this, done = std::move(done)](Health health) mutable {
        if (!health.up) {
            if (health.error.kind != Broker::ErrorKind::Unreachable) {
                // Something answers on the port but not as a broker: do not touch it.
                m_ctx.err(QStringLiteral("Error: ") + health.error.message);
                done(ExitFailed, false);
                return;
            }
            m_ctx.out(QStringLiteral("Broker is not running."));
            if (const auto filePid = Broker::Launcher::readPidFile(m_ctx.location());
                filePid && Broker::Launcher::isProcessAlive(*filePid))
                m_ctx.err(
                    QStringLiteral("Note: the pid file %1 names process %2, but no broker answers on %3; "
                                   "leaving it alone.")
                        .arg(m_ctx.location().pidPath())
                        .arg(*filePid)
                        .arg(m_ctx.url()));
            done(ExitOk, false);
            return;
        }
        m_ctx.out(QStringLiteral("Broker has %1 peer(s). Shutting down...").arg(health.peers));
        m_ctx.client().post(
            QStringLiteral("/shutdown"), QJsonObject {},
            [this, health, done = std::move(done)](Broker::Result<QJsonValue> answer) mutable {
                afterShutdownRequest(health, std::move(answer), std::move(done));
            },
            ProbeTimeoutMs);
    });
}

void BrokerControl::afterShutdownRequest(const Health &health, Broker::Result<QJsonValue> answer,
                                         std::function<void(int, bool)> done)
{
    qint64 pid = health.pid;
    if (answer) {
        if (const qint64 answered = answer->toObject().value(QStringLiteral("pid")).toInteger(); answered > 0)
            pid = answered;
    } else if (answer.error().kind != Broker::ErrorKind::Unreachable) {
        // Refused (401/403), or a broker without /shutdown (404): signal it, if we can be sure.
        auto target = verifiedPid(health);
        if (!target) {
            m_ctx.err(QStringLiteral("Error: the broker refused /shutdown (%1) and cannot be signalled: %2.")
                          .arg(answer.error().message, target.error().message));
            done(ExitFailed, true);
            return;
        }
        if (auto sent = Broker::Launcher::sendSignal(*target, SIGTERM); !sent) {
            m_ctx.err(QStringLiteral("Error: ") + sent.error().message);
            done(ExitFailed, true);
            return;
        }
        m_ctx.out(QStringLiteral("The broker refused /shutdown (%1); sent SIGTERM to pid %2.")
                      .arg(answer.error().message)
                      .arg(*target));
        pid = *target;
    }
    // An unreachable answer to /shutdown usually means it exited before answering: wait.
    waitUntilDown(pid, [this, pid, done = std::move(done)](bool down) {
        if (down) {
            m_ctx.out(QStringLiteral("Broker stopped."));
            done(ExitOk, true);
            return;
        }
        m_ctx.err(QStringLiteral("Error: the broker%1 did not stop within %2 s.")
                      .arg(pid > 0 ? QStringLiteral(" (pid %1)").arg(pid) : QString())
                      .arg(StopWaitMs / 1000));
        done(ExitFailed, true);
    });
}

void BrokerControl::finishWait(bool reached)
{
    // Moved out first: the callback may start the next wait, which sets m_waitDone again.
    auto done = std::exchange(m_waitDone, nullptr);
    if (done)
        done(reached);
}

bool BrokerControl::processGone(qint64 pid) const
{
    if (pid > 0 && Broker::Launcher::isProcessAlive(pid))
        return false;
    // The pid file goes away when the broker exits cleanly; a stale one (dead pid) is fine.
    if (const auto filePid = Broker::Launcher::readPidFile(m_ctx.location());
        filePid && (pid <= 0 || *filePid == pid) && Broker::Launcher::isProcessAlive(*filePid))
        return false;
    return true;
}

void BrokerControl::waitUntilDown(qint64 pid, std::function<void(bool)> done)
{
    m_pid = pid;
    m_waitDone = std::move(done);
    m_deadline = QDeadlineTimer(StopWaitMs);
    m_elapsed.start();
    m_announced = false;
    m_timer.disconnect();
    connect(&m_timer, &QTimer::timeout, this, &BrokerControl::pollDown);
    pollDown();
}

void BrokerControl::pollDown()
{
    m_ctx.client().get(
        QStringLiteral("/health"),
        [this](Broker::Result<QJsonValue> answer) {
            const bool healthDown = !answer && answer.error().kind == Broker::ErrorKind::Unreachable;
            if (healthDown && processGone(m_pid)) {
                finishWait(true);
                return;
            }
            if (m_deadline.hasExpired()) {
                finishWait(false);
                return;
            }
            if (!m_announced && m_elapsed.elapsed() >= ProgressAfterMs) {
                m_announced = true;
                m_ctx.out(m_pid > 0 ? QStringLiteral("Waiting for the broker (pid %1) to exit...").arg(m_pid)
                                    : QStringLiteral("Waiting for the broker to exit..."));
            }
            m_timer.start(PollIntervalMs);
        },
        PollProbeTimeoutMs);
}

void BrokerControl::start(std::function<void(int)> done)
{
    const QString exe = Broker::Launcher::findBrokerExecutable();
    if (exe.isEmpty()) {
        m_ctx.err(QStringLiteral("Error: %1.")
                      .arg(Broker::Launcher::brokerSearchDescription(QStringLiteral("claude-peers"))));
        done(ExitFailed);
        return;
    }
    m_ctx.out(QStringLiteral("Starting %1...").arg(exe));
    auto started = Broker::Launcher::startDetached(exe, {}, m_ctx.environment());
    if (!started) {
        m_ctx.err(QStringLiteral("Error: ") + started.error().message);
        done(ExitFailed);
        return;
    }
    m_pid = *started;
    m_deadline = QDeadlineTimer(StartWaitMs);
    m_elapsed.start();
    m_announced = false;
    m_waitDone = [this, done = std::move(done)](bool up) {
        if (up) {
            m_ctx.out(QStringLiteral("Broker running on %1 (pid %2). Sessions reconnect by themselves.")
                          .arg(m_ctx.url())
                          .arg(m_pid));
            done(ExitOk);
        } else {
            done(ExitFailed);
        }
    };
    m_timer.disconnect();
    connect(&m_timer, &QTimer::timeout, this, &BrokerControl::pollUp);
    m_timer.start(PollIntervalMs);
}

void BrokerControl::pollUp()
{
    m_ctx.client().get(
        QStringLiteral("/health"),
        [this](Broker::Result<QJsonValue> answer) {
            if (answer) {
                const qint64 pid = answer->toObject().value(QStringLiteral("pid")).toInteger();
                if (pid > 0)
                    m_pid = pid;
                finishWait(true);
                return;
            }
            if (!Broker::Launcher::isProcessAlive(m_pid)) {
                m_ctx.err(
                    QStringLiteral("Error: the broker (pid %1) exited at once. Run claude-peers-broker in a "
                                   "terminal to see why.")
                        .arg(m_pid));
                finishWait(false);
                return;
            }
            if (m_deadline.hasExpired()) {
                m_ctx.err(QStringLiteral("Error: the broker did not answer on %1 within %2 s.")
                              .arg(m_ctx.url())
                              .arg(StartWaitMs / 1000));
                finishWait(false);
                return;
            }
            if (!m_announced && m_elapsed.elapsed() >= ProgressAfterMs) {
                m_announced = true;
                m_ctx.out(QStringLiteral("Waiting for the broker to answer on %1...").arg(m_ctx.url()));
            }
            m_timer.start(PollIntervalMs);
        },
        PollProbeTimeoutMs);
}

} // namespace Cli
