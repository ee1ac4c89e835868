#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <expected>
#include <functional>
#include <memory>
#include <vector>

namespace OpenChamber {

// A failed action, as the contract's error model (docs/spec/control-service.md §2.2):
// 400 usage or validation, 404 project or task not found, 409 task already running, 499
// cancelled, 500 runtime or OpenCode failure. details carries the partial-result fields
// (partial, partialAction, sessionId, directory, …) that the adapters copy into their answer.
struct ControlError
{
    int status = 500;
    QString message;
    QJsonObject details;
};

// Success is the action's result object, verbatim (docs/spec/control-service.md §4).
using ControlResult = std::expected<QJsonObject, ControlError>;
using ControlCallback = std::function<void(ControlResult)>;

// Cancellation shared by an adapter and the action it started: the CLI's connection closing,
// the MCP client's notifications/cancelled. Copies share one state; callbacks run once, on the
// thread that cancels (the broker's).
class CancelToken
{
public:
    CancelToken() : m_state(std::make_shared<State>()) { }

    void cancel()
    {
        if (m_state->cancelled)
            return;
        m_state->cancelled = true;
        const auto callbacks = std::move(m_state->callbacks);
        for (const auto &callback : callbacks)
            callback();
    }
    bool isCancelled() const { return m_state->cancelled; }
    // Runs at once when already cancelled.
    void onCancel(std::function<void()> callback)
    {
        if (m_state->cancelled)
            callback();
        else
            m_state->callbacks.push_back(std::move(callback));
    }

private:
    struct State
    {
        bool cancelled = false;
        std::vector<std::function<void()>> callbacks;
    };
    std::shared_ptr<State> m_state;
};

// One entry of the action catalog (docs/spec/control-service.md §4): the agent tool lists the
// agentExposed ones.
struct ActionInfo
{
    QString name; // "session.create"
    QString title; // "Create a session"
    QString description;
    bool agentExposed = true;
};

// The transport-agnostic service (docs/spec/control-service.md §1, §14): both adapters — the
// broker's /control route for the CLI and /agent-tool for the helper's openchamber tool — call
// execute() and never each other. execute() answers through done exactly once, on the caller's (the
// broker's) thread, now or later; it never blocks the event loop.
class ControlService
{
public:
    virtual ~ControlService() = default;

    virtual QList<ActionInfo> catalog() const = 0;
    virtual void execute(const QString &action, const QJsonObject &input, const QString &contextDirectory,
                         CancelToken cancel, ControlCallback done) = 0;
};

} // namespace OpenChamber
