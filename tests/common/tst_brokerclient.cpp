#include "common/brokerclient.h"
#include "common/tokenfile.h"

#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <optional>

using namespace Broker;

namespace {

// A tiny HTTP/1.1 server on 127.0.0.1:0 that records requests and answers through a handler.
// The handler returns the raw answer bytes; an empty answer leaves the request hanging; the
// special value "CLOSE" closes the connection without an answer.
class FakeBroker : public QObject
{
public:
    struct Request
    {
        QByteArray method;
        QByteArray target;
        QByteArray authorization;
        QByteArray contentType;
        QByteArray body;
    };
    using Handler = std::function<QByteArray(const Request &)>;

    FakeBroker()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, &FakeBroker::accept);
        m_server.listen(QHostAddress::LocalHost, 0);
    }

    quint16 port() const { return m_server.serverPort(); }
    void setHandler(Handler h) { m_handler = std::move(h); }
    QList<Request> requests;
    int connections = 0;
    bool closeAfterAnswer = false; // "Connection: close" servers: the close ends the answer

    static QByteArray answer(int status, const QByteArray &body,
                             const QByteArray &contentType = "application/json")
    {
        return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: " + contentType +
            "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

private:
    void accept()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            ++connections;
            auto buffer = std::make_shared<QByteArray>();
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                *buffer += socket->readAll();
                serve(socket, *buffer);
            });
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    }

    void serve(QTcpSocket *socket, QByteArray &buffer)
    {
        for (;;) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            Request r;
            const QList<QByteArray> lines = buffer.left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            r.method = first.value(0);
            r.target = first.value(1);
            qsizetype length = 0;
            for (const QByteArray &line : lines.mid(1)) {
                const qsizetype colon = line.indexOf(':');
                const QByteArray name = line.left(colon).trimmed().toLower();
                const QByteArray value = line.mid(colon + 1).trimmed();
                if (name == "content-length")
                    length = value.toLongLong();
                else if (name == "authorization")
                    r.authorization = value;
                else if (name == "content-type")
                    r.contentType = value;
            }
            if (buffer.size() < end + 4 + length)
                return;
            r.body = buffer.mid(end + 4, length);
            buffer.remove(0, end + 4 + length);
            requests.append(r);
            const QByteArray reply = m_handler ? m_handler(r) : answer(200, "{}");
            if (reply == "CLOSE") {
                socket->disconnectFromHost();
                return;
            }
            if (!reply.isEmpty())
                socket->write(reply);
            if (closeAfterAnswer) {
                socket->disconnectFromHost();
                return;
            }
        }
    }

    QTcpServer m_server;
    Handler m_handler;
};

struct Outcome
{
    std::optional<Result<QJsonValue>> result;
    int calls = 0;
    BrokerClient::Callback callback()
    {
        return [this](Result<QJsonValue> r) {
            ++calls;
            result = std::move(r);
        };
    }
};

} // namespace

class tst_BrokerClient : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<FakeBroker> m_fake;

    Location location(quint16 port) const
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), m_dir.path());
        env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(port));
        env.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), m_dir.filePath(QStringLiteral("token")));
        env.insert(QStringLiteral("CLAUDE_PEERS_DB"), m_dir.filePath(QStringLiteral("db")));
        return Location::fromEnvironment(env);
    }
    void writeToken(const QByteArray &token)
    {
        QVERIFY(TokenFile::write(m_dir.filePath(QStringLiteral("token")), token));
    }
    static int wait() { return TestSupport::scaled(10000); }

