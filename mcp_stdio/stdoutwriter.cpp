#include "mcp_stdio/stdoutwriter.h"

#include "mcp_stdio/mcplogging.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Mcp {

StdoutWriter::StdoutWriter(int fd, QObject *parent) : QObject(parent), m_fd(fd)
{
    // Non-blocking only for pipes and sockets, which belong to us and our client. A terminal
    // or a file shares its open file description with the shell: leave those alone.
    struct stat st
    {
    };
    if (::fstat(m_fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        const int flags = ::fcntl(m_fd, F_GETFL);
        if (flags >= 0)
            ::fcntl(m_fd, F_SETFL, flags | O_NONBLOCK);
    }
}

StdoutWriter::~StdoutWriter() = default;

QByteArray StdoutWriter::encode(const QJsonValue &message)
{
    QByteArray data = message.isArray() ? QJsonDocument(message.toArray()).toJson(QJsonDocument::Compact)
                                        : QJsonDocument(message.toObject()).toJson(QJsonDocument::Compact);
    data += '\n';
    return data;
}

quint64 StdoutWriter::write(const QJsonValue &message)
{
    if (m_failed)
        return 0;
    const quint64 seq = m_nextSeq++;
    m_queue.push_back(Pending {encode(message), 0, seq});
    flush();
    return m_failed ? 0 : seq;
}

void StdoutWriter::setWaitingForWritable(bool waiting)
{
    if (waiting && !m_notifier) {
        m_notifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Write, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &StdoutWriter::flush);
    }
    if (m_notifier)
        m_notifier->setEnabled(waiting);
}

void StdoutWriter::flush()
{
    if (m_flushing || m_failed)
        return;
    m_flushing = true; // lineWritten handlers may queue more; the loop below picks it up
    while (!m_queue.empty()) {
        Pending &p = m_queue.front();
        const ssize_t n = ::write(m_fd, p.data.constData() + p.offset, size_t(p.data.size() - p.offset));
        if (n < 0) {
            const int error = errno;
            if (error == EINTR)
                continue;
            if (error == EAGAIN || error == EWOULDBLOCK) {
                setWaitingForWritable(true);
                m_flushing = false;
                return;
            }
            qCWarning(lcStdio) << "writing stdout failed:" << std::strerror(error);
            m_failed = true;
            m_queue.clear();
            setWaitingForWritable(false);
            m_flushing = false;
            Q_EMIT failed();
            return;
        }
        p.offset += n;
        m_bytesWritten += n;
        if (p.offset == p.data.size()) {
            const quint64 seq = p.seq;
            m_queue.pop_front();
            m_lastWritten = seq;
            Q_EMIT lineWritten(seq);
        }
    }
    setWaitingForWritable(false);
    m_flushing = false;
}

bool StdoutWriter::drain(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!m_queue.empty() && !m_failed) {
        pollfd pfd {m_fd, POLLOUT, 0};
        const int r = ::poll(&pfd, 1, int(deadline.remainingTime()));
        if (r == 0)
            return false;
        if (r < 0 && errno != EINTR)
            return false;
        flush();
        if (deadline.hasExpired())
            break;
    }
    return m_queue.empty() && !m_failed;
}

} // namespace Mcp
