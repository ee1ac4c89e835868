#include "tests/handover/healthhammer.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

void HealthHammer::start()
{
    m_thread = std::thread([this] { run(); });
}

void HealthHammer::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

QHash<QString, int> HealthHammer::errorKinds() const
{
    QMutexLocker locker(&m_mutex);
    return m_kinds;
}

QHash<qint64, int> HealthHammer::answersByPid() const
{
    QMutexLocker locker(&m_mutex);
    return m_pids;
}

void HealthHammer::count(const QString &kind)
{
    ++m_errors;
    QMutexLocker locker(&m_mutex);
    ++m_kinds[kind];
}

void HealthHammer::run()
{
    const QByteArray request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    while (!m_stop) {
        QElapsedTimer clock;
        clock.start();
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(m_port);
        timeval timeout {10, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
        if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
            count(errno == ECONNREFUSED ? QStringLiteral("refused")
                                        : QString::fromLocal8Bit(std::strerror(errno)));
            ::close(fd);
            continue;
        }
        if (::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL) != request.size()) {
            count(QStringLiteral("send: ") + QString::fromLocal8Bit(std::strerror(errno)));
            ::close(fd);
            continue;
        }
        QByteArray answer;
        char buffer[4096];
        QString failure;
        for (;;) {
            const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
            if (n > 0) {
                answer.append(buffer, n);
                continue;
            }
            if (n < 0)
                failure = errno == ECONNRESET ? QStringLiteral("reset")
                                              : QString::fromLocal8Bit(std::strerror(errno));
            break;
        }
        ::close(fd);
        const qsizetype body = answer.indexOf("\r\n\r\n");
        if (!failure.isEmpty()) {
            count(failure);
        } else if (!answer.startsWith("HTTP/1.1 200") || body < 0) {
            count(answer.isEmpty() ? QStringLiteral("closed without an answer")
                                   : QStringLiteral("not a 200"));
        } else {
            ++m_answered;
            const double ms = double(clock.nsecsElapsed()) / 1e6;
            if (ms > m_maxLatencyMs)
                m_maxLatencyMs = ms;
            const qint64 pid = QJsonDocument::fromJson(answer.mid(body + 4))
                                   .object()
                                   .value(QLatin1String("pid"))
                                   .toInteger();
            QMutexLocker locker(&m_mutex);
            ++m_pids[pid];
        }
    }
}
