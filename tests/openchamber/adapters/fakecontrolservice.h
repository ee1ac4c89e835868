#pragma once

// A ControlService whose answers the test scripts: what the adapters sent it, and the answer
// (a result, a failure, or none yet: the call is held until the test answers or the client's
// cancellation arrives).
#include "openchamber/actioncatalog.h"
#include "openchamber/controlbackend.h"
#include "openchamber/controlservice.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

namespace OpenChamberTest {

struct ExecutedCall
{
    QString action;
    QJsonObject input;
    QString contextDirectory;
    OpenChamber::CancelToken cancel;
    OpenChamber::ControlCallback done;
    bool cancelled = false; // set by the token's callback
};

class FakeControlService final : public OpenChamber::ControlService
{
public:
    // What the next calls answer: the result, or an error; hold: no answer until the test
    // gives one (answerHeld) or the call is cancelled (then 499, as the service's waits).
    OpenChamber::ControlResult next = QJsonObject {{QStringLiteral("ok"), true}};
    bool hold = false;

    std::shared_ptr<QList<std::shared_ptr<ExecutedCall>>> calls =
        std::make_shared<QList<std::shared_ptr<ExecutedCall>>>();

    QList<OpenChamber::ActionInfo> catalog() const override { return OpenChamber::controlActions(); }

    void execute(const QString &action, const QJsonObject &input, const QString &contextDirectory,
                 OpenChamber::CancelToken cancel, OpenChamber::ControlCallback done) override
    {
        auto call =
            std::make_shared<ExecutedCall>(ExecutedCall {action, input, contextDirectory, cancel, done});
        calls->append(call);
        cancel.onCancel([weak = std::weak_ptr<ExecutedCall>(call)] {
            if (auto c = weak.lock()) {
                c->cancelled = true;
                if (c->done)
                    std::exchange(c->done, nullptr)(std::unexpected(OpenChamber::ControlError {
                        499, QStringLiteral("OpenChamber action was cancelled"), {}}));
            }
        });
        if (!hold && call->done)
            std::exchange(call->done, nullptr)(next);
    }

    static void answerHeld(ExecutedCall &call, OpenChamber::ControlResult result)
    {
        if (call.done)
            std::exchange(call.done, nullptr)(std::move(result));
    }
};

// A backend that only has the fake service (no tables, no jobs).
class FakeBackend final : public OpenChamber::ControlBackend
{
public:
    explicit FakeBackend(std::unique_ptr<FakeControlService> service) : m_service(std::move(service)) { }
    Broker::Result<void> start(Broker::ModuleContext &) override
    {
        m_started = true;
        return {};
    }
    void stop() override { m_started = false; }
    OpenChamber::ControlService *service() override { return m_started ? m_service.get() : nullptr; }

private:
    std::unique_ptr<FakeControlService> m_service;
    bool m_started = false;
};

} // namespace OpenChamberTest
