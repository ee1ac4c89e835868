#include "common/brokerlifecycle.h"

#include "common/brokerclient.h"
#include "common/clientlogging.h"
#include "common/launcher.h"
#include "common/liveness.h"

#include <QJsonArray>
#include <QLockFile>
#include <QPointer>

#include <algorithm>
#include <csignal>
#include <utility>

namespace Broker {

namespace {

bool isUnreachable(const Error &error)
{
    return error.kind == ErrorKind::Unreachable;
}

QString seconds(int ms)
{
    return QString::number(ms / 1000.0);
}

} // namespace

Result<BrokerHealth> BrokerHealth::fromAnswer(const QJsonValue &answer, quint16 port)
{
    const QJsonObject object = answer.toObject();
    if (object.value(QLatin1String("status")).toString() != QLatin1String("ok"))
        return fail(ErrorKind::NotABroker,
                    QStringLiteral("Port %1 is in use by a program that is not a claude-peers broker (its "
                                   "/health answer has no \"status\":\"ok\"). Stop that program or give "
                                   "claude-peers another port with CLAUDE_PEERS_PORT.")
                        .arg(port));
    BrokerHealth health;
    health.raw = object;
    health.pid = object.value(QLatin1String("pid")).toInteger();
    health.peers = object.value(QLatin1String("peers")).toInt();
    health.version = object.value(QLatin1String("version")).toString();
    health.databaseId = object.value(QLatin1String("database_id")).toString();
    for (const QJsonValue &c : object.value(QLatin1String("capabilities")).toArray())
        health.capabilities << c.toString();
    return health;
}

BrokerLifecycle::BrokerLifecycle(BrokerClient *client, Options options, QObject *parent)
    : QObject(parent), m_client(client), m_options(std::move(options))
{
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &BrokerLifecycle::poll);
}

BrokerLifecycle::~BrokerLifecycle() = default;

quint64 BrokerLifecycle::begin()
{
    abort();
    m_busy = true;
    return m_operation;
}

void BrokerLifecycle::abort()
{
    ++m_operation; // answers of the dropped operation find a newer number and are ignored
    m_busy = false;
    m_pollTimer.stop();
    m_waitDone = nullptr;
}

void BrokerLifecycle::probe(Callback<BrokerHealth> done)
{
    const quint64 operation = begin();
    const quint16 port = m_client->location().port;
    m_client->get(
        QStringLiteral("/health"),
        [this, alive = QPointer(this), operation, port, done = std::move(done)](Result<QJsonValue> answer) {
            if (!alive || !current(operation))
                return;
            m_busy = false;
            if (!answer) {
                if (isUnreachable(answer.error())) {
                    done(std::unexpected(answer.error()));
                    return;
                }
                // An HTTP error or a body that is not JSON: not our broker either.
                done(fail(ErrorKind::NotABroker,
                          QStringLiteral("Port %1 is in use by a program that is not a claude-peers broker "
                                         "(%2). Stop that program or give claude-peers another port with "
                                         "CLAUDE_PEERS_PORT.")
                              .arg(port)
                              .arg(answer.error().message)));
                return;
            }
            done(BrokerHealth::fromAnswer(*answer, port));
        },
        m_options.probeTimeoutMs);
}

void BrokerLifecycle::ensureRunning(Callback<Started> done)
{
    probe([this, done = std::move(done)](Result<BrokerHealth> health) mutable {
        if (health) {
            done(Started {*health, 0});
            return;
        }
        if (!isUnreachable(health.error())) {
            done(std::unexpected(health.error()));
            return;
        }
        launch(begin(), std::move(done));
    });
}