private Q_SLOTS:
    void init()
    {
        QFile::remove(m_dir.filePath(QStringLiteral("token")));
        m_fake = std::make_unique<FakeBroker>();
        QVERIFY(m_fake->port() != 0);
    }

    void postSendsBearerAndJson()
    {
        writeToken("tok1");
        m_fake->setHandler(
            [](const auto &) { return FakeBroker::answer(200, R"({"ok":true,"message_id":7})"); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.post(QStringLiteral("/send-message"),
                    QJsonObject {{QStringLiteral("text"), QStringLiteral("hi")}}, o.callback());
        QCOMPARE(o.calls, 0); // never inline
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QVERIFY(*o.result);
        QCOMPARE((*o.result)->toObject().value(QStringLiteral("message_id")).toInt(), 7);
        QCOMPARE(m_fake->requests.size(), 1);
        const auto &r = m_fake->requests.first();
        QCOMPARE(r.method, QByteArray("POST"));
        QCOMPARE(r.target, QByteArray("/send-message"));
        QCOMPARE(r.authorization, QByteArray("Bearer tok1"));
        QCOMPARE(r.contentType, QByteArray("application/json"));
        QCOMPARE(QJsonDocument::fromJson(r.body).object().value(QStringLiteral("text")).toString(),
                 QStringLiteral("hi"));
    }

    void getIsUnauthenticatedAndKeepsQuery()
    {
        writeToken("tok1");
        m_fake->setHandler([](const auto &) { return FakeBroker::answer(200, R"([1,2])"); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.get(QStringLiteral("/metrics?detailed=true"), o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QVERIFY(*o.result);
        QCOMPARE((*o.result)->toArray().size(), 2);
        QCOMPARE(m_fake->requests.first().method, QByteArray("GET"));
        QCOMPARE(m_fake->requests.first().target, QByteArray("/metrics?detailed=true"));
        QVERIFY(m_fake->requests.first().authorization.isEmpty());
    }

    void sessionSecretForAllButRegister()
    {
        writeToken("main");
        BrokerClient client(location(m_fake->port()));
        client.setSessionSecret("secret");
        QCOMPARE(client.sessionSecret(), QByteArray("secret"));
        Outcome a, b;
        client.post(QStringLiteral("/heartbeat"), {}, a.callback());
        QTRY_COMPARE_WITH_TIMEOUT(a.calls, 1, wait());
        client.post(QStringLiteral("/register"), {}, b.callback());
        QTRY_COMPARE_WITH_TIMEOUT(b.calls, 1, wait());
        QCOMPARE(m_fake->requests.at(0).authorization, QByteArray("Bearer secret"));
        QCOMPARE(m_fake->requests.at(1).authorization, QByteArray("Bearer main"));
    }

    void rereadsTokenAndRetriesOnceAfter401()
    {
        writeToken("old");
        QByteArray accepted = "Bearer old";
        m_fake->setHandler([&accepted](const FakeBroker::Request &r) {
            return r.authorization == accepted ? FakeBroker::answer(200, R"({"ok":true})")
                                               : FakeBroker::answer(401, R"({"error":"Unauthorized"})");
        });
        BrokerClient client(location(m_fake->port()));
        Outcome first;
        client.post(QStringLiteral("/heartbeat"), {}, first.callback());
        QTRY_COMPARE_WITH_TIMEOUT(first.calls, 1, wait());
        QVERIFY(*first.result);

        // Rotation: the file and the broker change, the client still holds the old token.
        writeToken("new");
        accepted = "Bearer new";
        Outcome second;
        client.post(QStringLiteral("/heartbeat"), {}, second.callback());
        QTRY_COMPARE_WITH_TIMEOUT(second.calls, 1, wait());
        QVERIFY2(*second.result, qPrintable(second.result->error().message));
        QCOMPARE(m_fake->requests.size(), 3);
        QCOMPARE(m_fake->requests.at(1).authorization, QByteArray("Bearer old"));
        QCOMPARE(m_fake->requests.at(2).authorization, QByteArray("Bearer new"));
        QCOMPARE(second.calls, 1);
    }

    void retriesOnlyOnce()
    {
        writeToken("old");
        m_fake->setHandler([this](const auto &) {
            // Every answer is 401, and the file changes each time: still only one retry.
            writeToken(QByteArray("t") + QByteArray::number(m_fake->requests.size()));
            return FakeBroker::answer(401, R"({"error":"Unauthorized"})");
        });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.post(QStringLiteral("/heartbeat"), {}, o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QVERIFY(!*o.result);
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::Http);
        QCOMPARE(o.result->error().httpStatus, 401);
        QCOMPARE(m_fake->requests.size(), 2);
    }

    void noRetryWhenTokenUnchanged()
    {
        writeToken("same");
        m_fake->setHandler(
            [](const auto &) { return FakeBroker::answer(401, R"({"error":"Unauthorized"})"); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.post(QStringLiteral("/list-peers"), {}, o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QVERIFY(!*o.result);
        QCOMPARE(o.result->error().message,
                 QStringLiteral("Broker error (/list-peers): 401 {\"error\":\"Unauthorized\"}"));
        QCOMPARE(m_fake->requests.size(), 1);
    }

    void noRetryForSessionSecret()
    {
        writeToken("main");
        m_fake->setHandler(
            [](const auto &) { return FakeBroker::answer(401, R"({"error":"Unauthorized"})"); });
        BrokerClient client(location(m_fake->port()));
        client.setSessionSecret("stale");
        Outcome o;
        client.post(QStringLiteral("/heartbeat"), {}, o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(o.result->error().httpStatus, 401);
        QCOMPARE(m_fake->requests.size(), 1);
    }

    void missingTokenSendsNoHeaderAndReportsTokenOn401()
    {
        m_fake->setHandler(
            [](const auto &) { return FakeBroker::answer(401, R"({"error":"Unauthorized"})"); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.post(QStringLiteral("/heartbeat"), {}, o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QVERIFY(m_fake->requests.first().authorization.isEmpty());
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::Token);
        QVERIFY(o.result->error().message.contains(QStringLiteral("does not exist")));
    }

    void setTokenOverridesTheFileUntil401()
    {
        writeToken("fromfile");
        BrokerClient client(location(m_fake->port()));
        client.setToken("explicit");
        Outcome o;
        client.post(QStringLiteral("/reload"), {}, o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(m_fake->requests.first().authorization, QByteArray("Bearer explicit"));
    }

    void unreachableBroker()
    {
        const quint16 port = TestSupport::freePort();
        BrokerClient client(location(port));
        Outcome o;
        client.get(QStringLiteral("/health"), o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QVERIFY(!*o.result);
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::Unreachable);
        QCOMPARE(o.result->error().message,
                 QStringLiteral("Broker not reachable at http://127.0.0.1:%1. Is it running? Start it with "
                                "claude-peers-broker or the tray app.")
                     .arg(port));
        QCOMPARE(client.unreachableMessage(), o.result->error().message);
    }

    void connectionClosedWithoutAnswerIsUnreachable()
    {
        m_fake->setHandler([](const auto &) { return QByteArray("CLOSE"); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.post(QStringLiteral("/heartbeat"), {}, o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::Unreachable);
    }

    void nonJsonAnswer_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("plain text") << QByteArray("claude-peers broker");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated json") << QByteArray(R"({"ok":tr)");
        QTest::newRow("scalar") << QByteArray("42");
    }
    void nonJsonAnswer()
    {
        QFETCH(QByteArray, body);
        m_fake->setHandler([body](const auto &) { return FakeBroker::answer(200, body, "text/plain"); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.get(QStringLiteral("/health"), o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QVERIFY(!*o.result);
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::BadJson);
        QVERIFY(o.result->error().message.startsWith(QStringLiteral("Broker answer to /health is not JSON")));
    }

    void httpErrorCarriesStatusAndBody()
    {
        writeToken("t");
        m_fake->setHandler([](const auto &) { return FakeBroker::answer(404, R"({"error":"not found"})"); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.post(QStringLiteral("/nope"), {}, o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::Http);
        QCOMPARE(o.result->error().httpStatus, 404);
        QCOMPARE(o.result->error().message,
                 QStringLiteral("Broker error (/nope): 404 {\"error\":\"not found\"}"));
    }

    void hangingBrokerTimesOut()
    {
        m_fake->setHandler([](const auto &) { return QByteArray(); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        QElapsedTimer t;
        t.start();
        client.get(QStringLiteral("/health"), o.callback(), 300);
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::Unreachable);
        QVERIFY(t.elapsed() >= 250);
        QCOMPARE(client.pendingCount(), 0);
    }

    void tricklingBrokerHitsTheDeadline()
    {
        // Headers, then one byte every 100 ms: the silence timeout alone would never fire.
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QTimer drip;
        QPointer<QTcpSocket> socket;
        connect(&server, &QTcpServer::newConnection, this, [&] {
            socket = server.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, socket, [&] {
                socket->readAll();
                socket->write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n");
                drip.start(100);
            });
        });
        connect(&drip, &QTimer::timeout, this, [&] {
            if (socket)
                socket->write(" ");
        });
        BrokerClient client(location(server.serverPort()));
        Outcome o;
        client.get(QStringLiteral("/health"), o.callback(), 500);
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::Unreachable);
    }

    void oversizedAnswerByLength()
    {
        m_fake->setHandler(
            [](const auto &) { return FakeBroker::answer(200, "[" + QByteArray(4096, ' ') + "]"); });
        BrokerClient client(location(m_fake->port()));
        client.setMaxAnswerBytes(1024);
        QCOMPARE(client.maxAnswerBytes(), 1024);
        Outcome o;
        client.get(QStringLiteral("/health"), o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::TooLarge);
    }

    void oversizedChunkedAnswer()
    {
        m_fake->setHandler([](const auto &) {
            QByteArray reply =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            for (int i = 0; i < 8; ++i)
                reply += "400\r\n" + QByteArray(1024, ' ') + "\r\n";
            reply += "0\r\n\r\n";
            return reply;
        });
        BrokerClient client(location(m_fake->port()));
        client.setMaxAnswerBytes(2048);
        Outcome o;
        client.get(QStringLiteral("/health"), o.callback());
        QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
        QCOMPARE(o.result->error().kind, Broker::ErrorKind::TooLarge);
    }

    void keepsOneConnectionForSequentialRequests()
    {
        writeToken("t");
        BrokerClient client(location(m_fake->port()));
        for (int i = 0; i < 5; ++i) {
            Outcome o;
            client.post(QStringLiteral("/heartbeat"), {}, o.callback());
            QTRY_COMPARE_WITH_TIMEOUT(o.calls, 1, wait());
            QVERIFY(*o.result);
        }
        QCOMPARE(m_fake->requests.size(), 5);
        QCOMPARE(m_fake->connections, 1);
    }

    void aCallbackMayAskAgainWhenTheServerClosesAfterEachAnswer()
    {
        // The answer and the close arrive together; the request the callback sends meanwhile
        // goes on a fresh connection and must not be taken for the one that closed.
        m_fake->closeAfterAnswer = true;
        m_fake->setHandler([](const auto &) {
            return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                   "Content-Length: 2\r\n\r\n{}";
        });
        writeToken("t");
        BrokerClient client(location(m_fake->port()));
        Outcome second;
        client.get(QStringLiteral("/health"), [&](Result<QJsonValue> first) {
            QVERIFY(first.has_value());
            client.post(QStringLiteral("/shutdown"), {}, second.callback());
        });
        QTRY_COMPARE_WITH_TIMEOUT(second.calls, 1, wait());
        QVERIFY2(second.result->has_value(), qPrintable(second.result->error().message));
        QCOMPARE(m_fake->requests.size(), 2);
        QCOMPARE(m_fake->requests.at(1).target, QByteArray("/shutdown"));
        QCOMPARE(m_fake->connections, 2);
    }

    void abortAllDropsCallbacks()
    {
        m_fake->setHandler([](const auto &) { return QByteArray(); });
        BrokerClient client(location(m_fake->port()));
        Outcome o;
        client.get(QStringLiteral("/health"), o.callback(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_fake->requests.size(), 1, wait());
        QCOMPARE(client.pendingCount(), 1);
        client.abortAll();
        QCOMPARE(client.pendingCount(), 0);
        QCoreApplication::processEvents();
        QCOMPARE(o.calls, 0);
    }

    void destroyingTheClientDropsCallbacks()
    {
        m_fake->setHandler([](const auto &) { return QByteArray(); });
        Outcome o;
        {
            BrokerClient client(location(m_fake->port()));
            client.get(QStringLiteral("/health"), o.callback(), 5000);
            QTRY_COMPARE_WITH_TIMEOUT(m_fake->requests.size(), 1, wait());
        }
        QCoreApplication::processEvents();
        QCOMPARE(o.calls, 0);
    }

    void callbackMayDeleteTheClient()
    {
        auto *client = new BrokerClient(location(m_fake->port()));
        bool called = false;
        client->get(QStringLiteral("/health"), [&](Result<QJsonValue>) {
            called = true;
            delete client;
        });
        QTRY_VERIFY_WITH_TIMEOUT(called, wait());
    }
};

QTEST_GUILESS_MAIN(tst_BrokerClient)
#include "tst_brokerclient.moc"
