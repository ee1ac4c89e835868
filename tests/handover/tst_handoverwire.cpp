// The hand-over socket's pieces in one process: the messages (data-driven, every refusal),
// descriptors passed with SCM_RIGHTS over a socketpair, the SO_PEERCRED rule, and the running
// broker's socket file (owner-only, a stale one replaced, removed on close but never a
// successor's).
#include "broker/handover/fdpassing.h"
#include "broker/handover/handoverserver.h"
#include "broker/handover/handoverwire.h"
#include "broker/handover/successor.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Broker::Handover;

namespace {

// A listening TCP socket on 127.0.0.1 and an ephemeral port.
Fd::Owned listeningSocket(quint16 *port)
{
    Fd::Owned fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0 ||
        ::listen(fd.get(), 16) != 0)
        return {};
    socklen_t length = sizeof(address);
    ::getsockname(fd.get(), reinterpret_cast<sockaddr *>(&address), &length);
    *port = ntohs(address.sin_port);
    return fd;
}

// A socket file nobody listens on, as a broker killed with SIGKILL leaves it.
void makeStaleSocket(const QString &path)
{
    Fd::Owned fd(::socket(AF_UNIX, SOCK_SEQPACKET, 0));
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    std::memcpy(address.sun_path, name.constData(), size_t(name.size()));
    QCOMPARE(::bind(fd.get(), reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
}

} // namespace

class tst_HandoverWire : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void messagesRoundTrip_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("request") << 0;
        QTest::newRow("offer") << 1;
        QTest::newRow("refusal") << 2;
        QTest::newRow("done") << 3;
        QTest::newRow("done with an error") << 4;
    }
    void messagesRoundTrip()
    {
        QFETCH(int, which);
        const Message messages[] = {
            Request {4242, QStringLiteral("/home/u/.claude-peers.db")},
            Offer {77, {{QStringLiteral("local"), 7899}, {QStringLiteral("federation"), 7900}}},
            Refusal {QStringLiteral("another user")},
            Done {},
            Done {false, QStringLiteral("disk full")},
        };
        const auto decoded = decode(encode(messages[which]));
        QVERIFY2(decoded, qPrintable(decoded ? QString() : decoded.error().message));
        QVERIFY(*decoded == messages[which]);
    }

    void refusesBadMessages_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("not json") << QByteArray("handover please");
        QTest::newRow("array") << QByteArray("[1]");
        QTest::newRow("unknown kind") << QByteArray(R"({"hello":1})");
        QTest::newRow("other version") << QByteArray(R"({"handover":2,"pid":1,"database":"/d"})");
        QTest::newRow("pid zero") << QByteArray(R"({"handover":1,"pid":0,"database":"/d"})");
        QTest::newRow("pid fraction") << QByteArray(R"({"handover":1,"pid":1.5,"database":"/d"})");
        QTest::newRow("pid huge") << QByteArray(R"({"handover":1,"pid":1e300,"database":"/d"})");
        QTest::newRow("database missing") << QByteArray(R"({"handover":1,"pid":1})");
        QTest::newRow("database empty") << QByteArray(R"({"handover":1,"pid":1,"database":""})");
        QTest::newRow("database number") << QByteArray(R"({"handover":1,"pid":1,"database":5})");
        QTest::newRow("offer without listeners") << QByteArray(R"({"offer":1,"pid":1,"listeners":[]})");
        QTest::newRow("offer port 0")
            << QByteArray(R"({"offer":1,"pid":1,"listeners":[{"name":"local","port":0}]})");
        QTest::newRow("offer port 70000")
            << QByteArray(R"({"offer":1,"pid":1,"listeners":[{"name":"local","port":70000}]})");
        QTest::newRow("offer unnamed") << QByteArray(R"({"offer":1,"pid":1,"listeners":[{"port":1}]})");
        QTest::newRow("offer too many") << QByteArray(
            R"({"offer":1,"pid":1,"listeners":[{"name":"a","port":1},{"name":"b","port":2},{"name":"c","port":3},{"name":"d","port":4},{"name":"e","port":5}]})");
        QTest::newRow("done string") << QByteArray(R"({"done":"yes"})");
        QTest::newRow("failed without error") << QByteArray(R"({"done":false})");
        QTest::newRow("refusal not text") << QByteArray(R"({"refused":1})");
        QTest::newRow("too long") << QByteArray(R"({"refused":")") + QByteArray(kMaxMessageBytes, 'x') +
                "\"}";
    }
    void refusesBadMessages()
    {
        QFETCH(QByteArray, bytes);
        const auto decoded = decode(bytes);
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().kind, Broker::ErrorKind::BadRequest);
        QVERIFY(decoded.error().message.startsWith(QLatin1String("Bad hand-over message: ")));
    }

    void passesAListeningSocket()
    {
        quint16 port = 0;
        Fd::Owned listener = listeningSocket(&port);
        QVERIFY(listener.isValid());
        int pair[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair), 0);
        Fd::Owned a(pair[0]), b(pair[1]);
        const int fds[] = {listener.get()};
        QVERIFY(Fd::send(a.get(), "offer", fds, QDeadlineTimer(1000)));
        auto received = Fd::receive(b.get(), QDeadlineTimer(1000));
        QVERIFY(received);
        QCOMPARE(received->bytes, QByteArray("offer"));
        QCOMPARE(received->fds.size(), size_t(1));
        QVERIFY(received->fds[0].get() != listener.get()); // another descriptor, the same socket
        const auto samePort = Fd::listeningPort(received->fds[0].get());
        QVERIFY(samePort);
        QCOMPARE(*samePort, port);
        // A connection queued while the first holder closes its descriptor is accepted through the second.
        listener.reset();
        Fd::Owned client(::socket(AF_INET, SOCK_STREAM, 0));
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(port);
        QCOMPARE(::connect(client.get(), reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
        Fd::Owned accepted(::accept(received->fds[0].get(), nullptr, nullptr));
        QVERIFY(accepted.isValid());
    }

    void receiveTimesOutAndSeesClose()
    {
        int pair[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair), 0);
        Fd::Owned a(pair[0]), b(pair[1]);
        auto nothing = Fd::receive(b.get(), QDeadlineTimer(50));
        QVERIFY(!nothing);
        QCOMPARE(nothing.error().kind, Broker::ErrorKind::HandoverTimeout);
        a.reset();
        auto closed = Fd::receive(b.get(), QDeadlineTimer(1000));
        QVERIFY(!closed);
        QCOMPARE(closed.error().kind, Broker::ErrorKind::Unreachable);
    }

    void onlyTheSameUserMayHandOver()
    {
        QVERIFY(Fd::mayHandOver(1000, 1000));
        QVERIFY(!Fd::mayHandOver(0, 1000)); // not even root: a per-user daemon
        QVERIFY(!Fd::mayHandOver(1001, 1000));
        int pair[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair), 0);
        Fd::Owned a(pair[0]), b(pair[1]);
        const auto uid = Fd::peerUid(a.get());
        QVERIFY(uid);
        QCOMPARE(*uid, ::getuid());
    }

    void serverRefusesAnotherUid()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h.handover"));
        int handled = 0;
        HandoverServer server([&](const Request &, Fd::Owned) { ++handled; });
        server.setAllowedUid(::getuid() + 1); // we are "another user" to it
        QVERIFY(server.listen(path));
        TakeOverTimeouts quick;
        quick.offerMs = 2000;
        Broker::Result<Inherited> answer = std::unexpected(Broker::Error {});
        std::atomic<bool> done = false;
        // The successor blocks; the server needs our event loop: run the successor on a thread.
        std::thread successor([&] {
            answer = takeOver(path, Request {::getpid(), QStringLiteral("/db")}, quick);
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 5000);
        successor.join();
        QVERIFY(!answer);
        QCOMPARE(answer.error().kind, Broker::ErrorKind::HandoverRefused);
        QVERIFY2(answer.error().message.contains(QLatin1String("another user")),
                 qPrintable(answer.error().message));
        QCOMPARE(handled, 0);
    }

    void serverHandsRequestsOnAndOwnsItsFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h.handover"));
        makeStaleSocket(path);
        QVERIFY(QFileInfo::exists(path));
        QList<Request> requests;
        HandoverServer server([&](const Request &request, Fd::Owned connection) {
            requests << request;
            (void)Fd::send(connection.get(), encode(Refusal {QStringLiteral("test")}), {},
                           QDeadlineTimer(500));
        });
        QVERIFY(server.listen(path)); // the stale file is replaced
        const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup |
            QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;
        QCOMPARE(QFileInfo(path).permissions() & others, QFile::Permissions());
        // A second server on the same path is refused while the first answers.
        HandoverServer second([](const Request &, Fd::Owned) {});
        QVERIFY(!second.listen(path));

        Broker::Result<Inherited> answer = std::unexpected(Broker::Error {});
        std::atomic<bool> done = false;
        std::thread successor([&] {
            answer = takeOver(path, Request {4321, QStringLiteral("/some/db")});
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 5000);
        successor.join();
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests.first(), (Request {4321, QStringLiteral("/some/db")}));
        QVERIFY(!answer);
        QCOMPARE(answer.error().kind, Broker::ErrorKind::HandoverRefused);

        server.close();
        QVERIFY(!QFileInfo::exists(path));

        // A file that is not ours any more (a successor's) is left alone.
        HandoverServer third([](const Request &, Fd::Owned) {});
        QVERIFY(third.listen(path));
        QFile::remove(path);
        makeStaleSocket(path);
        third.close();
        QVERIFY(QFileInfo::exists(path));
    }

    void absentOrStaleSocketIsReported()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h.handover"));
        auto absent = takeOver(path, Request {1, QStringLiteral("/db")});
        QVERIFY(!absent);
        QCOMPARE(absent.error().kind, Broker::ErrorKind::Missing);
        makeStaleSocket(path);
        auto stale = takeOver(path, Request {1, QStringLiteral("/db")});
        QVERIFY(!stale);
        QCOMPARE(stale.error().kind, Broker::ErrorKind::Unreachable);
    }
};

QTEST_GUILESS_MAIN(tst_HandoverWire)
#include "tst_handoverwire.moc"