void BrokerLifecycle::launch(quint64 operation, Callback<Started> done)
{
    const QString program = Launcher::findBrokerExecutable();
    if (program.isEmpty()) {
        m_busy = false;
        done(fail(ErrorKind::BrokerNotFound,
                  QStringLiteral("No broker answers at %1 and %2. Start the tray app or claude-peers-broker.")
                      .arg(m_client->location().baseUrl().toString(),
                           Launcher::brokerSearchDescription(m_options.programName))));
        return;
    }
    // Several clients may notice at once; the broker's lock file lets exactly one of them win.
    // --no-take-over: a broker is started because none answers; when several clients notice at
    // once, the first one's lock wins and the others exit instead of taking over from it.
    const Result<qint64> pid =
        Launcher::startDetached(program, {QStringLiteral("--no-take-over")}, m_options.environment);
    if (!pid) {
        m_busy = false;
        done(fail(ErrorKind::StartFailed, pid.error().message));
        return;
    }
    qCInfo(lcClientLauncher) << "started" << program << "pid" << *pid;
    Q_EMIT launched(*pid, program);
    if (!current(operation)) // a receiver aborted
        return;
    waitFor(Goal::Up, *pid, [startedPid = *pid, done = std::move(done)](Result<BrokerHealth> health) {
        if (!health)
            done(std::unexpected(health.error()));
        else
            done(Started {*health, startedPid});
    });
}

void BrokerLifecycle::replace(Callback<Replaced> done)
{
    probe([this, done = std::move(done)](Result<BrokerHealth> health) mutable {
        if (!health && !isUnreachable(health.error())) {
            done(std::unexpected(health.error()));
            return;
        }
        if (!health) {
            launch(begin(), [done = std::move(done)](Result<Started> started) {
                if (!started)
                    done(std::unexpected(started.error()));
                else
                    done(Replaced {0, started->startedPid, started->health});
            });
            return;
        }
        const quint64 operation = begin();
        const QString program = Launcher::findBrokerExecutable();
        if (program.isEmpty()) {
            m_busy = false;
            done(fail(ErrorKind::BrokerNotFound, Launcher::brokerSearchDescription(m_options.programName)));
            return;
        }
        const Result<qint64> pid = Launcher::startDetached(program, {}, m_options.environment);
        if (!pid) {
            m_busy = false;
            done(fail(ErrorKind::StartFailed, pid.error().message));
            return;
        }
        qCInfo(lcClientLauncher) << "started" << program << "pid" << *pid << "to take over from pid"
                                 << health->pid;
        Q_EMIT launched(*pid, program);
        if (!current(operation))
            return;
        waitFor(Goal::Replaced, *pid,
                [oldPid = health->pid, newPid = *pid, done = std::move(done)](Result<BrokerHealth> now) {
                    if (!now)
                        done(std::unexpected(now.error()));
                    else
                        done(Replaced {oldPid, newPid, *now});
                });
    });
}

void BrokerLifecycle::stop(Callback<Stopped> done)
{
    probe([this, done = std::move(done)](Result<BrokerHealth> health) mutable {
        if (!health) {
            if (isUnreachable(health.error()))
                done(Stopped {});
            else
                done(std::unexpected(health.error()));
            return;
        }
        askToShutDown(begin(), *health, std::move(done));
    });
}

void BrokerLifecycle::askToShutDown(quint64 operation, const BrokerHealth &health, Callback<Stopped> done)
{
    Q_EMIT stopping(health);
    if (!current(operation))
        return;
    m_client->post(
        QStringLiteral("/shutdown"), QJsonObject {},
        [this, alive = QPointer(this), operation, health,
         done = std::move(done)](Result<QJsonValue> answer) mutable {
            if (alive && current(operation))
                afterShutdownAnswer(operation, health, std::move(answer), std::move(done));
        },
        m_options.probeTimeoutMs);
}

