#pragma once

// Tools of the fault tests: raw loopback connections by the thousand (plain POSIX sockets, no
// event loop, so they cost the test nothing while they sit idle), the process's own fd limit,
// and small statistics for the figures the tests print.

#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QtGlobal>

#include <functional>
#include <memory>
#include <vector>

namespace FaultSupport {

// Raises this process's soft RLIMIT_NOFILE to at least `wanted` (above the hard limit only as
// root, else bounded by it); children started afterwards inherit it. Returns the soft limit now.
qint64 raiseOwnFdLimit(qint64 wanted);

// The soft and hard RLIMIT_NOFILE of another process, from /proc/<pid>/limits ({-1,-1} if unknown).
struct FdLimit
{
    qint64 soft = -1;
    qint64 hard = -1;
};
FdLimit fdLimitOf(qint64 pid);
int openFdCount(qint64 pid); // entries in /proc/<pid>/fd, -1 if unknown

// Many client connections to 127.0.0.1:port, driven with poll().
class SocketFlood
{
public:
    SocketFlood() = default;
    ~SocketFlood(); // closes every socket
    SocketFlood(const SocketFlood &) = delete;
    SocketFlood &operator=(const SocketFlood &) = delete;

    // Opens `count` more connections (non-blocking connect) and waits up to timeoutMs until each
    // is connected or failed. Returns how many connected.
    int open(quint16 port, int count, int timeoutMs);
    // Writes the same bytes on every open connection (small writes: never blocks).
    void sendAll(QByteArrayView bytes);
    // Reads what arrives for up to ms milliseconds (returns earlier once every socket is closed).
    void pump(int ms);
    void closeAll();

    int size() const { return int(m_sockets.size()); }
    int connected() const; // connected and not closed by the peer
    int closedByPeer() const;
    int failedToConnect() const;
    // Connections whose received bytes start with `prefix` (e.g. "HTTP/1.1 503").
    int answeredWith(QByteArrayView prefix) const;

private:
    struct Socket
    {
        int fd = -1;
        bool connected = false;
        bool failed = false;
        bool peerClosed = false;
        QByteArray received;
    };
    // Polls the sockets from index `first` on that `wanted` selects, for `events`, and hands
    // each ready one to `ready`, until none is wanted any more or the deadline passes.
    void pollWhile(size_t first, short events, const std::function<bool(const Socket &)> &wanted,
                   const std::function<void(Socket &)> &ready, QDeadlineTimer deadline);

    std::vector<Socket> m_sockets;
};

// The peer id the broker derives from a tty (docs/spec/peers-api.md §7.9: first 8 hex of SHA-256(tty)).
QString idOf(const QString &tty);
QJsonObject args(std::initializer_list<QPair<QString, QJsonValue>> list);

// A real claude-peers-mcp on tty, initialized and registered (whoami shows its id); nullptr on
// failure. brokerOnPath: it may start a broker by itself. extraEnv goes on top of the home's.
std::unique_ptr<McpClient> startHelper(const TestSupport::TestHome &home, const QString &tty,
                                       bool brokerOnPath, const QProcessEnvironment &extraEnv = {});

// Counts, by content, the channel notifications from fromId that client wrote on its stdout
// since line `read` (which it advances); the startup hello and bounces are skipped.
void collectReceived(McpClient &client, const QString &fromId, qsizetype &read,
                     QHash<QString, int> &received);

// The q-quantile (0..1) of the values, nearest rank; 0 for none.
double quantile(QList<double> values, double q);

} // namespace FaultSupport
