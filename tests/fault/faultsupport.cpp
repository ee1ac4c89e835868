#include "tests/fault/faultsupport.h"
#include "tests/mcp_stdio/helperenv.h"

#include <QCryptographicHash>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace FaultSupport {

qint64 raiseOwnFdLimit(qint64 wanted)
{
    rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return -1;
    if (qint64(limit.rlim_cur) < wanted) {
        // Above the hard limit only with CAP_SYS_RESOURCE (CI runs as root); else up to it.
        rlimit raised {rlim_t(wanted), qMax(limit.rlim_max, rlim_t(wanted))};
        if (::setrlimit(RLIMIT_NOFILE, &raised) != 0) {
            limit.rlim_cur = qMin(rlim_t(wanted), limit.rlim_max);
            ::setrlimit(RLIMIT_NOFILE, &limit);
        }
        ::getrlimit(RLIMIT_NOFILE, &limit);
    }
    return qint64(limit.rlim_cur);
}

FdLimit fdLimitOf(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/limits").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (!line.startsWith("Max open files"))
            continue;
        const QList<QByteArray> fields = line.mid(14).simplified().split(' ');
        if (fields.size() >= 2)
            return {fields.at(0).toLongLong(), fields.at(1).toLongLong()};
    }
    return {};
}

int openFdCount(qint64 pid)
{
    QDir dir(QStringLiteral("/proc/%1/fd").arg(pid));
    if (!dir.exists())
        return -1;
    return int(dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System).size());
}

SocketFlood::~SocketFlood()
{
    closeAll();
}

int SocketFlood::open(quint16 port, int count, int timeoutMs)
{
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const size_t first = m_sockets.size();
    for (int i = 0; i < count; ++i) {
        Socket s;
        s.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (s.fd < 0) {
            s.failed = true;
        } else if (::connect(s.fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0) {
            s.connected = true;
        } else if (errno != EINPROGRESS) {
            s.failed = true;
        }
        m_sockets.push_back(std::move(s));
    }
    pollWhile(
        first, POLLOUT, [](const Socket &s) { return s.fd >= 0 && !s.connected && !s.failed; },
        [](Socket &s) {
            int error = 0;
            socklen_t length = sizeof error;
            ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &length);
            (error == 0 ? s.connected : s.failed) = true;
        },
        QDeadlineTimer(timeoutMs));
    int connectedNow = 0;
    for (size_t i = first; i < m_sockets.size(); ++i)
        connectedNow += m_sockets[i].connected ? 1 : 0;
    return connectedNow;
}

void SocketFlood::sendAll(QByteArrayView bytes)
{
    for (Socket &s : m_sockets) {
        if (s.connected && !s.peerClosed)
            (void)::send(s.fd, bytes.data(), size_t(bytes.size()), MSG_NOSIGNAL);
    }
}

void SocketFlood::pump(int ms)
{
    char buffer[4096];
    pollWhile(
        0, POLLIN, [](const Socket &s) { return s.connected && !s.peerClosed; },
        [&buffer](Socket &s) {
            const ssize_t n = ::recv(s.fd, buffer, sizeof buffer, 0);
            if (n > 0)
                s.received.append(buffer, n);
            else if (n == 0 || (errno != EAGAIN && errno != EINTR))
                s.peerClosed = true;
        },
        QDeadlineTimer(ms));
}

void SocketFlood::pollWhile(size_t first, short events, const std::function<bool(const Socket &)> &wanted,
                            const std::function<void(Socket &)> &ready, QDeadlineTimer deadline)
{
    for (;;) {
        std::vector<pollfd> fds;
        std::vector<size_t> which;
        for (size_t i = first; i < m_sockets.size(); ++i) {
            if (wanted(m_sockets[i])) {
                fds.push_back({m_sockets[i].fd, events, 0});
                which.push_back(i);
            }
        }
        if (fds.empty() || deadline.hasExpired())
            return;
        if (::poll(fds.data(), nfds_t(fds.size()), int(qMin<qint64>(deadline.remainingTime(), 100))) <= 0)
            continue;
        for (size_t k = 0; k < fds.size(); ++k) {
            if (fds[k].revents)
                ready(m_sockets[which[k]]);
        }
    }
}

void SocketFlood::closeAll()
{
    for (Socket &s : m_sockets) {
        if (s.fd >= 0)
            ::close(s.fd);
    }
    m_sockets.clear();
}

int SocketFlood::connected() const
{
    return int(std::count_if(m_sockets.begin(), m_sockets.end(),
                             [](const Socket &s) { return s.connected && !s.peerClosed; }));
}

int SocketFlood::closedByPeer() const
{
    return int(
        std::count_if(m_sockets.begin(), m_sockets.end(), [](const Socket &s) { return s.peerClosed; }));
}

int SocketFlood::failedToConnect() const
{
    return int(std::count_if(m_sockets.begin(), m_sockets.end(), [](const Socket &s) { return s.failed; }));
}

int SocketFlood::answeredWith(QByteArrayView prefix) const
{
    return int(std::count_if(m_sockets.begin(), m_sockets.end(),
                             [&](const Socket &s) { return s.received.startsWith(prefix); }));
}

QString idOf(const QString &tty)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(tty.toUtf8(), QCryptographicHash::Sha256).toHex().left(8));
}

QJsonObject args(std::initializer_list<QPair<QString, QJsonValue>> list)
{
    QJsonObject o;
    for (const auto &p : list)
        o.insert(p.first, p.second);
    return o;
}

std::unique_ptr<McpClient> startHelper(const TestSupport::TestHome &home, const QString &tty,
                                       bool brokerOnPath, const QProcessEnvironment &extraEnv)
{
    QProcessEnvironment env = helperEnvironment(home, brokerOnPath, tty);
    for (const QString &key : extraEnv.keys())
        env.insert(key, extraEnv.value(key));
    auto c = std::make_unique<McpClient>(env);
    if (!c->start() || !c->initialize())
        return nullptr;
    if (!McpClient::waitUntil(
            [&] {
                return McpClient::text(c->callTool(QStringLiteral("whoami")))
                    .startsWith(QStringLiteral("ID: ") + idOf(tty));
            },
            TestSupport::scaled(15000)))
        return nullptr;
    return c;
}

void collectReceived(McpClient &client, const QString &fromId, qsizetype &read, QHash<QString, int> &received)
{
    const QList<QJsonObject> lines = client.allLines();
    for (; read < lines.size(); ++read) {
        const QJsonObject &line = lines.at(read);
        if (line.value(QLatin1String("method")) != QLatin1String("notifications/claude/channel"))
            continue;
        const QJsonObject params = line.value(QLatin1String("params")).toObject();
        if (params.value(QLatin1String("meta")).toObject().value(QLatin1String("from_id")) != fromId)
            continue;
        ++received[params.value(QLatin1String("content")).toString()];
    }
}

double quantile(QList<double> values, double q)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype rank =
        qBound<qsizetype>(0, qsizetype(std::ceil(q * double(values.size()))) - 1, values.size() - 1);
    return values.at(rank);
}

} // namespace FaultSupport