void BrokerLifecycle::afterShutdownAnswer(quint64 operation, const BrokerHealth &health,
                                          Result<QJsonValue> answer, Callback<Stopped> done)
{
    Stopped stopped {true, health.pid, false};
    if (answer) {
        if (const qint64 answered = answer->toObject().value(QLatin1String("pid")).toInteger(); answered > 0)
            stopped.pid = answered;
    } else if (!isUnreachable(answer.error())) {
        // Refused (401/403: another token), or a broker without /shutdown (404). An unreachable
        // answer, though, usually means it exited before its answer was flushed: wait.
        const Error refusal = answer.error();
        if (!m_options.signalWhenRefused) {
            m_busy = false;
            done(fail(ErrorKind::ShutdownRefused,
                      QStringLiteral("The broker on port %1 refused to shut down: %2")
                          .arg(m_client->location().port)
                          .arg(refusal.message)));
            return;
        }
        const Result<qint64> target = verifiedPid(health);
        if (!target) {
            m_busy = false;
            done(fail(ErrorKind::ShutdownRefused,
                      QStringLiteral("The broker refused /shutdown (%1) and cannot be signalled: %2.")
                          .arg(refusal.message, target.error().message)));
            return;
        }
        if (const Result<void> sent = Launcher::sendSignal(*target, SIGTERM); !sent) {
            m_busy = false;
            done(std::unexpected(sent.error()));
            return;
        }
        stopped.pid = *target;
        stopped.signalled = true;
        Q_EMIT signalled(*target, refusal);
        if (!current(operation))
            return;
    }
    waitFor(Goal::Down, stopped.pid, [stopped, done = std::move(done)](Result<BrokerHealth> down) {
        if (!down)
            done(std::unexpected(down.error()));
        else
            done(stopped);
    });
}

Result<qint64> BrokerLifecycle::verifiedPid(const BrokerHealth &health) const
{
    const Location &location = m_client->location();
    const auto filePid = Launcher::readPidFile(location);
    if (!filePid)
        return fail(ErrorKind::NoPid, QStringLiteral("no pid file at %1").arg(location.pidPath()));
    if (!Liveness::isProcessAlive(*filePid))
        return fail(ErrorKind::NoPid,
                    QStringLiteral("the pid file names process %1, which is not running").arg(*filePid));
    if (health.pid <= 0)
        return fail(
            ErrorKind::NoPid,
            QStringLiteral("/health does not report a pid to check the pid file (%1) against").arg(*filePid));
    if (health.pid != *filePid)
        return fail(ErrorKind::NoPid,
                    QStringLiteral("the pid file names process %1 but the broker on %2 reports pid %3")
                        .arg(*filePid)
                        .arg(location.baseUrl().toString())
                        .arg(health.pid));
    return *filePid;
}

void BrokerLifecycle::waitFor(Goal goal, qint64 pid, std::function<void(Result<BrokerHealth>)> done)
{
    m_goal = goal;
    m_pid = pid;
    m_waitDone = std::move(done);
    m_deadline = QDeadlineTimer(goal == Goal::Down ? m_options.stopTimeoutMs : m_options.startTimeoutMs);
    m_elapsed.start();
    m_announced = false;
    m_nextPollMs = std::max(1, std::min(m_options.firstPollMs, m_options.maxPollMs));
    // A starting broker needs a moment before it can answer; a stopping one may already be gone.
    if (goal != Goal::Down)
        m_pollTimer.start(m_nextPollMs);
    else
        poll();
}

void BrokerLifecycle::poll()
{
    if (!m_busy)
        return;
    const quint64 operation = m_operation;
    m_client->get(
        QStringLiteral("/health"),
        [this, alive = QPointer(this), operation](Result<QJsonValue> answer) {
            if (alive && current(operation))
                onPollAnswer(answer);
        },
        std::min<qint64>(m_options.pollTimeoutMs, std::max<qint64>(m_deadline.remainingTime(), 50)));
}

