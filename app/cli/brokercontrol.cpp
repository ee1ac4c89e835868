#include "brokercontrol.h"

#include "command.h"
#include "context.h"
#include "launcher.h"
#include "liveness.h"

namespace Cli {

namespace {

Broker::BrokerLifecycle::Options lifecycleOptions(const Context &context)
{
    Broker::BrokerLifecycle::Options o;
    o.startTimeoutMs = BrokerControl::StartWaitMs;
    o.stopTimeoutMs = BrokerControl::StopWaitMs;
    o.signalWhenRefused = true;
    o.programName = QStringLiteral("claude-peers");
    o.environment = context.environment();
    return o;
}

} // namespace

BrokerControl::BrokerControl(Context &context, QObject *parent)
    : QObject(parent), m_ctx(context), m_lifecycle(&context.client(), lifecycleOptions(context))
{
    connect(&m_lifecycle, &Broker::BrokerLifecycle::launched, this, [this](qint64, const QString &program) {
        m_ctx.out(QStringLiteral("Starting %1...").arg(program));
    });
    connect(&m_lifecycle, &Broker::BrokerLifecycle::stopping, this,
            [this](const Broker::BrokerHealth &health) {
                m_ctx.out(QStringLiteral("Broker has %1 peer(s). Shutting down...").arg(health.peers));
            });
    connect(&m_lifecycle, &Broker::BrokerLifecycle::signalled, this,
            [this](qint64 pid, const Broker::Error &refusal) {
                m_ctx.out(QStringLiteral("The broker refused /shutdown (%1); sent SIGTERM to pid %2.")
                              .arg(refusal.message)
                              .arg(pid));
            });
    connect(&m_lifecycle, &Broker::BrokerLifecycle::waitingLong, this, [this](qint64 pid) {
        if (m_starting)
            m_ctx.out(QStringLiteral("Waiting for the broker to answer on %1...").arg(m_ctx.url()));
        else
            m_ctx.out(pid > 0 ? QStringLiteral("Waiting for the broker (pid %1) to exit...").arg(pid)
                              : QStringLiteral("Waiting for the broker to exit..."));
    });
}

void BrokerControl::probe(std::function<void(Health)> done)
{
    m_lifecycle.probe([done = std::move(done)](Broker::Result<Broker::BrokerHealth> answer) {
        Health h;
        if (answer) {
            h.up = true;
            h.broker = *answer;
        } else {
            h.error = answer.error();
        }
        done(h);
    });
}

Broker::Result<qint64> BrokerControl::verifiedPid(const Health &health) const
{
    return m_lifecycle.verifiedPid(health.broker);
}

void BrokerControl::stop(std::function<void(int)> done)
{
    m_starting = false;
    m_lifecycle.stop([this,
                      done = std::move(done)](Broker::Result<Broker::BrokerLifecycle::Stopped> stopped) {
        if (!stopped) {
            m_ctx.err(QStringLiteral("Error: ") + stopped.error().message);
            done(ExitFailed);
            return;
        }
        if (stopped->wasRunning) {
            m_ctx.out(QStringLiteral("Broker stopped."));
            done(ExitOk);
            return;
        }
        m_ctx.out(QStringLiteral("Broker is not running."));
        if (const auto filePid = Broker::Launcher::readPidFile(m_ctx.location());
            filePid && Broker::Liveness::isProcessAlive(*filePid))
            m_ctx.err(QStringLiteral("Note: the pid file %1 names process %2, but no broker answers on %3; "
                                     "leaving it alone.")
                          .arg(m_ctx.location().pidPath())
                          .arg(*filePid)
                          .arg(m_ctx.url()));
        done(ExitOk);
    });
}

void BrokerControl::start(std::function<void(int)> done)
{
    m_starting = true;
    m_lifecycle.ensureRunning(
        [this, done = std::move(done)](Broker::Result<Broker::BrokerLifecycle::Started> started) {
            if (!started) {
                m_ctx.err(QStringLiteral("Error: ") + started.error().message);
                done(ExitFailed);
                return;
            }
            m_ctx.out(QStringLiteral("Broker running on %1 (pid %2). Sessions reconnect by themselves.")
                          .arg(m_ctx.url())
                          .arg(started->health.pid > 0 ? started->health.pid : started->startedPid));
            done(ExitOk);
        });
}

} // namespace Cli
