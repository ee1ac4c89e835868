#include "broker/http/httpserver.h"
#include "tests/support/testsupport.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <optional>

using namespace Broker::Http;
using TestSupport::scaled;

namespace {

const QByteArray kTooLarge = R"j({"error":"Request body too large (limit 1048576 bytes)"})j";

// Answers at once, later (/defer), or never (/drop); echoes what it parsed (/echo).
class TestHandler : public RequestHandler
{
public:
    void handle(const Request &request, const ResponderPtr &responder) override
    {
        requests.append(request);
        if (request.path == "/defer") {
            deferred.append(responder);
            return;
        }
        if (request.path == "/drop")
            return;
        if (request.path == "/big") {
            responder->respond(Response::text(200, QByteArray(128 * 1024, 'b')));
            return;
        }
        if (request.path == "/throw")
            throw std::runtime_error("boom");
        if (request.path == "/echo") {
            responder->respond(Response::text(200,
                                              request.method + ' ' + request.path + '?' + request.query +
                                                  " x-test=" + request.header("x-test") +
                                                  " body=" + request.body));
            return;
        }
        responder->respond(Response::json(200, R"({"ok":true})"));
    }

    QList<Request> requests;
    QList<ResponderPtr> deferred;
};

struct RawResponse
{
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    QByteArray header(QByteArrayView name) const
    {
        for (const auto &[n, v] : headers) {
            if (n == name)
                return v;
        }
        return {};
    }
};

// Takes one complete response off the front of buf. A HEAD answer has no body.
bool takeResponse(QByteArray &buf, RawResponse &out, bool headOnly)
{
    const qsizetype end = buf.indexOf("\r\n\r\n");
    if (end < 0)
        return false;
    const QList<QByteArray> lines = buf.left(end).split('\n');
    RawResponse response;
    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
    response.status = statusLine.value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        response.headers.append(
            {lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed()});
    }
    const qsizetype length =
        (headOnly || response.status < 200) ? 0 : response.header("content-length").toLongLong();
    if (buf.size() < end + 4 + length)
        return false;
    response.body = buf.mid(end + 4, length);
    buf.remove(0, end + 4 + length);
    out = response;
    return true;
}

// A raw TCP client, so the tests control every byte on the wire.
class RawClient
{
public:
    explicit RawClient(quint16 port)
    {
        QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [this] { data += socket.readAll(); });
        QObject::connect(&socket, &QTcpSocket::disconnected, &socket, [this] { closed = true; });
        socket.connectToHost(QHostAddress::LocalHost, port);
    }
    bool waitConnected()
    {
        return QTest::qWaitFor([this] { return socket.state() == QAbstractSocket::ConnectedState; },
                               scaled(5000));
    }
    void send(const QByteArray &bytes)
    {
        if (socket.state() != QAbstractSocket::ConnectedState)
            QVERIFY(waitConnected());
        socket.write(bytes);
        socket.flush();
    }
    std::optional<RawResponse> next(bool headOnly = false)
    {
        RawResponse response;
        bool got = false;
        (void)QTest::qWaitFor(
            [&] {
                got = takeResponse(data, response, headOnly);
                return got || (closed && !socket.bytesAvailable());
            },
            scaled(5000));
        if (!got)
            got = takeResponse(data, response, headOnly);
        return got ? std::optional(response) : std::nullopt;
    }
    bool waitClosed()
    {
        return QTest::qWaitFor([this] { return closed; }, scaled(5000));
    }

    QTcpSocket socket;
    QByteArray data;
    bool closed = false;
};

} // namespace

class tst_HttpServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void servesSimpleGet();
    void rejectsBadRequests_data();
    void rejectsBadRequests();
    void answers100ContinueForAcceptableBody();
    void refuses100ContinueForOversizedBody();
    void answersOversizedStreamedBodyEarly();
    void headHasNoBody();
    void keepsAliveSequentialRequests();
    void answersPipelinedRequestsInOrder();
    void stopsParsingWhileClientDoesNotRead();
    void countsAnswersHeldBehindAnEarlierOne();
    void closesOnConnectionClose();
    void closesHttp10UnlessKeepAlive();
    void parsesRequestSplitByteByByte();
    void toleratesBareLineFeeds();
    void answersDeferredResponderLater();
    void holdsPipelinedRequestWhileDeferred();
    void pipelinesDeferredRequestsInOrder();
    void capsPipelinedRequests();
    void refusesMalformedRequestAfterPendingOnes();
    void marksResponderClosedOnClientDisconnect();
    void answers500WhenResponderDropped();
    void answers500WhenHandlerThrows();
    void refusesConnectionsOverCap();
    void closesIdleConnections();
    void keepsConnectionWithDeferredAnswer();
    void answers408WhenRequestIncomplete();
    void closeNotifiesPendingResponders();
    void reportsPortInUse();
    void parsesQueryItems_data();
    void parsesQueryItems();

