// peers-handover-bench [rounds=10]: starts a broker in a temporary HOME, then replaces it
// `rounds` times by a new claude-peers-broker process (which takes the listening socket over)
// while a client thread asks GET /health on fresh connections without pause. Prints per round:
// - gap: from the old broker's "no longer accepting" to the new one's "Broker listening" (their
//   log timestamps, ms): the time the kernel queues new clients;
// - the worst /health answer time the client saw during that round, and its errors (must be 0).
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

quint16 freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
    socklen_t length = sizeof(address);
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

struct Hammer
{
    quint16 port;
    std::atomic<bool> stop = false;
    std::atomic<int> answered = 0;
    std::atomic<int> errors = 0;
    std::atomic<qint64> worstNs = 0;

    void run()
    {
        const char request[] = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        while (!stop) {
            QElapsedTimer clock;
            clock.start();
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_in address {};
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            address.sin_port = htons(port);
            bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0 &&
                ::send(fd, request, sizeof(request) - 1, MSG_NOSIGNAL) == ssize_t(sizeof(request) - 1);
            char buffer[2048];
            qsizetype total = 0;
            bool answer200 = false;
            while (ok) {
                const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
                if (n < 0)
                    ok = false;
                if (n <= 0)
                    break;
                if (total == 0)
                    answer200 = n >= 12 && std::equal(buffer, buffer + 12, "HTTP/1.1 200");
                total += n;
            }
            ::close(fd);
            if (ok && answer200) {
                ++answered;
                const qint64 ns = clock.nsecsElapsed();
                qint64 worst = worstNs;
                while (ns > worst && !worstNs.compare_exchange_weak(worst, ns)) { }
            } else {
                ++errors;
            }
        }
    }
};

// The timestamp at the start of the log line that contains `marker` ("[2026-12-01T05:00:00.123]").
qint64 stampOf(const QByteArray &log, const QByteArray &marker)
{
    for (const QByteArray &line : log.split('\n')) {
        if (!line.contains(marker) || line.size() < 25 || line.at(0) != '[')
            continue;
        const QDateTime t = QDateTime::fromString(QString::fromLatin1(line.mid(1, 23)), Qt::ISODateWithMs);
        if (t.isValid())
            return t.toMSecsSinceEpoch();
    }
    return -1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? qMax(1, atoi(argv[1])) : 10;
    QTemporaryDir home;
    QDir(home.path()).mkpath(QStringLiteral("run"));
    QFile::setPermissions(home.filePath(QStringLiteral("run")),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const quint16 port = freePort();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home.filePath(QStringLiteral("run")));
    env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(port));
    env.insert(QStringLiteral("CLAUDE_PEERS_DB"), home.filePath(QStringLiteral("peers.db")));
    env.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), home.filePath(QStringLiteral("token")));

    std::vector<std::unique_ptr<QProcess>> brokers;
    const auto startBroker = [&] {
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(env);
        process->start(QStringLiteral(PEERS_BENCH_BROKER_EXE), {});
        process->waitForStarted();
        brokers.push_back(std::move(process));
        return brokers.back().get();
    };
    QProcess *current = startBroker();
    QElapsedTimer waitUp;
    waitUp.start();
    while (!current->readAllStandardError().contains("Broker listening")) {
        if (waitUp.elapsed() > 15000 || current->state() != QProcess::Running) {
            std::fprintf(stderr, "the first broker did not start\n");
            return 1;
        }
        current->waitForReadyRead(100);
    }

    Hammer hammer;
    hammer.port = port;
    std::thread client([&] { hammer.run(); });
    std::vector<double> gaps;
    int totalErrors = 0;
    std::printf("round  gap_ms  worst_health_ms  answered  errors\n");
    for (int round = 1; round <= rounds; ++round) {
        QThread::msleep(200); // steady load before the hand-over
        hammer.worstNs = 0;
        hammer.answered = 0;
        hammer.errors = 0;
        QProcess *next = startBroker();
        if (!current->waitForFinished(20000)) {
            std::fprintf(stderr, "round %d: the old broker did not exit\n", round);
            break;
        }
        QByteArray nextLog;
        QElapsedTimer t;
        t.start();
        while (!nextLog.contains("Broker listening") && t.elapsed() < 20000) {
            next->waitForReadyRead(50);
            nextLog += next->readAllStandardError();
        }
        QThread::msleep(100); // the queued clients answered
        const QByteArray oldLog = current->readAllStandardError();
        const qint64 stopped = stampOf(oldLog, "no longer accepting");
        const qint64 listening = stampOf(nextLog, "Broker listening");
        const double gap = stopped > 0 && listening > 0 ? double(listening - stopped) : -1;
        if (gap >= 0)
            gaps.push_back(gap);
        totalErrors += hammer.errors;
        std::printf("%5d  %6.0f  %15.1f  %8d  %6d\n", round, gap, double(hammer.worstNs) / 1e6,
                    int(hammer.answered), int(hammer.errors));
        std::fflush(stdout);
        current = next;
    }
    hammer.stop = true;
    client.join();
    for (auto &process : brokers) {
        if (process->state() != QProcess::NotRunning) {
            process->terminate();
            process->waitForFinished(10000);
        }
    }
    std::sort(gaps.begin(), gaps.end());
    if (!gaps.empty())
        std::printf(
            "hand-over gap over %zu rounds: min %.0f ms, median %.0f ms, max %.0f ms (log timestamps, 1 ms "
            "resolution); connection errors seen by the client: %d\n",
            gaps.size(), gaps.front(), gaps[gaps.size() / 2], gaps.back(), totalErrors);
    return totalErrors == 0 ? 0 : 1;
}
