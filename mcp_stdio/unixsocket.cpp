#include "mcp_stdio/unixsocket.h"

#include <QFile>
#include <QPointer>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace Mcp::UnixSocket {

namespace {

Broker::Result<sockaddr_un> addressOf(const QString &path)
{
    sockaddr_un addr {};
    addr.sun_family = AF_UNIX;
    const QByteArray encoded = QFile::encodeName(path);
    if (encoded.isEmpty() || encoded.size() >= qsizetype(sizeof addr.sun_path))
        return Broker::fail(Broker::ErrorKind::Invalid,
                            QStringLiteral("the socket path %1 is empty or longer than %2 bytes")
                                .arg(path)
                                .arg(sizeof addr.sun_path - 1));
    std::memcpy(addr.sun_path, encoded.constData(), size_t(encoded.size()));
    return addr;
}

QString systemError(const char *what)
{
    return QStringLiteral("%1: %2").arg(QLatin1String(what), QString::fromLocal8Bit(std::strerror(errno)));
}

// One outgoing connection: connect, write everything, close. Deletes itself when done.
class Sender : public QObject
{
public:
    Sender(QObject *context, std::function<void(Broker::Result<void>)> done)
        : QObject(context), m_done(std::move(done)), m_timer(new QTimer(this))
    {
        m_timer->setSingleShot(true);
        connect(m_timer, &QTimer::timeout, this, [this] {
            finish(Broker::fail(Broker::ErrorKind::Unreachable, QStringLiteral("timed out")));
        });
    }
    ~Sender() override
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    void start(const QString &path, const QByteArray &bytes, int timeoutMs)
    {
        m_bytes = bytes;
        m_timer->start(timeoutMs);
        const auto addr = addressOf(path);
        if (!addr) {
            finishLater(std::unexpected(addr.error()));
            return;
        }
        m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (m_fd < 0) {
            finishLater(Broker::fail(Broker::ErrorKind::Unreachable, systemError("socket")));
            return;
        }
        if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&*addr), sizeof *addr) != 0 &&
            errno != EINPROGRESS) {
            finishLater(Broker::fail(Broker::ErrorKind::Unreachable, systemError("connect")));
            return;
        }
        m_notifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Write, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &Sender::writeMore);
    }

private:
    void writeMore()
    {
        int error = 0;
        socklen_t length = sizeof error;
        if (::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error != 0) {
            errno = error;
            finish(Broker::fail(Broker::ErrorKind::Unreachable, systemError("connect")));
            return;
        }
        while (m_offset < m_bytes.size()) {
            const ssize_t n =
                ::send(m_fd, m_bytes.constData() + m_offset, size_t(m_bytes.size() - m_offset), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return; // the notifier calls again when there is room
            if (n < 0) {
                finish(Broker::fail(Broker::ErrorKind::Unreachable, systemError("write")));
                return;
            }
            m_offset += n;
        }
        finish({});
    }
    void finishLater(Broker::Result<void> result)
    {
        QTimer::singleShot(0, this, [this, result] { finish(result); });
    }
    void finish(Broker::Result<void> result)
    {
        if (!m_done)
            return;
        if (m_notifier)
            m_notifier->setEnabled(false);
        const auto done = std::exchange(m_done, {});
        deleteLater();
        done(std::move(result));
    }

    std::function<void(Broker::Result<void>)> m_done;
    QTimer *m_timer;
    QSocketNotifier *m_notifier = nullptr;
    QByteArray m_bytes;
    qsizetype m_offset = 0;
    int m_fd = -1;
};

// One incoming connection of a LineListener. Deletes itself at EOF, error or timeout.
class Reader : public QObject
{
public:
    Reader(int fd, qsizetype maxLineBytes, int idleTimeoutMs, LineListener *listener)
        : QObject(listener),
          m_fd(fd),
          m_maxLineBytes(maxLineBytes),
          m_listener(listener),
          m_notifier(new QSocketNotifier(qintptr(fd), QSocketNotifier::Read, this)),
          m_timer(new QTimer(this))
    {
        m_timer->setSingleShot(true);
        m_timer->setInterval(idleTimeoutMs);
        connect(m_timer, &QTimer::timeout, this, &Reader::end);
        connect(m_notifier, &QSocketNotifier::activated, this, &Reader::readMore);
        m_timer->start();
    }
    ~Reader() override { ::close(m_fd); }

private:
    void readMore()
    {
        char chunk[16384];
        const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            if (!m_buffer.trimmed().isEmpty()) // a last line without its line end
                Q_EMIT m_listener->lineReceived(m_buffer);
            end();
            return;
        }
        m_timer->start();
        m_buffer.append(chunk, n);
        qsizetype newline;
        while ((newline = m_buffer.indexOf('\n')) >= 0) {
            const QByteArray line = m_buffer.left(newline);
            m_buffer.remove(0, newline + 1);
            if (!line.trimmed().isEmpty())
                Q_EMIT m_listener->lineReceived(line);
        }
        if (m_buffer.size() > m_maxLineBytes)
            end();
    }
    void end()
    {
        m_notifier->setEnabled(false);
        deleteLater();
    }

    int m_fd;
    qsizetype m_maxLineBytes;
    LineListener *m_listener;
    QSocketNotifier *m_notifier;
    QTimer *m_timer;
    QByteArray m_buffer;
};

} // namespace

void sendAndClose(const QString &path, const QByteArray &bytes, int timeoutMs, QObject *context,
                  std::function<void(Broker::Result<void>)> done)
{
    (new Sender(context, std::move(done)))->start(path, bytes, timeoutMs);
}

LineListener::LineListener(qsizetype maxLineBytes, int idleTimeoutMs, QObject *parent)
    : QObject(parent), m_maxLineBytes(maxLineBytes), m_idleTimeoutMs(idleTimeoutMs)
{
}

LineListener::~LineListener()
{
    if (m_fd < 0)
        return;
    ::close(m_fd);
    ::unlink(QFile::encodeName(m_path).constData());
}

Broker::Result<void> LineListener::listen(const QString &path)
{
    const auto addr = addressOf(path);
    if (!addr)
        return std::unexpected(addr.error());
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return Broker::fail(Broker::ErrorKind::Listen, systemError("socket"));
    ::unlink(addr->sun_path); // a stale socket of an earlier process with the same name
    const mode_t oldMask = ::umask(0077); // the socket file: owner only
    const bool bound = ::bind(fd, reinterpret_cast<const sockaddr *>(&*addr), sizeof *addr) == 0;
    ::umask(oldMask);
    if (!bound || ::listen(fd, 16) != 0) {
        const QString why = systemError(bound ? "listen" : "bind");
        ::close(fd);
        return Broker::fail(Broker::ErrorKind::Listen, QStringLiteral("%1 (%2)").arg(why, path));
    }
    m_fd = fd;
    m_path = path;
    m_notifier = new QSocketNotifier(qintptr(fd), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &LineListener::accept);
    return {};
}

void LineListener::accept()
{
    for (;;) {
        const int client = ::accept4(m_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0)
            return; // EAGAIN: all taken; anything else: the next activation tries again
        new Reader(client, m_maxLineBytes, m_idleTimeoutMs, this);
    }
}

} // namespace Mcp::UnixSocket