private:
    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<HttpServer> m_server;
    quint16 m_port = 0;
};

void tst_HttpServer::init()
{
    m_handler = std::make_unique<TestHandler>();
    m_server = std::make_unique<HttpServer>(m_handler.get());
    const auto result = m_server->listen(QHostAddress::LocalHost, 0);
    if (!result)
        QFAIL(qPrintable(result.error().message));
    m_port = m_server->serverPort();
    QVERIFY(m_port != 0);
}

void tst_HttpServer::cleanup()
{
    m_server.reset();
    m_handler.reset();
}

void tst_HttpServer::servesSimpleGet()
{
    RawClient client(m_port);
    client.send("GET /echo?a=1 HTTP/1.1\r\nHost: x\r\nX-Test:  spaced value \r\n\r\n");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, 200);
    QCOMPARE(response->body, QByteArray("GET /echo?a=1 x-test=spaced value body="));
    QCOMPARE(response->header("content-type"), QByteArray("text/plain; charset=utf-8"));
    QCOMPARE(response->header("connection"), QByteArray());
    QCOMPARE(m_handler->requests.size(), 1);
    QCOMPARE(m_handler->requests[0].peerAddress, QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(m_handler->requests[0].header("host"), QByteArray("x"));
    QCOMPARE(m_server->connectionCount(), 1);
}

void tst_HttpServer::rejectsBadRequests_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");

    const QByteArray malformed = R"({"error":"Malformed HTTP request"})";
    QTest::newRow("garbage request line") << QByteArray("GARBAGE\r\n\r\n") << 400 << malformed;
    QTest::newRow("no version") << QByteArray("GET /\r\n\r\n") << 400 << malformed;
    QTest::newRow("unknown version") << QByteArray("GET / HTTP/2.0\r\n\r\n") << 400 << malformed;
    QTest::newRow("double space") << QByteArray("GET  / HTTP/1.1\r\n\r\n") << 400 << malformed;
    QTest::newRow("relative target") << QByteArray("GET echo HTTP/1.1\r\n\r\n") << 400 << malformed;
    QTest::newRow("bad method char") << QByteArray("G(T / HTTP/1.1\r\n\r\n") << 400 << malformed;
    QTest::newRow("header without colon") << QByteArray("GET / HTTP/1.1\r\nHost\r\n\r\n") << 400 << malformed;
    QTest::newRow("space before colon")
        << QByteArray("GET / HTTP/1.1\r\nHost : x\r\n\r\n") << 400 << malformed;
    QTest::newRow("obsolete folding")
        << QByteArray("GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n") << 400 << malformed;
    QTest::newRow("control char in value") << QByteArray("GET / HTTP/1.1\r\nA: b\x01"
                                                         "c\r\n\r\n")
                                           << 400 << malformed;
    QTest::newRow("content-length letters")
        << QByteArray("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n") << 400 << malformed;
    QTest::newRow("content-length negative")
        << QByteArray("POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n") << 400 << malformed;
    QTest::newRow("content-length empty")
        << QByteArray("POST / HTTP/1.1\r\nContent-Length:\r\n\r\n") << 400 << malformed;
    QTest::newRow("content-length conflict")
        << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab") << 400
        << malformed;
    QTest::newRow("content-length huge")
        << QByteArray("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n") << 400 << malformed;
    QTest::newRow("chunked")
        << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n") << 411
        << QByteArray(R"({"error":"Length Required"})");
    QTest::newRow("header too large") << ("GET / HTTP/1.1\r\nX-Big: " + QByteArray(20000, 'a') + "\r\n\r\n")
                                      << 431 << QByteArray(R"({"error":"Request header too large"})");
    QTest::newRow("header never ends") << ("GET / HTTP/1.1\r\nX-Big: " + QByteArray(20000, 'a')) << 431
                                       << QByteArray(R"({"error":"Request header too large"})");
    QTest::newRow("body too large, headers only")
        << QByteArray("POST /echo HTTP/1.1\r\nContent-Length: 314572800\r\n\r\n") << 413 << kTooLarge;
    QTest::newRow("body one byte too large")
        << QByteArray("POST /echo HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n") << 413 << kTooLarge;
}

