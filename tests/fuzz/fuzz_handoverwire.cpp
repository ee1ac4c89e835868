// The hand-over socket's messages (broker/handover/): the bytes a successor or a running broker
// sends, delivered as one SOCK_SEQPACKET message through the real Fd::receive() and then
// decode(). Whatever decodes must encode and decode back to the same message; whatever is
// refused must say why.
#include "tests/fuzz/fuzzsupport.h"

#include "broker/handover/fdpassing.h"
#include "broker/handover/handoverwire.h"

#include <sys/socket.h>
#include <unistd.h>

using namespace Broker::Handover;

namespace {
int g_pair[2] = {-1, -1};
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, g_pair) != 0)
        abort();
    const int size = 1 << 20; // a message up to the input size limit fits
    ::setsockopt(g_pair[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
    ::setsockopt(g_pair[1], SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (size == 0 || size > 65536)
        return 0;
    if (::send(g_pair[0], data, size, MSG_NOSIGNAL | MSG_DONTWAIT) != ssize_t(size))
        return 0; // larger than the socket takes: not an input the broker can get either
    auto received = Fd::receive(g_pair[1], QDeadlineTimer(1000));
    if (!received) {
        if (size <= size_t(kMaxMessageBytes) || received.error().kind != Broker::ErrorKind::BadRequest)
            abort(); // only an oversized message may be refused here
        return 0;
    }
    if (received->bytes != bytes || !received->fds.empty())
        abort();
    const auto message = decode(received->bytes);
    if (!message) {
        Q_ASSERT(message.error().message.startsWith(QLatin1String("Bad hand-over message: ")));
        return 0;
    }
    const auto again = decode(encode(*message));
    if (!again || !(*again == *message))
        abort();
    return 0;
}
