#pragma once

// The scheduled-task pieces plugged into a real BrokerServer the way the openchamber module
// plugs them (migrations, the job, start/stop), with a fake session starter that records each
// run and answers at once or when the test says.
#include "broker/brokermodule.h"
#include "openchamber/scheduler.h"
#include "openchamber/scheduleruntime.h"
#include "openchamber/scheduleservice.h"
#include "openchamber/schedulestore.h"

#include <QJsonObject>

#include <memory>
#include <optional>

struct FakeStarter
{
    struct Call
    {
        OpenChamber::ScheduledRunRequest request;
        OpenChamber::CancelToken cancel;
        std::function<void(OpenChamber::ScheduledRunResult)> done;
    };
    bool answerAtOnce = true;
    std::optional<OpenChamber::ControlError> failWith;
    QList<Call> calls;
    QList<Call> held; // runs not answered yet (answerAtOnce false)

    OpenChamber::ScheduledSessionStarter starter()
    {
        return [this](const OpenChamber::ScheduledRunRequest &request, OpenChamber::CancelToken cancel,
                      std::function<void(OpenChamber::ScheduledRunResult)> done) {
            calls.append({request, cancel, done});
            if (!answerAtOnce) {
                held.append({request, cancel, done});
                return;
            }
            answer(done);
        };
    }
    void answer(const std::function<void(OpenChamber::ScheduledRunResult)> &done)
    {
        if (failWith)
            done(std::unexpected(*failWith));
        else
            done(QStringLiteral("ses_%1").arg(calls.size()));
    }
    void answerHeld()
    {
        const auto pending = std::move(held);
        held.clear();
        for (const Call &call : pending)
            answer(call.done);
    }
};

class ScheduleTestModule final : public Broker::BrokerModule
{
public:
    FakeStarter fake;
    QList<OpenChamber::ScheduleProject> projects;
    OpenChamber::Scheduler::Limits limits;
    int recovered = -1;
    std::unique_ptr<OpenChamber::ScheduleRuntime> runtime;
    OpenChamber::ScheduleStore *store = nullptr;
    OpenChamber::Scheduler *scheduler = nullptr;
    OpenChamber::ScheduleService *service = nullptr;

    QString name() const override { return QStringLiteral("openchamber"); }
    QList<Broker::ModuleMigration> migrations() const override
    {
        return OpenChamber::ScheduleRuntime::migrations();
    }
    Broker::Result<void> start(Broker::ModuleContext &context) override
    {
        // Limits are read when the runtime is built: a test changes them before a (re)start.
        runtime = std::make_unique<OpenChamber::ScheduleRuntime>(
            fake.starter(), [this] { return projects; }, limits);
        auto started = runtime->start(context);
        if (!started)
            return started;
        recovered = runtime->recoveredAtStart();
        store = runtime->store();
        scheduler = runtime->scheduler();
        service = runtime->service();
        return {};
    }
    QList<Broker::ModuleJob> jobs() override { return runtime->jobs(); }
    void stop() override
    {
        store = nullptr;
        scheduler = nullptr;
        service = nullptr;
        runtime->stop();
    }

    // An action answered at once (every schedule action but a held run).
    OpenChamber::ControlResult call(const QString &action, const QJsonObject &input,
                                    const QString &context = {})
    {
        std::optional<OpenChamber::ControlResult> result;
        service->execute(action, input, context, {},
                         [&result](OpenChamber::ControlResult r) { result = std::move(r); });
        if (!result)
            return std::unexpected(OpenChamber::ControlError {0, QStringLiteral("no answer yet"), {}});
        return *result;
    }
};
