#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QList>

#include <span>
#include <sys/types.h>
#include <sys/un.h>

// Descriptor passing between processes of the same user, in plain POSIX: Qt has no API for
// SCM_RIGHTS (QLocalSocket reads with read(), which drops ancillary data), see
// docs/decisions.md. The hand-over socket is AF_UNIX SOCK_SEQPACKET, so one sendmsg() is one
// message with its descriptors and a recvmsg() never merges or splits two of them.
namespace Broker::Handover::Fd {

// A descriptor owned by the holder: closed on destruction unless released.
class Owned
{
public:
    Owned() = default;
    explicit Owned(int fd) : m_fd(fd) { }
    Owned(Owned &&other) noexcept : m_fd(other.release()) { }
    Owned &operator=(Owned &&other) noexcept;
    Owned(const Owned &) = delete;
    Owned &operator=(const Owned &) = delete;
    ~Owned() { reset(); }

    int get() const { return m_fd; }
    bool isValid() const { return m_fd >= 0; }
    int release();
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

struct Received
{
    QByteArray bytes;
    std::vector<Owned> fds; // close-on-exec
};

// One message with the descriptors (at most kMaxListeners); never SIGPIPE. The socket may be
// non-blocking: a full buffer waits (poll) until the deadline.
Result<void> send(int socket, QByteArrayView bytes, std::span<const int> fds, QDeadlineTimer deadline);
// The next message, waiting (poll) until the deadline. Errors: Unreachable (the other side
// closed), HandoverTimeout, BadRequest (longer than kMaxMessageBytes, or more descriptors
// than kMaxListeners: all of them are closed).
Result<Received> receive(int socket, QDeadlineTimer deadline);

// The uid of the process at the other end of a connected AF_UNIX socket (SO_PEERCRED).
Result<uid_t> peerUid(int socket);
// Whether a connection from peerUid may hand over: only the same user (root is not special:
// a broker is a per-user daemon).
bool mayHandOver(uid_t peer, uid_t self);

// The port of a listening TCP socket (SO_ACCEPTCONN and getsockname); an error for anything else.
Result<quint16> listeningPort(int fd);

// The address of a unix socket file; an error when the path does not fit sun_path.
Result<sockaddr_un> unixAddress(const QString &path);

// A connected SOCK_SEQPACKET socket to path (close-on-exec, blocking). Errors: Missing (no
// file), Unreachable (a file nobody listens on: a stale socket), Unreadable (permissions).
Result<Owned> connectTo(const QString &path);

} // namespace Broker::Handover::Fd
