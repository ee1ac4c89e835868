#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>

#include <functional>
#include <optional>

// Test-side JSON-RPC driver for a real claude-peers-mcp process: writes lines to its stdin,
// reads its stdout line by line, and remembers every line that is not JSON (a protocol
// violation the tests assert never happens).
class McpClient : public QObject
{
    Q_OBJECT
public:
    explicit McpClient(QProcessEnvironment env, QString program = {}, QObject *parent = nullptr);
    ~McpClient() override; // kills the helper if still running

    bool start(const QStringList &arguments = {});
    // What initialize says the client is (default: "tst", no capabilities). Claude Code with
    // channels declares experimental["claude/channel"]; OpenCode calls itself "opencode".
    void setClientInfo(const QString &name, const QJsonObject &capabilities = {});
    static QJsonObject channelCapabilities();
    // Like every MCP client, answers the server's ping requests (unless told not to).
    void setAnswerPings(bool answer) { m_answerPings = answer; }
    // initialize (+ notifications/initialized); true when answered.
    bool initialize(bool sendInitialized = true,
                    const QString &protocolVersion = QStringLiteral("2025-11-25"));
    void sendInitialized();
    // Calls whoami until the helper is registered as peerId (a tool call also opens pushes).
    bool waitRegistered(const QString &peerId, int timeoutMs = 15000);

    void sendRaw(const QByteArray &line); // a "\n" is appended
    int request(const QString &method, const QJsonObject &params = {});
    std::optional<QJsonObject> waitResponse(int id, int timeoutMs);
    // request + wait: the whole response object (empty on timeout).
    QJsonObject call(const QString &method, const QJsonObject &params = {}, int timeoutMs = 15000);
    // tools/call: the result object (empty on timeout or protocol error).
    QJsonObject callTool(const QString &name, const QJsonObject &arguments = {}, int timeoutMs = 20000);
    static QString text(const QJsonObject &toolResult);
    static bool isError(const QJsonObject &toolResult);

    // notifications/claude/channel params received so far (hello excluded).
    QList<QJsonObject> channelMessages() const;
    int helloCount() const; // startup hellos received
    // Position in allLines() of the first line matching, -1 when none.
    qsizetype indexOfLine(const std::function<bool(const QJsonObject &)> &match) const;
    bool waitForChannelMessages(int count, int timeoutMs);
    QList<QJsonObject> allLines() const { return m_lines; }
    QList<QByteArray> nonJsonLines() const { return m_nonJson; }
    QByteArray stderrOutput();

    bool waitForExit(int timeoutMs);
    void closeStdin();
    void kill();
    qint64 pid() const { return m_pid; }
    QProcess &process() { return m_process; }

    static bool waitUntil(const std::function<bool()> &condition, int timeoutMs);

private:
    void onStdout();

    QProcess m_process;
    QString m_program;
    qint64 m_pid = 0;
    QByteArray m_buffer;
    QByteArray m_stderr;
    QList<QJsonObject> m_lines;
    QList<QJsonArray> m_batches;
    QList<QByteArray> m_nonJson;
    int m_nextId = 1;
    QString m_clientName = QStringLiteral("tst");
    QJsonObject m_capabilities;
    bool m_answerPings = true;
};