void tst_HttpServer::rejectsBadRequests()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QByteArray, body);

    RawClient client(m_port);
    client.send(request);
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, status);
    QCOMPARE(response->body, body);
    QCOMPARE(response->header("content-type"), QByteArray("application/json"));
    QCOMPARE(response->header("content-length"), QByteArray::number(body.size()));
    QCOMPARE(response->header("connection"), QByteArray("close"));
    QVERIFY(client.waitClosed());
    QVERIFY(m_handler->requests.isEmpty());
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void tst_HttpServer::answers100ContinueForAcceptableBody()
{
    RawClient client(m_port);
    client.send("POST /echo HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
    const auto interim = client.next();
    QVERIFY(interim);
    QCOMPARE(interim->status, 100);
    QVERIFY(m_handler->requests.isEmpty());
    client.send("hello");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, 200);
    QCOMPARE(response->body, QByteArray("POST /echo? x-test= body=hello"));
}

void tst_HttpServer::refuses100ContinueForOversizedBody()
{
    RawClient client(m_port);
    client.send("POST /echo HTTP/1.1\r\nContent-Length: 2000000\r\nExpect: 100-continue\r\n\r\n");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, 413); // and no 100 before it
    QVERIFY(client.waitClosed());
}

void tst_HttpServer::answersOversizedStreamedBodyEarly()
{
    // The client declares 300 MB and keeps streaming it; the 413 must arrive long before the
    // body could have been sent, so the server neither waited for nor buffered it.
    constexpr qint64 declared = 300LL * 1024 * 1024;
    const QByteArray chunk(64 * 1024, 'x');
    RawClient client(m_port);
    QVERIFY(client.waitConnected());
    qint64 sent = 0;
    bool stop = false;
    QObject::connect(&client.socket, &QTcpSocket::bytesWritten, &client.socket, [&] {
        if (stop || sent >= declared || client.socket.bytesToWrite() > 0)
            return;
        client.socket.write(chunk);
        sent += chunk.size();
    });
    client.send("POST /echo HTTP/1.1\r\nContent-Length: " + QByteArray::number(declared) + "\r\n\r\n");
    client.socket.write(chunk);
    sent += chunk.size();

    const auto response = client.next();
    stop = true;
    QVERIFY(response);
    QCOMPARE(response->status, 413);
    QCOMPARE(response->body, kTooLarge);
    QVERIFY2(sent < declared, qPrintable(QString::number(sent)));
    QVERIFY(m_handler->requests.isEmpty());
    client.socket.abort();
}

void tst_HttpServer::headHasNoBody()
{
    RawClient client(m_port);
    client.send("HEAD /echo HTTP/1.1\r\n\r\n");
    const auto head = client.next(true);
    QVERIFY(head);
    QCOMPARE(head->status, 200);
    QCOMPARE(head->header("content-length"),
             QByteArray::number(QByteArray("HEAD /echo? x-test= body=").size()));
    // If a body had been sent, it would be parsed as the start of the next response.
    client.send("GET /echo HTTP/1.1\r\n\r\n");
    const auto get = client.next();
    QVERIFY(get);
    QCOMPARE(get->status, 200);
    QCOMPARE(get->body, QByteArray("GET /echo? x-test= body="));
    QVERIFY(client.data.isEmpty());
}

void tst_HttpServer::keepsAliveSequentialRequests()
{
    RawClient client(m_port);
    for (int i = 0; i < 2; ++i) {
        client.send("POST /echo HTTP/1.1\r\nContent-Length: 1\r\n\r\n" + QByteArray::number(i));
        const auto response = client.next();
        QVERIFY(response);
        QCOMPARE(response->body, "POST /echo? x-test= body=" + QByteArray::number(i));
        QVERIFY(!client.closed);
    }
    QCOMPARE(m_server->connectionCount(), 1);
    QCOMPARE(m_handler->requests.size(), 2);
}

