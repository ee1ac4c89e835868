#include "bench/helper/helperprocess.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

HelperProcess::~HelperProcess()
{
    kill();
}

bool HelperProcess::start(const QString &program, const QStringList &env, const QString &cwd,
                          const QString &stderrPath)
{
    int in[2];
    int out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
        return false;
    const QByteArray exe = QFile::encodeName(program);
    const QByteArray dir = QFile::encodeName(cwd);
    const QByteArray err = stderrPath.isEmpty() ? QByteArray("/dev/null") : QFile::encodeName(stderrPath);
    std::vector<QByteArray> envStore;
    for (const QString &e : env)
        envStore.push_back(e.toLocal8Bit());
    std::vector<char *> envp;
    for (QByteArray &e : envStore)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    char *argv[] = {const_cast<char *>(exe.constData()), nullptr};

    m_pid = ::fork();
    if (m_pid < 0)
        return false;
    if (m_pid == 0) {
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        const int e = ::open(err.constData(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (e >= 0)
            ::dup2(e, 2);
        if (!dir.isEmpty() && ::chdir(dir.constData()) != 0)
            ::_exit(126);
        ::signal(SIGPIPE, SIG_DFL);
        ::execve(exe.constData(), argv, envp.data());
        ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    m_in = in[1];
    m_out = out[0];
    return true;
}

bool HelperProcess::writeLine(const QByteArray &line)
{
    const QByteArray data = line + '\n';
    qsizetype off = 0;
    while (off < data.size()) {
        const ssize_t n = ::write(m_in, data.constData() + off, size_t(data.size() - off));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        off += n;
    }
    return true;
}

bool HelperProcess::fill(int timeoutMs)
{
    pollfd p {m_out, POLLIN, 0};
    const int r = ::poll(&p, 1, timeoutMs);
    if (r <= 0)
        return false;
    char buf[65536];
    const ssize_t n = ::read(m_out, buf, sizeof buf);
    if (n <= 0)
        return false;
    m_buffer.append(buf, n);
    return true;
}

QByteArray HelperProcess::readLine(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        const qsizetype nl = m_buffer.indexOf('\n');
        if (nl >= 0) {
            const QByteArray line = m_buffer.left(nl);
            m_buffer.remove(0, nl + 1);
            return line;
        }
        if (deadline.hasExpired() || !fill(int(qMax<qint64>(0, deadline.remainingTime()))))
            return {};
    }
}

QJsonObject HelperProcess::readUntil(const std::function<bool(const QJsonObject &)> &accept, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const QByteArray line = readLine(int(qMax<qint64>(0, deadline.remainingTime())));
        if (line.isEmpty())
            break;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (accept(o))
            return o;
    }
    return {};
}

void HelperProcess::drain(QList<QJsonObject> *into)
{
    while (fill(0)) { }
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        if (into)
            into->append(QJsonDocument::fromJson(m_buffer.left(nl)).object());
        m_buffer.remove(0, nl + 1);
    }
}

QByteArray HelperProcess::request(int id, const QString &method, const QJsonObject &params)
{
    QJsonObject o {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                   {QStringLiteral("id"), id},
                   {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        o.insert(QStringLiteral("params"), params);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void HelperProcess::closeStdin()
{
    if (m_in >= 0)
        ::close(m_in);
    m_in = -1;
}

bool HelperProcess::waitExit(int timeoutMs)
{
    if (m_pid <= 0)
        return true;
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_pid = -1;
            return true;
        }
        ::usleep(5000);
    }
    return false;
}

void HelperProcess::kill()
{
    closeStdin();
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
        m_pid = -1;
    }
    if (m_out >= 0)
        ::close(m_out);
    m_out = -1;
}

double HelperProcess::cpuSeconds() const
{
    // Nanosecond CPU time of every thread (Qt's network code runs a thread of its own):
    // /proc/<pid>/task/*/schedstat, first field. Clock ticks of /proc/<pid>/stat (10 ms) are
    // far too coarse for a process that is meant to use a few milliseconds per minute.
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(m_pid));
    qint64 ns = 0;
    bool any = false;
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(tasks.filePath(tid + QStringLiteral("/schedstat")));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        ns += f.readAll().split(' ').value(0).toLongLong();
        any = true;
    }
    if (any)
        return double(ns) / 1e9;
    QFile f(QStringLiteral("/proc/%1/stat").arg(m_pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = f.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    // After ") ": state is index 0, utime index 11, stime index 12.
    if (fields.size() < 13)
        return -1;
    return double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / double(::sysconf(_SC_CLK_TCK));
}

qint64 HelperProcess::pssBytes() const
{
    QFile f(QStringLiteral("/proc/%1/smaps_rollup").arg(m_pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("Pss:"))
            return line.mid(4).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

int HelperProcess::threadCount() const
{
    return int(
        QDir(QStringLiteral("/proc/%1/task").arg(m_pid)).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

qint64 HelperProcess::rssBytes() const
{
    QFile f(QStringLiteral("/proc/%1/status").arg(m_pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}
