#pragma once

#include "mcp_stdio/linesplitter.h"

#include <QObject>

class QSocketNotifier;

namespace Mcp {

// Reads MCP frames from a file descriptor (stdin by default) without blocking the event loop:
// a QSocketNotifier says when the descriptor is readable and one ::read() takes what is
// there. Lines go out one signal each; the end of input is a signal too (the helper quits).
class StdioTransport : public QObject
{
    Q_OBJECT
public:
    explicit StdioTransport(int fd = 0, qsizetype lineLimit = LineSplitter::DefaultLimit,
                            QObject *parent = nullptr);
    ~StdioTransport() override;

    void start();
    qsizetype lineLimit() const { return m_splitter.limit(); }
    bool atEnd() const { return m_atEnd; }

Q_SIGNALS:
    void lineReceived(const QByteArray &line);
    void lineTooLong(qsizetype limit);
    void endOfInput();

private:
    void onReadable();
    void deliver(const QList<LineSplitter::Item> &items);

    int m_fd;
    LineSplitter m_splitter;
    QSocketNotifier *m_notifier = nullptr;
    bool m_atEnd = false;
};

} // namespace Mcp
