#include "broker/handover/fdpassing.h"

#include "broker/handover/handoverwire.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace Broker::Handover::Fd {

namespace {

QString lastError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// Waits for events on fd until the deadline; false when it passed.
bool waitFor(int fd, short events, QDeadlineTimer deadline)
{
    for (;;) {
        pollfd p {fd, events, 0};
        const qint64 left = deadline.remainingTime();
        const int r = ::poll(&p, 1, left < 0 ? -1 : int(qMin<qint64>(left, 1 << 30)));
        if (r > 0)
            return true;
        if (r == 0)
            return false;
        if (errno != EINTR)
            return true; // the call that follows reports the error
    }
}

} // namespace

Owned &Owned::operator=(Owned &&other) noexcept
{
    if (this != &other)
        reset(other.release());
    return *this;
}

int Owned::release()
{
    return std::exchange(m_fd, -1);
}

void Owned::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

Result<void> send(int socket, QByteArrayView bytes, std::span<const int> fds, QDeadlineTimer deadline)
{
    Q_ASSERT(fds.size() <= size_t(kMaxListeners));
    iovec iov {const_cast<char *>(bytes.data()), size_t(bytes.size())};
    msghdr msg {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxListeners)] = {};
    if (!fds.empty()) {
        msg.msg_control = control;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
        cmsghdr *header = CMSG_FIRSTHDR(&msg);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
    }
    for (;;) {
        const ssize_t n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
        if (n == ssize_t(bytes.size()))
            return {};
        if (n >= 0)
            return fail(ErrorKind::Unwritable, QStringLiteral("The hand-over message was cut short"));
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (!waitFor(socket, POLLOUT, deadline))
                return fail(ErrorKind::HandoverTimeout, QStringLiteral("The other broker does not read"));
            continue;
        }
        if (errno == EPIPE || errno == ECONNRESET)
            return fail(ErrorKind::Unreachable,
                        QStringLiteral("The other broker closed the hand-over socket"));
        return fail(ErrorKind::Unwritable,
                    QStringLiteral("Cannot send on the hand-over socket: %1").arg(lastError()));
    }
}

Result<Received> receive(int socket, QDeadlineTimer deadline)
{
    QByteArray buffer(kMaxMessageBytes + 1, Qt::Uninitialized);
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * (kMaxListeners + 4))];
    for (;;) {
        iovec iov {buffer.data(), size_t(buffer.size())};
        msghdr msg {};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof(control);
        const ssize_t n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!waitFor(socket, POLLIN, deadline))
                return fail(ErrorKind::HandoverTimeout,
                            QStringLiteral("No answer on the hand-over socket in time"));
            continue;
        }
        if (n < 0)
            return fail(ErrorKind::Unreachable,
                        QStringLiteral("Cannot read the hand-over socket: %1").arg(lastError()));
        Received received;
        bool tooMany = (msg.msg_flags & MSG_CTRUNC) != 0;
        for (cmsghdr *header = CMSG_FIRSTHDR(&msg); header; header = CMSG_NXTHDR(&msg, header)) {
            if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS)
                continue;
            const size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count; ++i) {
                int fd = -1;
                std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
                received.fds.emplace_back(fd); // owned from here on: closed if refused below
            }
        }
        if (n == 0 && received.fds.empty())
            return fail(ErrorKind::Unreachable,
                        QStringLiteral("The other broker closed the hand-over socket"));
        if ((msg.msg_flags & MSG_TRUNC) != 0 || n > kMaxMessageBytes)
            return fail(ErrorKind::BadRequest,
                        QStringLiteral("A hand-over message longer than %1 bytes").arg(kMaxMessageBytes));
        if (tooMany || received.fds.size() > size_t(kMaxListeners))
            return fail(
                ErrorKind::BadRequest,
                QStringLiteral("A hand-over message with more than %1 descriptors").arg(kMaxListeners));
        buffer.truncate(n);
        received.bytes = std::move(buffer);
        return received;
    }
}

Result<uid_t> peerUid(int socket)
{
    ucred credentials {};
    socklen_t length = sizeof(credentials);
    if (::getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0)
        return fail(ErrorKind::Unreadable, QStringLiteral("SO_PEERCRED: %1").arg(lastError()));
    return credentials.uid;
}

bool mayHandOver(uid_t peer, uid_t self)
{
    return peer == self;
}

Result<quint16> listeningPort(int fd)
{
    int accepting = 0;
    socklen_t length = sizeof(accepting);
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) != 0 || !accepting)
        return fail(ErrorKind::Listen, QStringLiteral("descriptor %1 is not a listening socket").arg(fd));
    sockaddr_storage address {};
    length = sizeof(address);
    if (::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return fail(ErrorKind::Listen,
                    QStringLiteral("getsockname on descriptor %1: %2").arg(fd).arg(lastError()));
    if (address.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in *>(&address)->sin_port);
    if (address.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6 *>(&address)->sin6_port);
    return fail(ErrorKind::Listen, QStringLiteral("descriptor %1 is not a TCP socket").arg(fd));
}

Result<sockaddr_un> unixAddress(const QString &path)
{
    const QByteArray name = QFile::encodeName(path);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    if (name.isEmpty() || size_t(name.size()) >= sizeof(address.sun_path))
        return fail(ErrorKind::Invalid, QStringLiteral("The hand-over socket path %1 is too long").arg(path));
    std::memcpy(address.sun_path, name.constData(), size_t(name.size()));
    return address;
}

Result<Owned> connectTo(const QString &path)
{
    const auto where = unixAddress(path);
    if (!where)
        return std::unexpected(where.error());
    const sockaddr_un address = *where;
    Owned socket(::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0));
    if (!socket.isValid())
        return fail(ErrorKind::Unreachable, QStringLiteral("socket(): %1").arg(lastError()));
    int r;
    do {
        r = ::connect(socket.get(), reinterpret_cast<const sockaddr *>(&address), sizeof(address));
    } while (r != 0 && errno == EINTR);
    if (r == 0)
        return socket;
    if (errno == ENOENT)
        return fail(ErrorKind::Missing, QStringLiteral("no hand-over socket at %1").arg(path));
    if (errno == EACCES || errno == EPERM)
        return fail(ErrorKind::Unreadable, QStringLiteral("%1: %2").arg(path, lastError()));
    return fail(ErrorKind::Unreachable,
                QStringLiteral("nobody listens on the hand-over socket %1 (%2)").arg(path, lastError()));
}

} // namespace Broker::Handover::Fd