void tst_HttpServer::answersPipelinedRequestsInOrder()
{
    RawClient client(m_port);
    client.send("POST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\nonePOST /echo HTTP/1.1\r\nContent-Length: "
                "3\r\n\r\ntwo"
                "GET /echo?3 HTTP/1.1\r\n\r\n");
    for (const QByteArray &expected :
         {QByteArray("POST /echo? x-test= body=one"), QByteArray("POST /echo? x-test= body=two"),
          QByteArray("GET /echo?3 x-test= body=")}) {
        const auto response = client.next();
        QVERIFY(response);
        QCOMPARE(response->body, expected);
    }
    QVERIFY(!client.closed);
}

void tst_HttpServer::stopsParsingWhileClientDoesNotRead()
{
    // 400 pipelined requests whose answers (50 MB) the client does not read: the server must
    // stop taking requests instead of queueing every answer in memory, and go on once the
    // client reads.
    constexpr int count = 400;
    QTcpSocket client;
    client.setReadBufferSize(16 * 1024);
    client.connectToHost(QHostAddress::LocalHost, m_port);
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), QAbstractSocket::ConnectedState, scaled(5000));
    QByteArray requests;
    for (int i = 0; i < count; ++i)
        requests += "GET /big HTTP/1.1\r\n\r\n";
    client.write(requests);
    client.flush();
    QTRY_VERIFY_WITH_TIMEOUT(m_handler->requests.size() > 0, scaled(5000));
    QTest::qWait(300); // give an unbounded server the time to take them all
    QVERIFY2(m_handler->requests.size() < count, qPrintable(QString::number(m_handler->requests.size())));

    QByteArray received;
    client.setReadBufferSize(0); // now read as fast as the server sends
    QObject::connect(&client, &QTcpSocket::readyRead, &client, [&] { received += client.readAll(); });
    int answers = 0;
    RawResponse response;
    QVERIFY(QTest::qWaitFor(
        [&] {
            received += client.readAll();
            while (takeResponse(received, response, false)) {
                if (response.status != 200 || response.body.size() != 128 * 1024)
                    return true;
                ++answers;
            }
            return answers == count;
        },
        scaled(30000)));
    QCOMPARE(answers, count);
    QCOMPARE(m_handler->requests.size(), count);
}

void tst_HttpServer::countsAnswersHeldBehindAnEarlierOne()
{
    // A long-poll pipelined before 63 requests with 128 KiB answers: those answers wait in
    // the connection for the first one. They count against the connection's 1 MiB budget,
    // so the server stops taking its requests instead of holding 8 MB (issue 7 §1.4).
    HttpServer::Limits limits;
    limits.maxPipelinedRequests = 64;
    m_server->setLimits(limits);
    RawClient client(m_port);
    QByteArray requests = "GET /defer HTTP/1.1\r\n\r\n";
    for (int i = 0; i < 63; ++i)
        requests += "GET /big HTTP/1.1\r\n\r\n";
    client.send(requests);
    QTRY_VERIFY_WITH_TIMEOUT(m_handler->requests.size() > 1, scaled(5000));
    QTest::qWait(300); // give an unbounded server the time to take them all
    QVERIFY2(m_handler->requests.size() <= 1 + 9, qPrintable(QString::number(m_handler->requests.size())));
    QVERIFY(client.data.isEmpty()); // still in request order

    m_handler->deferred.takeFirst()->respond(Response::json(200, "{}"));
    QVERIFY(client.next());
    for (int i = 0; i < 63; ++i) {
        const auto response = client.next();
        QVERIFY(response);
        QCOMPARE(response->body.size(), 128 * 1024);
    }
    QCOMPARE(m_handler->requests.size(), 64);
}

void tst_HttpServer::closesOnConnectionClose()
{
    RawClient client(m_port);
    client.send("GET /echo HTTP/1.1\r\nConnection: close\r\n\r\nGET /echo HTTP/1.1\r\n\r\n");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, 200);
    QCOMPARE(response->header("connection"), QByteArray("close"));
    QVERIFY(client.waitClosed());
    QCOMPARE(m_handler->requests.size(), 1); // the pipelined second request is not served
    QVERIFY(client.data.isEmpty());
}

