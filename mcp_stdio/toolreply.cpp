#include "mcp_stdio/toolreply.h"

#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/toolregistry.h"

#include <QList>
#include <QPointer>

namespace Mcp {

struct ToolReply::State
{
    struct Handler
    {
        QPointer<QObject> context;
        std::function<void()> run;
    };

    QPointer<ToolRegistry> registry;
    quint64 callId = 0;
    QString tool;
    bool answered = false;
    bool cancelled = false;
    QList<Handler> onCancelled;

    ~State()
    {
        if (answered || cancelled || !registry || !registry->isOpen(callId))
            return;
        qCWarning(lcTools).noquote() << "the" << tool << "tool dropped its call without an answer";
        // Later, from the event loop: this destructor may run deep inside the tool's own code.
        QMetaObject::invokeMethod(
            registry.data(),
            [registry = registry, id = callId, name = tool] {
                if (registry)
                    registry->answer(
                        id,
                        ToolResult::error(QStringLiteral("The %1 tool ended without an answer (a bug in "
                                                         "claude-peers, please report it). Try again.")
                                              .arg(name)));
            },
            Qt::QueuedConnection);
    }
};

ToolReply ToolReply::open(ToolRegistry *registry, quint64 callId, const QString &tool)
{
    auto state = std::make_shared<State>();
    state->registry = registry;
    state->callId = callId;
    state->tool = tool;
    return ToolReply(std::move(state));
}

void ToolReply::send(QJsonObject callToolResult) const
{
    State &s = *m_state;
    if (s.answered) {
        qCWarning(lcTools).noquote() << "the" << s.tool
                                     << "tool answered twice; the second answer is dropped";
        return;
    }
    s.answered = true;
    s.onCancelled.clear();
    if (s.cancelled) {
        qCDebug(lcTools).noquote() << "answer of the cancelled" << s.tool << "call dropped";
        return;
    }
    if (s.registry)
        s.registry->answer(s.callId, std::move(callToolResult));
}

bool ToolReply::isCancelled() const
{
    return m_state->cancelled;
}

bool ToolReply::isAnswered() const
{
    return m_state->answered;
}

void ToolReply::onCancelled(QObject *context, std::function<void()> handler) const
{
    Q_ASSERT(context);
    State &s = *m_state;
    if (s.answered)
        return;
    if (s.cancelled) {
        handler();
        return;
    }
    s.onCancelled.append(State::Handler {context, std::move(handler)});
}

void ToolReply::cancel(const std::shared_ptr<State> &state)
{
    if (state->answered || state->cancelled)
        return;
    state->cancelled = true;
    // A handler may drop the last other copy of the handle: state stays alive through ours.
    const QList<State::Handler> handlers = std::exchange(state->onCancelled, {});
    for (const State::Handler &h : handlers) {
        if (h.context)
            h.run();
    }
}

} // namespace Mcp
