// ActionRun's plain-prompt dispatch and its landing check (docs/spec/control-service.md §6.4
// plain path, §6.5): prompt_async answers 204 before the run starts, so the prompt counts as
// dispatched only once a new user message appears in the session (150 ms polls, 5 s window).
#include "openchamber/actionrun.h"

#include "broker/clock.h"
#include "openchamber/actionrunsupport.h"
#include "openchamber/opencodeevents.h"
#include "openchamber/sessionservice.h"

#include <algorithm>

namespace OpenChamber {

using namespace ActionRunSupport;

namespace {

constexpr int EventConnectWaitMs = 250;
const QString kNotLanded =
    QStringLiteral("OpenCode accepted the prompt but it never appeared in the session");

} // namespace

void ActionRun::dispatchPrompt(const Selection &selection)
{
    const QString messagePath = OpenCodeClient::sessionPath(m_sessionId, QStringLiteral("/message"));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("100"));
    auto withBaseline = [this, selection](OpenCodeResult<QJsonValue> baseline) {
        m_baselineUser = baseline ? newestUserMessageId(baseline->toArray()) : QString();
        // Listen before posting, so that the landing and the run's end cannot slip past; a
        // stream that does not connect soon only costs the polling's latency.
        if (m_confirmLanding || m_wait)
            ensureEvents(m_directory);
        if (m_events && !m_events->isConnected()) {
            connect(m_events, &OpenCodeEventStream::connected, this, &ActionRun::wake);
            connect(m_events, &OpenCodeEventStream::ended, this, &ActionRun::wake);
            return sleep(EventConnectWaitMs, [this, selection] { postPrompt(selection); });
        }
        postPrompt(selection);
    };
    // A session this action created a moment ago has no messages: no baseline to read.
    if (m_freshSession)
        return withBaseline(QJsonValue(QJsonArray()));
    get(messagePath, m_directory, query, std::move(withBaseline));
}

void ActionRun::postPrompt(const Selection &selection)
{
    QJsonObject body {{QStringLiteral("model"), selection.model->toJson()},
                      {QStringLiteral("parts"),
                       QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("text")},
                                                {QStringLiteral("text"), m_prompt}}}}};
    if (!selection.agent.isEmpty())
        body.insert(QStringLiteral("agent"), selection.agent);
    if (!selection.variant.isEmpty())
        body.insert(QStringLiteral("variant"), selection.variant);
    post(OpenCodeClient::sessionPath(m_sessionId, QStringLiteral("/prompt_async")), m_directory, body,
         [this](auto answer) {
             if (!answer)
                 return failOpenCode(answer.error(), QStringLiteral("prompt_async failed"));
             if (!m_confirmLanding) {
                 // A scheduled run: OpenCode accepting the prompt is the dispatch
                 // (docs/spec/control-service.md §9.3).
                 setDispatched(true, false);
                 Q_EMIT m_service.promptDispatched(m_directory, m_sessionId);
                 return finishSessionAction();
             }
             m_landingDeadline = now() + m_service.options().landingWindowMs;
             confirmLanding();
         });
}

void ActionRun::confirmLanding()
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("100"));
    get(OpenCodeClient::sessionPath(m_sessionId, QStringLiteral("/message")), m_directory, query,
        [this](auto answer) {
            // A failed lookup is no evidence that the prompt was lost
            // (docs/spec/control-service.md §6.5): count it as landed.
            if (!answer)
                return landed(true);
            const QString newest = newestUserMessageId(answer->toArray());
            if (!newest.isEmpty() && newest != m_baselineUser)
                return landed(true);
            if (now() >= m_landingDeadline)
                return landed(false);
            sleep(std::min<qint64>(m_service.options().landingPollMs, m_landingDeadline - now()),
                  [this] { confirmLanding(); });
        });
}

void ActionRun::landed(bool yes)
{
    setDispatched(yes, false);
    if (yes)
        Q_EMIT m_service.promptDispatched(m_directory, m_sessionId);
    else
        m_result.insert(QStringLiteral("promptError"), kNotLanded);
    finishSessionAction();
}

} // namespace OpenChamber