void tst_HttpServer::closesHttp10UnlessKeepAlive()
{
    {
        RawClient client(m_port);
        client.send("GET /echo HTTP/1.0\r\n\r\n");
        const auto response = client.next();
        QVERIFY(response);
        QCOMPARE(response->status, 200);
        QCOMPARE(response->header("connection"), QByteArray("close"));
        QVERIFY(client.waitClosed());
    }
    RawClient client(m_port);
    client.send("GET /echo HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->header("connection"), QByteArray("keep-alive"));
    client.send("GET /echo HTTP/1.0\r\n\r\n");
    QVERIFY(client.next());
    QVERIFY(client.waitClosed());
}

void tst_HttpServer::parsesRequestSplitByteByByte()
{
    RawClient client(m_port);
    QVERIFY(client.waitConnected());
    const QByteArray request =
        "POST /echo?q=1 HTTP/1.1\r\nX-Test: split\r\nContent-Length: 11\r\n\r\nhello world";
    for (qsizetype i = 0; i + 1 < request.size(); ++i) {
        client.send(request.mid(i, 1));
        QCoreApplication::processEvents(); // the server reads this byte on its own
        QCOMPARE(m_handler->requests.size(), 0);
    }
    client.send(request.right(1));
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->body, QByteArray("POST /echo?q=1 x-test=split body=hello world"));
}

void tst_HttpServer::toleratesBareLineFeeds()
{
    RawClient client(m_port);
    client.send("\r\nPOST /echo HTTP/1.1\nContent-Length: 2\n\nok");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->body, QByteArray("POST /echo? x-test= body=ok"));
}

void tst_HttpServer::answersDeferredResponderLater()
{
    RawClient client(m_port);
    client.send("POST /defer HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->deferred.size(), 1, scaled(5000));
    const ResponderPtr responder = m_handler->deferred.takeFirst();
    QVERIFY(responder->isOpen());
    QVERIFY(client.data.isEmpty());
    responder->respond(Response::json(200, R"({"messages":[]})"));
    QVERIFY(!responder->isOpen());
    responder->respond(Response::json(500, "{}")); // a second answer is ignored
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->body, QByteArray(R"({"messages":[]})"));
    client.send("GET /echo HTTP/1.1\r\n\r\n");
    const auto second = client.next();
    QVERIFY(second);
    QCOMPARE(second->status, 200);
}

