#pragma once

#include <QObject>
#include <QString>

class QTimer;

namespace Broker {
class BrokerClient;
class UnixSignalNotifier;
} // namespace Broker

namespace Mcp {

class ClientLog;

class Delivery;
class JsonRpcDispatcher;
class ParentWatch;
class ClaudeSessionWatch;
class PushGate;
class Session;
class StdioTransport;
class StdoutWriter;
class ToolRegistry;

// The helper's composition root: stdin → framing → JSON-RPC → tool registry; the session and
// the delivery layers; stdout through its one writer. Ends (finished) on stdin EOF, stdout loss,
// parent death or SIGTERM/SIGINT/SIGHUP, after a bounded clean-up (acknowledge, unregister).
class McpServer : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        // Off by default: Claude Code starts a model turn (an API call) for the hello at every start.
        bool startupHello = false; // config server.startup_hello, env CLAUDE_PEERS_STARTUP_HELLO
        int parentCheckMs = 5000; // only without pidfd (reference: 5 s)
        int stdinFd = 0;
        int stdoutFd = 1;
    };
    static Options defaultOptions();

    explicit McpServer(Options options, QObject *parent = nullptr);
    ~McpServer() override;

    // Where a composition root adds other modules' tools (the openchamber tool), before
    // start(); the built-in peers tools are already in. What such a tool may work with: the
    // broker client (session credential) and the session (identity, cwd).
    ToolRegistry &tools() { return *m_tools; }
    Broker::BrokerClient &brokerClient() { return *m_client; }
    Session &session() { return *m_session; }

    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void startSession();
    void onClientKnown();
    void followClaudeSession();
    void useClaudeInbox();
    void onPushReady();
    void updateChannelPush();
    void shutdown(const QString &reason);
    void finish();

    Options m_options;
    StdoutWriter *m_writer;
    StdioTransport *m_transport;
    Broker::BrokerClient *m_client;
    Session *m_session;
    Delivery *m_delivery;
    ToolRegistry *m_tools;
    JsonRpcDispatcher *m_dispatcher;
    ParentWatch *m_parentWatch;
    Broker::UnixSignalNotifier *m_signals;
    PushGate *m_pushGate;
    ClaudeSessionWatch *m_sessionWatch = nullptr; // Claude Code only
    bool m_pushFailed = false;
    ClientLog *m_log;
    bool m_sessionStarted = false;
    bool m_shuttingDown = false;
    bool m_finished = false;
};

} // namespace Mcp
