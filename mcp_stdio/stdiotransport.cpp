#include "mcp_stdio/stdiotransport.h"

#include "mcp_stdio/mcplogging.h"

#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace Mcp {

namespace {
constexpr qsizetype ReadChunk = 256 * 1024;
}

StdioTransport::StdioTransport(int fd, qsizetype lineLimit, QObject *parent)
    : QObject(parent), m_fd(fd), m_splitter(lineLimit)
{
}

StdioTransport::~StdioTransport() = default;

void StdioTransport::start()
{
    if (m_notifier)
        return;
    m_notifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StdioTransport::onReadable);
}

void StdioTransport::deliver(const QList<LineSplitter::Item> &items)
{
    for (const LineSplitter::Item &item : items) {
        if (item.tooLong) {
            qCWarning(lcStdio) << "dropped an input line longer than" << m_splitter.limit() << "bytes";
            Q_EMIT lineTooLong(m_splitter.limit());
        } else {
            Q_EMIT lineReceived(item.line);
        }
    }
}

void StdioTransport::onReadable()
{
    if (m_atEnd)
        return;
    char buffer[ReadChunk];
    const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
    const int error = errno;
    if (n < 0 && (error == EINTR || error == EAGAIN || error == EWOULDBLOCK))
        return;
    if (n <= 0) {
        if (n < 0)
            qCWarning(lcStdio) << "reading stdin failed:" << std::strerror(error);
        m_atEnd = true;
        m_notifier->setEnabled(false);
        deliver(m_splitter.finish());
        qCInfo(lcStdio) << "end of input";
        Q_EMIT endOfInput();
        return;
    }
    deliver(m_splitter.feed(buffer, qsizetype(n)));
}

} // namespace Mcp
