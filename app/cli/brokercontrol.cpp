#include "app/cli/brokercontrol.h"

#include "app/cli/command.h"
#include "app/cli/context.h"
#include "app/cli/formatting.h"
#include "common/launcher.h"
#include "common/liveness.h"

#include <QElapsedTimer>
#include <QJsonObject>

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
        if (!m_quiet)
            m_ctx.out(QStringLiteral("Starting %1...").arg(program));
    });
    connect(&m_lifecycle, &Broker::BrokerLifecycle::stopping, this,
            [this](const Broker::BrokerHealth &health) {
                if (!m_quiet)
                    m_ctx.out(QStringLiteral("Broker has %1 peer(s). Shutting down...").arg(health.peers));
            });
    connect(&m_lifecycle, &Broker::BrokerLifecycle::signalled, this,
            [this](qint64 pid, const Broker::Error &refusal) {
                m_ctx.out(QStringLiteral("The broker refused /shutdown (%1); sent SIGTERM to pid %2.")
                              .arg(refusal.message)
                              .arg(pid));
            });
    connect(&m_lifecycle, &Broker::BrokerLifecycle::waitingLong, this, [this](qint64 pid) {
        if (m_quiet)
            return;
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
            if (!m_quiet)
                m_ctx.out(QStringLiteral("Broker stopped."));
            done(ExitOk);
            return;
        }
        if (!m_quiet)
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
            if (!m_quiet)
                m_ctx.out(QStringLiteral("Broker running on %1 (pid %2). Sessions reconnect by themselves.")
                              .arg(m_ctx.url())
                              .arg(started->health.pid > 0 ? started->health.pid : started->startedPid));
            done(ExitOk);
        });
}

void BrokerControl::replace(bool json, std::function<void(int)> done)
{
    m_quiet = json;
    m_starting = true;
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    const auto report = [this, json, clock, done](qint64 oldPid, qint64 newPid, const QString &method) {
        if (json) {
            m_ctx.outRaw(Format::prettyJson(QJsonObject {
                {QStringLiteral("old_pid"), oldPid > 0 ? QJsonValue(oldPid) : QJsonValue(QJsonValue::Null)},
                {QStringLiteral("new_pid"), newPid},
                {QStringLiteral("method"), method},
                {QStringLiteral("ms"), clock->elapsed()},
                {QStringLiteral("url"), m_ctx.url()},
            }));
        } else if (method == QLatin1String("handover")) {
            m_ctx.out(QStringLiteral(
                          "Broker restarted on %1: pid %2 took over from pid %3 in %4 ms without closing "
                          "the port. Sessions carry on.")
                          .arg(m_ctx.url())
                          .arg(newPid)
                          .arg(oldPid)
                          .arg(clock->elapsed()));
        }
        done(ExitOk);
    };
    m_lifecycle.replace([this, json, report,
                         done](Broker::Result<Broker::BrokerLifecycle::Replaced> replaced) {
        if (replaced) {
            if (replaced->oldPid == 0 && !json)
                m_ctx.out(QStringLiteral("Broker running on %1 (pid %2). Sessions reconnect by themselves.")
                              .arg(m_ctx.url())
                              .arg(replaced->newPid));
            report(replaced->oldPid, replaced->newPid,
                   replaced->oldPid ? QStringLiteral("handover") : QStringLiteral("start"));
            return;
        }
        if (replaced.error().kind != Broker::ErrorKind::HandoverRefused) {
            m_ctx.err(QStringLiteral("Error: ") + replaced.error().message);
            done(ExitFailed);
            return;
        }
        // An older broker, or one that refused: the way without a hand-over.
        m_ctx.err(replaced.error().message + QStringLiteral(" Stopping it and starting a new one instead."));
        probe([this, report, done](Health before) {
            const qint64 oldPid = before.up ? before.broker.pid : 0;
            stop([this, oldPid, report, done](int code) {
                if (code != ExitOk) {
                    done(code);
                    return;
                }
                m_starting = true;
                m_lifecycle.ensureRunning([this, oldPid, report,
                                           done](Broker::Result<Broker::BrokerLifecycle::Started> started) {
                    if (!started) {
                        m_ctx.err(QStringLiteral("Error: ") + started.error().message);
                        done(ExitFailed);
                        return;
                    }
                    const qint64 newPid = started->health.pid > 0 ? started->health.pid : started->startedPid;
                    if (!m_quiet)
                        m_ctx.out(
                            QStringLiteral("Broker running on %1 (pid %2). Sessions reconnect by themselves.")
                                .arg(m_ctx.url())
                                .arg(newPid));
                    report(oldPid, newPid, QStringLiteral("stop-start"));
                });
            });
        });
    });
}

} // namespace Cli