void BrokerLifecycle::onPollAnswer(const Result<QJsonValue> &answer)
{
    const quint16 port = m_client->location().port;
    if (m_goal == Goal::Replaced) {
        if (answer) {
            if (Result<BrokerHealth> health = BrokerHealth::fromAnswer(*answer, port);
                health && health->pid == m_pid) {
                qCInfo(lcClientLauncher) << "the new broker serves after" << m_elapsed.elapsed() << "ms";
                finishWait(std::move(health));
                return;
            }
        }
        if (!Liveness::isProcessAlive(m_pid)) {
            finishWait(
                fail(ErrorKind::HandoverRefused,
                     QStringLiteral("The new broker (pid %1) exited without taking over on %2 (the running "
                                    "broker has no hand-over socket, or refused).")
                         .arg(m_pid)
                         .arg(m_client->location().baseUrl().toString())));
            return;
        }
    } else if (m_goal == Goal::Up) {
        if (answer) {
            Result<BrokerHealth> health = BrokerHealth::fromAnswer(*answer, port);
            if (health)
                qCInfo(lcClientLauncher) << "broker up after" << m_elapsed.elapsed() << "ms";
            finishWait(std::move(health)); // a stranger took the port: say so now
            return;
        }
        if (!Liveness::isProcessAlive(m_pid) && livingBrokerPid() == 0) {
            // Ours exited, and no other broker holds the database (one that won a start race
            // holds the lock, then writes its pid file): it failed.
            finishWait(fail(ErrorKind::BrokerExited,
                            QStringLiteral("The broker (pid %1) exited without serving on %2. Run "
                                           "claude-peers-broker in a terminal to see why.")
                                .arg(m_pid)
                                .arg(m_client->location().baseUrl().toString())));
            return;
        }
    } else {
        const bool portFree = !answer && isUnreachable(answer.error());
        if (portFree && processGone(m_pid)) {
            finishWait(BrokerHealth {});
            return;
        }
    }
    if (m_deadline.hasExpired()) {
        finishWait(std::unexpected(timeoutError()));
        return;
    }
    if (!m_announced && m_elapsed.elapsed() >= m_options.slowAfterMs) {
        m_announced = true;
        Q_EMIT waitingLong(m_pid);
        if (!m_busy)
            return;
    }
    m_nextPollMs = std::min(m_nextPollMs * 2, std::max(1, m_options.maxPollMs));
    m_pollTimer.start(m_nextPollMs);
}

Error BrokerLifecycle::timeoutError() const
{
    const quint16 port = m_client->location().port;
    if (m_goal != Goal::Down)
        return {ErrorKind::StartTimeout,
                QStringLiteral("Failed to start broker daemon after %1ms. Check if port %2 is in use: "
                               "ss -ltnp 'sport = :%2'")
                    .arg(m_options.startTimeoutMs)
                    .arg(port)};
    return {ErrorKind::StopTimeout,
            QStringLiteral("The broker%1 on port %2 did not stop within %3 s.")
                .arg(m_pid > 0 ? QStringLiteral(" (pid %1)").arg(m_pid) : QString())
                .arg(port)
                .arg(seconds(m_options.stopTimeoutMs))};
}

void BrokerLifecycle::finishWait(Result<BrokerHealth> result)
{
    m_pollTimer.stop();
    m_busy = false;
    // Moved out first: the callback may start the next operation.
    if (auto done = std::exchange(m_waitDone, nullptr))
        done(std::move(result));
}

qint64 BrokerLifecycle::livingBrokerPid() const
{
    const Location &location = m_client->location();
    if (const auto filePid = Launcher::readPidFile(location); filePid && Liveness::isProcessAlive(*filePid))
        return *filePid;
    QLockFile lock(location.lockPath());
    qint64 lockPid = 0;
    QString host;
    QString app;
    if (lock.getLockInfo(&lockPid, &host, &app) && Liveness::isProcessAlive(lockPid))
        return lockPid;
    return 0;
}

bool BrokerLifecycle::processGone(qint64 pid) const
{
    if (pid > 0 && Liveness::isProcessAlive(pid))
        return false;
    // The pid file goes away when the broker exits cleanly; a stale one (dead pid) is fine.
    if (const auto filePid = Launcher::readPidFile(m_client->location());
        filePid && (pid <= 0 || *filePid == pid) && Liveness::isProcessAlive(*filePid))
        return false;
    return true;
}

} // namespace Broker