void tst_HttpServer::holdsPipelinedRequestWhileDeferred()
{
    RawClient client(m_port);
    client.send("GET /defer HTTP/1.1\r\n\r\nGET /echo HTTP/1.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->deferred.size(), 1, scaled(5000));
    QCoreApplication::processEvents();
    QCOMPARE(m_handler->requests.size(), 1); // /echo waits for /defer's answer
    m_handler->deferred.takeFirst()->respond(Response::json(202, "{}"));
    const auto first = client.next();
    QVERIFY(first);
    QCOMPARE(first->status, 202);
    const auto second = client.next();
    QVERIFY(second);
    QCOMPARE(second->body, QByteArray("GET /echo? x-test= body="));
}

void tst_HttpServer::pipelinesDeferredRequestsInOrder()
{
    HttpServer::Limits limits;
    limits.maxPipelinedRequests = 4;
    m_server->setLimits(limits);

    RawClient client(m_port);
    client.send("GET /defer?1 HTTP/1.1\r\n\r\nGET /echo HTTP/1.1\r\n\r\nGET /defer?2 HTTP/1.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->requests.size(), 3, scaled(5000)); // all three handed over
    QCOMPARE(m_handler->deferred.size(), 2);
    m_handler->deferred[1]->respond(Response::json(200, R"({"n":2})"));
    QCoreApplication::processEvents();
    QVERIFY(client.data.isEmpty()); // answers go out in request order
    m_handler->deferred[0]->respond(Response::json(200, R"({"n":1})"));
    for (const QByteArray &expected :
         {QByteArray(R"({"n":1})"), QByteArray("GET /echo? x-test= body="), QByteArray(R"({"n":2})")}) {
        const auto response = client.next();
        QVERIFY(response);
        QCOMPARE(response->body, expected);
    }
    QVERIFY(!client.closed);
}

void tst_HttpServer::capsPipelinedRequests()
{
    HttpServer::Limits limits;
    limits.maxPipelinedRequests = 2;
    m_server->setLimits(limits);

    RawClient client(m_port);
    client.send("GET /defer HTTP/1.1\r\n\r\nGET /defer HTTP/1.1\r\n\r\nGET /defer HTTP/1.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->deferred.size(), 2, scaled(5000));
    QCoreApplication::processEvents();
    QCOMPARE(m_handler->requests.size(), 2);
    m_handler->deferred.takeFirst()->respond(Response::json(200, "{}"));
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->requests.size(), 3, scaled(5000));
    QVERIFY(client.next());
    while (!m_handler->deferred.isEmpty())
        m_handler->deferred.takeFirst()->respond(Response::json(200, "{}"));
    QVERIFY(client.next());
    QVERIFY(client.next());
}

void tst_HttpServer::refusesMalformedRequestAfterPendingOnes()
{
    HttpServer::Limits limits;
    limits.maxPipelinedRequests = 4;
    m_server->setLimits(limits);

    RawClient client(m_port);
    client.send("GET /defer HTTP/1.1\r\n\r\nGARBAGE\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->deferred.size(), 1, scaled(5000));
    QCoreApplication::processEvents();
    QVERIFY(client.data.isEmpty()); // the 400 waits for the earlier answer
    m_handler->deferred.takeFirst()->respond(Response::json(200, "{}"));
    const auto first = client.next();
    QVERIFY(first);
    QCOMPARE(first->status, 200);
    const auto second = client.next();
    QVERIFY(second);
    QCOMPARE(second->status, 400);
    QVERIFY(client.waitClosed());
}

void tst_HttpServer::marksResponderClosedOnClientDisconnect()
{
    RawClient client(m_port);
    client.send("GET /defer HTTP/1.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->deferred.size(), 1, scaled(5000));
    const ResponderPtr responder = m_handler->deferred.takeFirst();
    int closedCalls = 0;
    responder->setOnClosed([&] { ++closedCalls; });
    client.socket.abort();
    QTRY_COMPARE_WITH_TIMEOUT(closedCalls, 1, scaled(5000));
    QVERIFY(!responder->isOpen());
    responder->respond(Response::json(200, "{}")); // no-op, no crash
    QTRY_COMPARE(m_server->connectionCount(), 0);
    QCOMPARE(closedCalls, 1);
}

void tst_HttpServer::answers500WhenResponderDropped()
{
    RawClient client(m_port);
    client.send("GET /drop HTTP/1.1\r\n\r\n");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, 500);
    QVERIFY(!client.closed);
}

void tst_HttpServer::answers500WhenHandlerThrows()
{
    RawClient client(m_port);
    client.send("GET /throw HTTP/1.1\r\n\r\n");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, 500);
    QCOMPARE(response->body, QByteArray(R"({"error":"Internal error"})"));
}

void tst_HttpServer::refusesConnectionsOverCap()
{
    HttpServer::Limits limits;
    limits.maxConnections = 2;
    m_server->setLimits(limits);

    auto first = std::make_unique<RawClient>(m_port);
    RawClient second(m_port);
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), 2, scaled(5000));

    RawClient third(m_port);
    third.send("GET /echo HTTP/1.1\r\n\r\n");
    const auto refused = third.next();
    QVERIFY(refused);
    QCOMPARE(refused->status, 503);
    QCOMPARE(refused->body, QByteArray(R"({"error":"Too many connections"})"));
    QVERIFY(third.waitClosed());
    QCOMPARE(m_server->connectionCount(), 2);

    second.send("GET /echo HTTP/1.1\r\n\r\n");
    QVERIFY(second.next());

    first.reset();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionCount(), 1, scaled(5000));
    RawClient fourth(m_port);
    fourth.send("GET /echo HTTP/1.1\r\n\r\n");
    const auto served = fourth.next();
    QVERIFY(served);
    QCOMPARE(served->status, 200);
}

void tst_HttpServer::closesIdleConnections()
{
    HttpServer::Limits limits;
    limits.idleTimeoutMs = 150;
    m_server->setLimits(limits);

    RawClient client(m_port);
    client.send("GET /echo HTTP/1.1\r\n\r\n");
    QVERIFY(client.next());
    QVERIFY(client.waitClosed());
    QTRY_COMPARE(m_server->connectionCount(), 0);
}

