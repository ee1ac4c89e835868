#include "broker/handover/socketactivation.h"

#include "broker/brokerlogging.h"

#include <QtGlobal>

#include <fcntl.h>
#include <unistd.h>

namespace Broker::Handover {

namespace {
constexpr int kFirstDescriptor = 3; // SD_LISTEN_FDS_START
constexpr int kMaxActivated = 16;
} // namespace

std::vector<ActivatedSocket> takeActivatedSockets()
{
    const QByteArray pidText = qgetenv("LISTEN_PID");
    const QByteArray countText = qgetenv("LISTEN_FDS");
    qunsetenv("LISTEN_PID");
    qunsetenv("LISTEN_FDS");
    qunsetenv("LISTEN_FDNAMES");
    if (pidText.isEmpty() || countText.isEmpty())
        return {};
    bool pidOk = false;
    bool countOk = false;
    const qint64 pid = pidText.toLongLong(&pidOk);
    const int count = countText.toInt(&countOk);
    if (!pidOk || pid != qint64(::getpid())) {
        qCInfo(lcServer).noquote() << "LISTEN_PID" << pidText << "is not this process: sockets not adopted";
        return {};
    }
    if (!countOk || count <= 0 || count > kMaxActivated) {
        qCWarning(lcServer).noquote()
            << "LISTEN_FDS" << countText << "is not a count of 1 to" << kMaxActivated;
        return {};
    }
    std::vector<ActivatedSocket> sockets;
    for (int fd = kFirstDescriptor; fd < kFirstDescriptor + count; ++fd) {
        const int flags = ::fcntl(fd, F_GETFD);
        if (flags < 0)
            continue;
        ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
        Fd::Owned owned(fd);
        const auto port = Fd::listeningPort(fd);
        if (!port) {
            qCWarning(lcServer).noquote() << "Socket activation:" << port.error().message << "- closed";
            continue;
        }
        sockets.push_back({*port, std::move(owned)});
    }
    return sockets;
}

} // namespace Broker::Handover
