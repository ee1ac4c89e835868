#include "federation/certificate.h"
#include "federation/certificatepin.h"
#include "federation/pinnedtlsclient.h"
#include "federation/tlsserver.h"
#include "tests/federation/tlstestsupport.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QSslServer>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <optional>

#include <sys/resource.h>

using namespace Federation;
using Broker::Http::Request;
using Broker::Http::RequestHandler;
using Broker::Http::ResponderPtr;
using Broker::Http::Response;
using TestSupport::scaled;
using TlsTestSupport::makeIdentity;

namespace {

class TestHandler : public RequestHandler
{
public:
    void handle(const Request &request, const ResponderPtr &responder) override
    {
        requests.append(request);
        if (request.path == "/big") {
            responder->respond(Response::text(200, QByteArray(2 * 1024 * 1024, 'b')));
        } else if (request.path == "/forbidden") {
            responder->respond(Response::json(
                403,
                QByteArray(
                    R"({"error":"PSK mismatch — ensure both machines share the same ~/.claude-peers-token file"})")));
        } else if (request.path == "/never") {
            held.append(responder);
        } else {
            responder->respond(Response::json(200,
                                              "{\"psk\":\"" + request.header("x-claude-peers-psk") +
                                                  "\",\"body\":" + request.body + "}"));
        }
    }
    QList<Request> requests;
    QList<ResponderPtr> held;
};

// A TLS server that records every decrypted byte a client sends: proves what never arrived.
class RecordingTlsServer : public QObject
{
public:
    explicit RecordingTlsServer(const TlsIdentity &identity)
    {
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.setLocalCertificate(identity.certificate);
        configuration.setPrivateKey(identity.privateKey);
        configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_server.setSslConfiguration(configuration);
        connect(&m_server, &QSslServer::startedEncryptionHandshake, this, [this](QSslSocket *socket) {
            ++handshakes;
            connect(socket, &QSslSocket::readyRead, this, [this, socket] { received += socket->readAll(); });
            connect(socket, &QSslSocket::disconnected, this, [this] { ++closed; });
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_server.serverPort(); }

    QByteArray received;
    int handshakes = 0;
    int closed = 0;

private:
    QSslServer m_server;
};

struct Outcome
{
    std::optional<TlsRequestResult> result;
    int calls = 0;
};

PinnedTlsClient::Callback recordInto(Outcome &outcome)
{
    return [&outcome](const TlsRequestResult &result) {
        outcome.result = result;
        ++outcome.calls;
    };
}

TlsRequest requestTo(quint16 port, const QString &pin, const QByteArray &path = "/federation/relay")
{
    TlsRequest request;
    request.host = QStringLiteral("127.0.0.1");
    request.port = port;
    request.path = path;
    request.expectedPin = pin;
    request.headers = {{"X-Claude-Peers-PSK", "secret-psk"}};
    request.body = R"({"text":"hello"})";
    request.timeoutMs = scaled(5000);
    return request;
}

qint64 cpuMicros()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return qint64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000 + usage.ru_utime.tv_usec +
        usage.ru_stime.tv_usec;
}

QString describe(const Outcome &outcome)
{
    if (!outcome.result)
        return QStringLiteral("no result");
    if (*outcome.result)
        return QStringLiteral("status %1").arg(outcome.result->value().status);
    return tlsRequestErrorKindName(outcome.result->error().kind) + QStringLiteral(": ") +
        outcome.result->error().message;
}

// Sends on the client and waits for the one answer (none in the outcome after 10 s).
Outcome sendAndWait(PinnedTlsClient &client, const TlsRequest &request)
{
    Outcome outcome;
    client.send(request, recordInto(outcome));
    if (!QTest::qWaitFor([&] { return outcome.result.has_value(); }, scaled(10000)))
        qWarning("no answer within 10 s");
    return outcome;
}

TlsRequest keptRequestTo(quint16 port, const QString &pin)
{
    TlsRequest request = requestTo(port, pin);
    request.keepAlive = true;
    return request;
}

} // namespace

class tst_PinnedTlsClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_identity = makeIdentity(m_dir, QStringLiteral("server"));
        m_other = makeIdentity(m_dir, QStringLiteral("other"));
    }

    void pinnedRequestSucceeds_data()
    {
        QTest::addColumn<KeyType>("keyType");
        QTest::newRow("ecdsa p-256") << KeyType::EcdsaP256;
        QTest::newRow("rsa-2048") << KeyType::Rsa2048;
        QTest::newRow("ed25519") << KeyType::Ed25519;
    }

    void pinnedRequestSucceeds()
    {
        QFETCH(KeyType, keyType);
        GenerateOptions options;
        options.keyType = keyType;
        QTemporaryDir dir;
        const TlsIdentity identity = makeIdentity(dir, QStringLiteral("k"), options);
        TestHandler handler;
        TlsHttpServer server(&handler, identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(server.serverPort(), identity.pin), recordInto(outcome));
        QCOMPARE(outcome.calls, 0); // never from inside send()
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY2(*outcome.result, qPrintable(describe(outcome)));
        const TlsResponse &response = outcome.result->value();
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray(R"({"psk":"secret-psk","body":{"text":"hello"}})"));
        QCOMPARE(response.peerPin, identity.pin);
        QCOMPARE(response.header("content-type"), QByteArray("application/json"));
        QCOMPARE(handler.requests.size(), 1);
        QCOMPARE(handler.requests.first().header("content-type"), QByteArray("application/json"));
        QCOMPARE(client.pendingCount(), 0);
    }

    void wrongPinSendsNothing()
    {
        RecordingTlsServer server(m_identity);
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(server.port(), m_other.pin), recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        const TlsRequestError &error = outcome.result->error();
        QCOMPARE(error.kind, TlsRequestErrorKind::PinMismatch);
        QCOMPARE(error.seenPin, m_identity.pin);
        QVERIFY2(error.message.contains(m_identity.pin) && error.message.contains(m_other.pin),
                 qPrintable(error.message));
        // The server saw the handshake and then the connection closing, and not one byte.
        QTRY_COMPARE_WITH_TIMEOUT(server.closed, 1, scaled(10000));
        QCOMPARE(server.handshakes, 1);
        QCOMPARE(server.received, QByteArray());
    }

    void changedCertificateOnPinnedAddressIsRefused()
    {
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        server.setIdentity(m_other); // the same address now shows another key
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(server.serverPort(), m_identity.pin), recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::PinMismatch);
        QCOMPARE(outcome.result->error().seenPin, m_other.pin);
        QCOMPARE(handler.requests.size(), 0);
    }

    void expiredCertificateIsRefusedEvenWithMatchingPin()
    {
        QTemporaryDir dir;
        GenerateOptions expired;
        expired.validityDays = -1;
        const TlsIdentity identity = makeIdentity(dir, QStringLiteral("expired"), expired);
        TestHandler handler;
        TlsHttpServer server(&handler, identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(server.serverPort(), identity.pin), recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::Tls);
        QVERIFY2(outcome.result->error().message.contains(QStringLiteral("expired")),
                 qPrintable(outcome.result->error().message));
        QCOMPARE(handler.requests.size(), 0);
    }

    void trustOnFirstUseDecidesBeforeSending()
    {
        RecordingTlsServer server(m_identity);
        PinnedTlsClient client;
        QString offered;
        TlsRequest request = requestTo(server.port(), QString());
        request.acceptPin = [&offered](const QString &pin, const QSslCertificate &certificate) {
            offered = pin;
            return !certificate.isNull() && false; // the user has not confirmed yet
        };
        Outcome outcome;
        client.send(request, recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::PinMismatch);
        QCOMPARE(offered, m_identity.pin);
        QTRY_COMPARE_WITH_TIMEOUT(server.closed, 1, scaled(10000));
        QCOMPARE(server.received, QByteArray());

        TestHandler handler;
        TlsHttpServer httpServer(&handler, m_identity);
        QVERIFY(httpServer.listen(QHostAddress::LocalHost, 0));
        TlsRequest health = requestTo(httpServer.serverPort(), QString(), "/health");
        health.headers.clear();
        health.acceptPin = [](const QString &, const QSslCertificate &) { return true; };
        Outcome accepted;
        client.send(health, recordInto(accepted));
        QTRY_VERIFY_WITH_TIMEOUT(accepted.result.has_value(), scaled(10000));
        QVERIFY2(*accepted.result, qPrintable(describe(accepted)));
        QCOMPARE(accepted.result->value().peerPin, m_identity.pin);
    }

    void requestWithoutAnyPinDecisionIsNotSent()
    {
        RecordingTlsServer server(m_identity);
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(server.port(), QString()), recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::InvalidRequest);
        QCOMPARE(server.handshakes, 0);
    }

    void probeReportsPinAndSendsNothing()
    {
        RecordingTlsServer server(m_identity);
        PinnedTlsClient client;
        Outcome outcome;
        client.probe(QStringLiteral("127.0.0.1"), server.port(), recordInto(outcome), scaled(5000));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY2(*outcome.result, qPrintable(describe(outcome)));
        QCOMPARE(outcome.result->value().peerPin, m_identity.pin);
        QCOMPARE(outcome.result->value().peerCertificate, m_identity.certificate);
        QTRY_COMPARE_WITH_TIMEOUT(server.closed, 1, scaled(10000));
        QCOMPARE(server.received, QByteArray());
    }

    void httpErrorStatusCarriesBody()
    {
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(server.serverPort(), m_identity.pin, "/forbidden"), recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        const TlsRequestError &error = outcome.result->error();
        QCOMPARE(error.kind, TlsRequestErrorKind::HttpStatus);
        QCOMPARE(error.httpStatus, 403);
        QVERIFY(error.body.contains("PSK mismatch"));
        QVERIFY2(error.message.contains(QStringLiteral("PSK mismatch — ensure")), qPrintable(error.message));
    }

    void oversizedAnswerIsRefused()
    {
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        Outcome outcome;
        TlsRequest request = requestTo(server.serverPort(), m_identity.pin, "/big");
        request.maxResponseBytes = 1024 * 1024;
        client.send(request, recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::TooLarge);
    }

    void nothingListeningIsUnreachable()
    {
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(TestSupport::freePort(), m_identity.pin), recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::Unreachable);
    }

    void silentServerTimesOut_data()
    {
        QTest::addColumn<bool>("tlsAnswers");
        QTest::addColumn<QString>("stage");
        QTest::newRow("no handshake") << false << QStringLiteral("TLS handshake");
        QTest::newRow("no answer") << true << QStringLiteral("waiting for the answer");
    }

    void silentServerTimesOut()
    {
        QFETCH(bool, tlsAnswers);
        QFETCH(QString, stage);
        QTcpServer silent; // accepts, then says nothing
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        Outcome outcome;
        TlsRequest request = tlsAnswers ? requestTo(server.serverPort(), m_identity.pin, "/never")
                                        : requestTo(silent.serverPort(), m_identity.pin);
        request.timeoutMs = scaled(500);
        QElapsedTimer clock;
        clock.start();
        client.send(request, recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::Timeout);
        QVERIFY2(outcome.result->error().message.contains(stage),
                 qPrintable(outcome.result->error().message));
        // Not before the deadline; its QTimer is a coarse one, which may fire up to 5% early.
        QVERIFY2(clock.elapsed() >= request.timeoutMs * 95 / 100 - 10,
                 qPrintable(QStringLiteral("%1 ms of %2").arg(clock.elapsed()).arg(request.timeoutMs)));
    }

    void plainTcpServerIsATlsError()
    {
        QTcpServer plain;
        QVERIFY(plain.listen(QHostAddress::LocalHost, 0));
        connect(&plain, &QTcpServer::newConnection, &plain, [&plain] {
            QTcpSocket *socket = plain.nextPendingConnection();
            socket->write("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
        });
        PinnedTlsClient client;
        Outcome outcome;
        client.send(requestTo(plain.serverPort(), m_identity.pin), recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QVERIFY(!*outcome.result);
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::Tls);
    }

    void headerInjectionIsRefusedUnsent()
    {
        RecordingTlsServer server(m_identity);
        PinnedTlsClient client;
        Outcome outcome;
        TlsRequest request = requestTo(server.port(), m_identity.pin);
        request.headers.append(qMakePair(QByteArray("X-Other"), QByteArray("a\r\nX-Injected: b")));
        client.send(request, recordInto(outcome));
        QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), scaled(10000));
        QCOMPARE(outcome.result->error().kind, TlsRequestErrorKind::InvalidRequest);
        QCOMPARE(server.handshakes, 0);
    }

    void cancelledRequestNeverCallsBack()
    {
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        Outcome cancelled;
        Outcome later;
        const auto id = client.send(requestTo(server.serverPort(), m_identity.pin), recordInto(cancelled));
        client.cancel(id);
        // A second request completing shows the loop ran long enough for the first to answer.
        client.send(requestTo(server.serverPort(), m_identity.pin), recordInto(later));
        QTRY_VERIFY_WITH_TIMEOUT(later.result.has_value(), scaled(10000));
        QCOMPARE(cancelled.calls, 0);
        QCOMPARE(client.pendingCount(), 0);
    }

    void callbackMayDeleteTheClient()
    {
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        auto *client = new PinnedTlsClient;
        bool called = false;
        client->send(requestTo(server.serverPort(), m_identity.pin), [&](const TlsRequestResult &result) {
            called = result.has_value();
            delete client;
        });
        QTRY_VERIFY_WITH_TIMEOUT(called, scaled(10000));
    }

    void keptConnectionCarriesTheNextRequest()
    {
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        for (int i = 0; i < 3; ++i) {
            const Outcome outcome = sendAndWait(client, keptRequestTo(server.serverPort(), m_identity.pin));
            QVERIFY2(outcome.result && *outcome.result, qPrintable(describe(outcome)));
            QCOMPARE(outcome.result->value().peerPin, m_identity.pin);
            QCOMPARE(client.idleConnectionCount(), 1);
        }
        QCOMPARE(handler.requests.size(), 3);
        QCOMPARE(server.connectionCount(), 1); // one handshake for the three
        QCOMPARE(handler.requests.last().header("connection"), QByteArray());

        // Without keepAlive: "Connection: close", nothing kept.
        PinnedTlsClient once;
        QVERIFY(sendAndWait(once, requestTo(server.serverPort(), m_identity.pin)).result.has_value());
        QCOMPARE(handler.requests.last().header("connection"), QByteArray("close"));
        QCOMPARE(once.idleConnectionCount(), 0);
    }

    void keptConnectionIsNotUsedForAnotherPin()
    {
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        QVERIFY(sendAndWait(client, keptRequestTo(server.serverPort(), m_identity.pin)).result.has_value());
        QCOMPARE(client.idleConnectionCount(), 1);
        // The address is now expected to show another key (re-paired): the kept connection, whose
        // handshake proved the old pin, does not count; a new handshake is checked and refused.
        const Outcome refused = sendAndWait(client, keptRequestTo(server.serverPort(), m_other.pin));
        QVERIFY(refused.result && !*refused.result);
        QCOMPARE(refused.result->error().kind, TlsRequestErrorKind::PinMismatch);
        QCOMPARE(handler.requests.size(), 1);
    }

    void keptConnectionClosedByTheServerIsDropped()
    {
        TestHandler handler;
        TlsServerOptions options;
        options.limits.idleTimeoutMs = 300;
        TlsHttpServer server(&handler, m_identity, options);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        const TlsRequest request = keptRequestTo(server.serverPort(), m_identity.pin);
        QVERIFY(sendAndWait(client, request).result.has_value());
        QCOMPARE(client.idleConnectionCount(), 1);
        // The server's idle timeout closes it; the client notices while idle.
        QTRY_COMPARE_WITH_TIMEOUT(client.idleConnectionCount(), 0, scaled(10000));
        const Outcome second = sendAndWait(client, request);
        QVERIFY2(second.result && *second.result, qPrintable(describe(second)));
        QCOMPARE(handler.requests.size(), 2);
    }

    void keptConnectionClosedUnderTheRequestIsRetriedFresh()
    {
        // Answers the first request of its first connection, then closes that connection when the
        // next request arrives on it (an idle timeout racing the client); later connections answer.
        QSslServer server;
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.setLocalCertificate(m_identity.certificate);
        configuration.setPrivateKey(m_identity.privateKey);
        configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
        server.setSslConfiguration(configuration);
        int connections = 0;
        int answered = 0;
        connect(&server, &QSslServer::startedEncryptionHandshake, this, [&](QSslSocket *socket) {
            const int index = connections++;
            auto requests = std::make_shared<int>(0);
            connect(socket, &QSslSocket::readyRead, this, [&, socket, index, requests] {
                const QByteArray bytes = socket->readAll();
                if (!bytes.contains("\r\n\r\n"))
                    return; // the test's requests arrive whole on loopback
                if (index == 0 && (*requests)++ > 0) {
                    socket->disconnectFromHost();
                    return;
                }
                ++answered;
                socket->write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            });
        });
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        const TlsRequest request = keptRequestTo(server.serverPort(), m_identity.pin);
        const Outcome first = sendAndWait(client, request);
        QVERIFY2(first.result && *first.result, qPrintable(describe(first)));
        QCOMPARE(client.idleConnectionCount(), 1);
        const Outcome second = sendAndWait(client, request);
        QVERIFY2(second.result && *second.result, qPrintable(describe(second)));
        QCOMPARE(connections, 2);
        QCOMPARE(answered, 2);
    }

    // Figures, not asserts: a fresh TLS connection per request on loopback, and a kept one.
    void roundTripFigures_data()
    {
        QTest::addColumn<bool>("handshakeOnly");
        QTest::addColumn<bool>("keepAlive");
        QTest::newRow("request") << false << false;
        QTest::newRow("handshake only (probe)") << true << false;
        QTest::newRow("request on a kept connection") << false << true;
    }

    void roundTripFigures()
    {
        QFETCH(bool, handshakeOnly);
        QFETCH(bool, keepAlive);
        TestHandler handler;
        TlsHttpServer server(&handler, m_identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        PinnedTlsClient client;
        constexpr int rounds = 50;
        QList<qint64> micros;
        const qint64 cpuBefore = cpuMicros();
        for (int i = 0; i < rounds; ++i) {
            // An event loop quit by the callback: QTRY_* polls in 50 ms steps, too coarse here.
            QEventLoop loop;
            QTimer::singleShot(scaled(10000), &loop, &QEventLoop::quit);
            Outcome outcome;
            const auto done = [&](const TlsRequestResult &result) {
                outcome.result = result;
                loop.quit();
            };
            QElapsedTimer clock;
            clock.start();
            if (handshakeOnly)
                client.probe(QStringLiteral("127.0.0.1"), server.serverPort(), done, scaled(10000));
            else {
                TlsRequest request = requestTo(server.serverPort(), m_identity.pin);
                request.keepAlive = keepAlive;
                client.send(request, done);
            }
            loop.exec();
            micros.append(clock.nsecsElapsed() / 1000);
            QVERIFY2(outcome.result && *outcome.result, qPrintable(describe(outcome)));
        }
        const qint64 cpuPerRound = (cpuMicros() - cpuBefore) / rounds;
        std::sort(micros.begin(), micros.end());
        qInfo("%s (ECDSA P-256, loopback): p50 %lld us, p90 %lld us, min %lld us; "
              "CPU of client + server (one process) %lld us each",
              handshakeOnly   ? "handshake, new TLS connection each"
                  : keepAlive ? "pinned request, one kept connection"
                              : "pinned request, new TLS connection each",
              micros.at(rounds / 2), micros.at(rounds * 9 / 10), micros.first(), cpuPerRound);
    }

private:
    QTemporaryDir m_dir;
    TlsIdentity m_identity;
    TlsIdentity m_other;
};

QTEST_GUILESS_MAIN(tst_PinnedTlsClient)
#include "tst_pinnedtlsclient.moc"
