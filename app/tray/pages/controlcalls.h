#pragma once

#include "common/controlwire.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <expected>
#include <functional>

namespace Broker {
class BrokerClient;
}

namespace App {

// What the control service answered to one action: its result object, or its failure (the
// service's status and text, partial fields; status 0 when the broker was not reachable).
using ControlOutcome = std::expected<QJsonObject, Broker::ControlFailure>;

// Runs /control actions for the Sessions and Schedules pages over the GUI thread's broker
// client: the request `claude-peers session|schedule … --json` sends, with the CLI's timeouts.
// Each runs on a connection of its own (a wait of minutes holds up nothing else), so cancel()
// closes it and the broker cancels the action, as the CLI's Ctrl-C does. A callback never runs
// after cancel() or once this object is gone (destroying it cancels what still runs).
class ControlCalls : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultTimeoutMs = 30000; // the CLI's: OpenCode's start plus the landing check
    static constexpr int DefaultWaitSeconds = 600;
    static constexpr int WaitMarginMs = 30000;

    using Done = std::function<void(ControlOutcome)>;

    explicit ControlCalls(Broker::BrokerClient *client, QObject *parent = nullptr);
    ~ControlCalls() override;

    // Starts one action; done runs once, later, from the event loop. Returns its id for cancel().
    quint64 run(const QString &action, const QJsonObject &input, Done done);
    void cancel(quint64 id);
    int running() const { return int(m_running.size()); }

    // The HTTP deadline of an action with this input (as the CLI: a wait adds its timeout).
    static int timeoutFor(const QJsonObject &input);
    // The service's text, plus what a partial result left behind, in plain words.
    static QString describe(const Broker::ControlFailure &failure);

private:
    QPointer<Broker::BrokerClient> m_client;
    QSet<quint64> m_running;
};

} // namespace App