void tst_HttpServer::keepsConnectionWithDeferredAnswer()
{
    HttpServer::Limits limits;
    limits.idleTimeoutMs = 150;
    m_server->setLimits(limits);

    RawClient waiting(m_port);
    waiting.send("GET /defer HTTP/1.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->deferred.size(), 1, scaled(5000));
    // An idle connection opened after the wait serves as the clock: once it is closed, the
    // waiting connection has been quiet for longer than the idle timeout too.
    RawClient idle(m_port);
    QVERIFY(idle.waitConnected());
    QVERIFY(idle.waitClosed());
    QVERIFY(!waiting.closed);
    QVERIFY(m_handler->deferred.first()->isOpen());
    m_handler->deferred.takeFirst()->respond(Response::json(200, "{}"));
    const auto response = waiting.next();
    QVERIFY(response);
    QCOMPARE(response->status, 200);
}

void tst_HttpServer::answers408WhenRequestIncomplete()
{
    HttpServer::Limits limits;
    limits.requestTimeoutMs = 200;
    m_server->setLimits(limits);

    RawClient client(m_port);
    client.send("POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc");
    const auto response = client.next();
    QVERIFY(response);
    QCOMPARE(response->status, 408);
    QCOMPARE(response->header("connection"), QByteArray("close"));
    QVERIFY(client.waitClosed());
    QVERIFY(m_handler->requests.isEmpty());
}

void tst_HttpServer::closeNotifiesPendingResponders()
{
    RawClient client(m_port);
    client.send("GET /defer HTTP/1.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(m_handler->deferred.size(), 1, scaled(5000));
    const ResponderPtr responder = m_handler->deferred.takeFirst();
    bool closed = false;
    responder->setOnClosed([&] { closed = true; });
    m_server->close();
    QVERIFY(closed);
    QVERIFY(!responder->isOpen());
    QVERIFY(!m_server->isListening());
    QCOMPARE(m_server->connectionCount(), 0);
    QVERIFY(client.waitClosed());
    QTcpSocket late;
    late.connectToHost(QHostAddress::LocalHost, m_port);
    QTRY_COMPARE_WITH_TIMEOUT(late.error(), QAbstractSocket::ConnectionRefusedError, scaled(5000));
}

void tst_HttpServer::reportsPortInUse()
{
    HttpServer other(m_handler.get());
    const auto result = other.listen(QHostAddress::LocalHost, m_port);
    QVERIFY(!result);
    QCOMPARE(result.error().kind, Broker::ErrorKind::PortInUse);
    QVERIFY2(result.error().message.startsWith(
                 QStringLiteral("Port %1 is already in use on 127.0.0.1").arg(m_port)),
             qPrintable(result.error().message));
}

void tst_HttpServer::parsesQueryItems_data()
{
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("isNull");
    QTest::newRow("simple") << QByteArray("a=1&b=2") << QByteArray("b") << QByteArray("2") << false;
    QTest::newRow("first wins") << QByteArray("a=1&a=2") << QByteArray("a") << QByteArray("1") << false;
    QTest::newRow("decoded") << QByteArray("q=hello+big%20world") << QByteArray("q")
                             << QByteArray("hello big world") << false;
    QTest::newRow("encoded name") << QByteArray("my%20key=v") << QByteArray("my key") << QByteArray("v")
                                  << false;
    QTest::newRow("no value") << QByteArray("flag&x=1") << QByteArray("flag") << QByteArray("") << false;
    QTest::newRow("missing") << QByteArray("a=1") << QByteArray("b") << QByteArray() << true;
    QTest::newRow("empty query") << QByteArray() << QByteArray("a") << QByteArray() << true;
}

void tst_HttpServer::parsesQueryItems()
{
    QFETCH(QByteArray, query);
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, value);
    QFETCH(bool, isNull);
    Request request;
    request.query = query;
    const QByteArray item = request.queryItem(name);
    QCOMPARE(item, value);
    QCOMPARE(item.isNull(), isNull);
}

QTEST_GUILESS_MAIN(tst_HttpServer)
#include "tst_httpserver.moc"
