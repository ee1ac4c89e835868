#pragma once

#include "mcp_stdio/toolresult.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace Mcp {

class ToolRegistry;

// How a tool answers one tools/call: a cheap handle to copy into asynchronous work. The first
// answer counts; later ones are dropped (and logged: a tool answered twice).
//
// A call can be cancelled before its answer: by the client (notifications/cancelled) or
// because the helper shuts down. Then the onCancelled() handlers run, once, and any later
// answer is dropped: a tool may stop its work, or just let the answer fall on the floor.
// When the last copy of an unanswered, uncancelled handle is destroyed (a tool bug, or work
// dropped without its callback), the client gets an isError result saying so instead of a
// call that never ends.
class ToolReply
{
public:
    void send(QJsonObject callToolResult) const;
    void text(const QString &text) const { send(ToolResult::text(text)); }
    void error(const QString &message) const { send(ToolResult::error(message)); }

    bool isCancelled() const;
    bool isAnswered() const;
    // handler runs once when the call is cancelled before its answer (at once when it already
    // was); never once context is destroyed, never after an answer.
    void onCancelled(QObject *context, std::function<void()> handler) const;

private:
    friend class ToolRegistry;
    struct State;

    explicit ToolReply(std::shared_ptr<State> state) : m_state(std::move(state)) { }
    static ToolReply open(ToolRegistry *registry, quint64 callId, const QString &tool);
    static void cancel(const std::shared_ptr<State> &state);

    std::shared_ptr<State> m_state;
};

} // namespace Mcp
