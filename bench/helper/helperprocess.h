#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

#include <sys/types.h>

// One claude-peers-mcp child on plain pipes, driven synchronously with poll(): no event loop
// between the bench and the helper, so the measured time is the helper's and the broker's.
class HelperProcess
{
public:
    HelperProcess() = default;
    ~HelperProcess();
    HelperProcess(const HelperProcess &) = delete;
    HelperProcess &operator=(const HelperProcess &) = delete;

    // env: complete "KEY=VALUE" list. stderr goes to stderrPath (or /dev/null when empty).
    bool start(const QString &program, const QStringList &env, const QString &cwd,
               const QString &stderrPath = {});
    bool writeLine(const QByteArray &line);
    // Next stdout line, waiting up to timeoutMs; empty on timeout or EOF.
    QByteArray readLine(int timeoutMs);
    // Reads lines until one parses to an object for which accept() holds. Other lines are kept
    // for later only if keep is set.
    QJsonObject readUntil(const std::function<bool(const QJsonObject &)> &accept, int timeoutMs);
    // Everything readable now, without waiting (keeps the helper's stdout pipe from filling).
    void drain(QList<QJsonObject> *into = nullptr);
    int stdoutFd() const { return m_out; }

    QByteArray request(int id, const QString &method, const QJsonObject &params);
    void closeStdin();
    bool waitExit(int timeoutMs);
    void kill();
    pid_t pid() const { return m_pid; }

    // /proc figures: CPU time (utime + stime) in seconds and resident set size in bytes.
    double cpuSeconds() const;
    qint64 rssBytes() const;
    // Proportional set size: shared library pages divided among the processes that map them.
    qint64 pssBytes() const;
    int threadCount() const;

private:
    bool fill(int timeoutMs);

    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
    QByteArray m_buffer;
};
