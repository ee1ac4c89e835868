#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>

#include <deque>

class QSocketNotifier;

namespace Mcp {

// The one owner of stdout. Every protocol message becomes compact JSON plus "\n" and is
// written with write(2) in order; partial writes and EAGAIN (a non-blocking pipe whose reader
// is slow) are continued when the descriptor is writable again, so a line is never
// interleaved or cut. lineWritten(seq) says when a line is fully in the pipe: delivery
// acknowledges a message to the broker only after that.
class StdoutWriter : public QObject
{
    Q_OBJECT
public:
    explicit StdoutWriter(int fd = 1, QObject *parent = nullptr);
    ~StdoutWriter() override;

    // Queues one message; returns its sequence number (0 when the writer has failed).
    quint64 write(const QJsonValue &message);
    // Writes whatever is queued, blocking for at most timeoutMs (used once, at exit).
    bool drain(int timeoutMs);

    bool isIdle() const { return m_queue.empty(); }
    // The sequence number the next write() will get: lets a caller register interest in a line
    // before writing it (write() may report it written before it returns).
    quint64 nextSeq() const { return m_nextSeq; }
    bool hasFailed() const { return m_failed; }
    quint64 lastWritten() const { return m_lastWritten; }
    qint64 bytesWritten() const { return m_bytesWritten; }

    static QByteArray encode(const QJsonValue &message); // compact JSON + "\n"

Q_SIGNALS:
    void lineWritten(quint64 seq);
    void failed(); // stdout is gone (EPIPE, EBADF…): the client cannot hear us any more

private:
    struct Pending
    {
        QByteArray data;
        qsizetype offset = 0;
        quint64 seq = 0;
    };

    void flush();
    void setWaitingForWritable(bool waiting);

    int m_fd;
    std::deque<Pending> m_queue;
    QSocketNotifier *m_notifier = nullptr;
    quint64 m_nextSeq = 1;
    quint64 m_lastWritten = 0;
    qint64 m_bytesWritten = 0;
    bool m_failed = false;
    bool m_flushing = false;
};

} // namespace Mcp
