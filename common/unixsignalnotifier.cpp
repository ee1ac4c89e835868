#include "common/unixsignalnotifier.h"
#include "common/clientlogging.h"

#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Broker {

namespace {

int s_fds[2] = {-1, -1}; // [0] read end (event loop), [1] write end (handler)

extern "C" void writeSignalNumber(int signalNumber)
{
    const int savedErrno = errno;
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] const ssize_t n = ::write(s_fds[1], &byte, 1);
    errno = savedErrno;
}

} // namespace

UnixSignalNotifier::UnixSignalNotifier(const QList<int> &signalNumbers, QObject *parent)
    : QObject(parent), m_signals(signalNumbers)
{
    if (s_fds[0] >= 0) {
        // The handlers are process-wide: a second instance (tests that run two servers in one
        // process) would steal the first one's signals.
        qCWarning(lcClientSignals) << "Unix signals are already watched in this process; not watching again";
        m_signals.clear();
        return;
    }
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s_fds) != 0) {
        qCWarning(lcClientSignals) << "socketpair failed; Unix signals will not be handled:"
                                   << strerror(errno);
        s_fds[0] = s_fds[1] = -1;
        return;
    }
    // A full pipe must never block the handler: extra signals are simply dropped.
    ::fcntl(s_fds[1], F_SETFL, ::fcntl(s_fds[1], F_GETFL) | O_NONBLOCK);
    ::fcntl(s_fds[0], F_SETFL, ::fcntl(s_fds[0], F_GETFL) | O_NONBLOCK);

    m_notifier = new QSocketNotifier(s_fds[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &UnixSignalNotifier::readSignals);

    for (int signalNumber : std::as_const(m_signals)) {
        struct sigaction action = {};
        action.sa_handler = writeSignalNumber;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        if (::sigaction(signalNumber, &action, nullptr) != 0)
            qCWarning(lcClientSignals) << "sigaction failed for signal" << signalNumber << strerror(errno);
    }
}

UnixSignalNotifier::~UnixSignalNotifier()
{
    for (int signalNumber : std::as_const(m_signals))
        ::signal(signalNumber, SIG_DFL);
    if (!m_notifier)
        return; // not the instance that owns the socket pair
    delete m_notifier;
    m_notifier = nullptr;
    for (int &fd : s_fds) {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
}

void UnixSignalNotifier::ignoreSigPipe()
{
    ::signal(SIGPIPE, SIG_IGN);
}

void UnixSignalNotifier::readSignals()
{
    unsigned char buffer[64];
    for (;;) {
        const ssize_t n = ::read(s_fds[0], buffer, sizeof buffer);
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; ++i)
            Q_EMIT signalReceived(int(buffer[i]));
    }
}

} // namespace Broker
