// accept() failing for lack of file descriptors (EMFILE): the server says so once, retries on a
// timer instead of spinning or giving up, and takes the clients that waited in the listen
// backlog as soon as descriptors are free again (issue 7 §1.2).
#include "broker/http/httpserver.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QTest>

#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Broker::Http;
using TestSupport::scaled;

namespace {

class OkHandler : public RequestHandler
{
public:
    void handle(const Request &, const ResponderPtr &responder) override
    {
        responder->respond(Response::json(200, R"({"ok":true})"));
    }
};

int openFdCount()
{
    return int(QDir(QStringLiteral("/proc/self/fd"))
                   .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System)
                   .size());
}

int acceptWarnings = 0;
int acceptingAgain = 0;
QtMessageHandler previousHandler = nullptr;

void countingHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && message.startsWith(QLatin1String("Cannot accept connections")))
        ++acceptWarnings;
    if (message.startsWith(QLatin1String("Accepting connections again")))
        ++acceptingAgain;
    previousHandler(type, context, message);
}

} // namespace

class tst_HttpAccept : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resumesAcceptingWhenDescriptorsAreFreeAgain()
    {
        constexpr int Clients = 40;
        constexpr int Spare = 5;
        OkHandler handler;
        HttpServer server(&handler);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));

        // The handshakes complete in the kernel; the server accepts nothing before the event
        // loop runs.
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(server.serverPort());
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        std::vector<int> clients;
        for (int i = 0; i < Clients; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            QVERIFY(fd >= 0);
            QCOMPARE(::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address), 0);
            clients.push_back(fd);
        }
        const auto closeClients = qScopeGuard([&] {
            for (int fd : clients)
                ::close(fd);
        });

        rlimit saved {};
        QCOMPARE(::getrlimit(RLIMIT_NOFILE, &saved), 0);
        const auto restoreLimit = qScopeGuard([&] { ::setrlimit(RLIMIT_NOFILE, &saved); });
        rlimit low = saved;
        low.rlim_cur = rlim_t(openFdCount() + Spare);
        QCOMPARE(::setrlimit(RLIMIT_NOFILE, &low), 0);

        acceptWarnings = acceptingAgain = 0;
        previousHandler = qInstallMessageHandler(countingHandler);
        const auto restoreHandler = qScopeGuard([] { qInstallMessageHandler(previousHandler); });

        QTest::qWait(scaled(300) + 5 * HttpServer::kAcceptRetryMs);
        const int whileShort = server.connectionCount();
        QVERIFY2(whileShort < Clients / 2, qPrintable(QString::number(whileShort)));
        QCOMPARE(acceptWarnings, 1); // several retries, one line

        ::setrlimit(RLIMIT_NOFILE, &saved);
        QTRY_COMPARE_WITH_TIMEOUT(server.connectionCount(), Clients, scaled(5000));
        QCOMPARE(acceptWarnings, 1);
        QCOMPARE(acceptingAgain, 1);
    }
};

QTEST_GUILESS_MAIN(tst_HttpAccept)
#include "tst_httpaccept.moc"
