#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace TestSupport {

// Multiplier for test timeouts on slow or loaded machines (env PEERS_TEST_TIMEOUT_FACTOR).
int timeoutFactor();
inline int scaled(int ms)
{
    return ms * timeoutFactor();
}

// A port the OS reports free right now (bind to 127.0.0.1:0, read it, close).
quint16 freePort();

// Paths of the project's binaries (empty when the target is not built).
QString brokerExe();
QString cliExe();
QString mcpExe();
QString trayExe();

// A private HOME with its own token, database and port: nothing touches the user's files.
class TestHome
{
public:
    TestHome();
    QString path() const { return m_dir.path(); }
    QString tokenPath() const;
    QString databasePath() const;
    QString configPath() const;
    QString runtimeDir() const; // XDG_RUNTIME_DIR of its processes (0700)
    quint16 port() const { return m_port; }
    // HOME, CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN, XDG_RUNTIME_DIR set; rate
    // limit kept.
    QProcessEnvironment environment() const;
    QByteArray token() const; // reads the token file (empty if missing)

private:
    QTemporaryDir m_dir;
    quint16 m_port;
};

// A real claude-peers-broker process on the home's port. Killed in the destructor.
class BrokerProcess
{
public:
    explicit BrokerProcess(const TestHome &home, QProcessEnvironment extraEnv = {});
    ~BrokerProcess();
    bool start(int timeoutMs = 10000); // waits until GET /health answers
    void kill(); // SIGKILL, waits for exit
    void terminate(); // SIGTERM, waits for exit
    qint64 pid() const;
    QProcess &process() { return m_process; }
    QByteArray stderrOutput();

private:
    const TestHome &m_home;
    QProcessEnvironment m_extraEnv;
    QProcess m_process;
    QByteArray m_stderr;
};

// Small synchronous HTTP for tests only (a local event loop is fine in a test).
struct HttpResult
{
    int status = 0; // 0 = no connection
    QByteArray body;
    QJsonValue json() const; // parsed body (Undefined if not JSON)
    QJsonObject object() const { return json().toObject(); }
};
HttpResult httpGet(quint16 port, const QString &path, int timeoutMs = 5000);
HttpResult httpPost(quint16 port, const QString &path, const QByteArray &body, const QByteArray &bearer = {},
                    int timeoutMs = 5000);
HttpResult httpPostJson(quint16 port, const QString &path, const QJsonObject &body,
                        const QByteArray &bearer = {}, int timeoutMs = 5000);

// Runs a program to completion with a timeout; kills it if it overruns.
struct RunResult
{
    int exitCode = -1;
    bool timedOut = false;
    QByteArray out;
    QByteArray err;
};
RunResult run(const QString &program, const QStringList &args, const QProcessEnvironment &env,
              int timeoutMs = 15000, const QByteArray &stdinData = {});

} // namespace TestSupport
