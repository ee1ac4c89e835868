// ActionRun's wait (docs/spec/control-service.md §8): until the session is idle again after
// the run this action started, never on the idle that precedes it; timeout and cancellation are
// errors. Also the wait that ends a create/send/fork with wait:true.
#include "openchamber/actionrun.h"

#include "broker/clock.h"
#include "openchamber/actionrunsupport.h"
#include "openchamber/sessionservice.h"

#include <algorithm>

namespace OpenChamber {

using namespace ActionRunSupport;

void ActionRun::waitForIdle(Wait wait)
{
    wait.deadline = now() + wait.timeoutMs;
    m_waiting = std::move(wait);
    waitStep();
}

void ActionRun::waitStep()
{
    Wait &w = *m_waiting;
    fetchStatus(w.sessionId, w.directory, [this](const QJsonObject &status) {
        Wait &w = *m_waiting;
        if (isActive(status)) {
            w.observed = true;
            return waitSleep();
        }
        if (!w.requireActivity || w.observed)
            return w.then(status);
        // Idle without having seen it busy: done only if a new answer completed meanwhile
        // (the run was faster than the polling), never on the idle that precedes the run.
        fetchText(w.sessionId, w.directory, MessageRole::Assistant, 1, [this, status](QJsonArray last) {
            Wait &w = *m_waiting;
            if (!last.isEmpty()) {
                const QJsonObject m = last.last().toObject();
                const QJsonValue completed = m.value(QStringLiteral("completedAt"));
                if (completed.isDouble()) {
                    const bool fresh = w.baselineAssistant.isEmpty()
                        ? qint64(completed.toDouble()) >= w.startedAt
                        : m.value(QStringLiteral("id")).toString() != w.baselineAssistant;
                    if (fresh)
                        return w.then(status);
                }
            }
            waitSleep();
        });
    });
}

void ActionRun::waitSleep()
{
    const Wait &w = *m_waiting;
    const qint64 remaining = w.deadline - now();
    if (remaining <= 0)
        return fail(runtimeError(
            QStringLiteral("Session did not become idle within %1 seconds").arg((w.timeoutMs + 999) / 1000)));
    sleep(std::min<qint64>(m_service.options().waitPollMs, remaining), [this] { waitStep(); });
}

void ActionRun::finishSessionAction()
{
    if (!m_wait)
        return succeed(m_result);
    ensureEvents(m_directory);
    Wait w;
    w.sessionId = m_sessionId;
    w.directory = m_directory;
    w.timeoutMs = m_timeoutMs;
    w.requireActivity = m_result.value(QStringLiteral("promptDispatched")).toBool();
    w.observed = w.requireActivity && m_sawActivity;
    w.baselineAssistant = m_baselineAssistant;
    w.startedAt = m_startedAt;
    w.then = [this](QJsonObject status) {
        m_result.insert(QStringLiteral("sessionStatus"), status);
        if (!m_lastAssistant)
            return succeed(m_result);
        fetchText(m_sessionId, m_directory, MessageRole::Assistant, 1, [this](QJsonArray last) {
            m_result.insert(QStringLiteral("lastAssistantMessage"),
                            last.isEmpty() ? QJsonValue(QJsonValue::Null) : last.last());
            succeed(m_result);
        });
    };
    waitForIdle(std::move(w));
}

} // namespace OpenChamber
