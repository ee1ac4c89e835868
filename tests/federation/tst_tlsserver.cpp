#include "federation/certificate.h"
#include "federation/certificatepin.h"
#include "federation/tlsserver.h"
#include "tests/federation/tlstestsupport.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Federation;
using Broker::Http::Request;
using Broker::Http::RequestHandler;
using Broker::Http::ResponderPtr;
using Broker::Http::Response;
using TestSupport::scaled;
using TlsTestSupport::makeIdentity;

namespace {

class EchoHandler : public RequestHandler
{
public:
    void handle(const Request &request, const ResponderPtr &responder) override
    {
        requests.append(request);
        responder->respond(Response::json(
            200,
            "{\"path\":\"" + request.path + "\",\"peer\":\"" + request.peerAddress.toString().toLatin1() +
                "\",\"body\":" + (request.body.isEmpty() ? QByteArray("null") : request.body) + "}"));
    }
    QList<Request> requests;
};

// A TLS client written against QSslSocket alone (not our PinnedTlsClient), so the server is
// checked independently: accepts the server's certificate only when its SPKI pin is `pin`.
struct RawTlsClient
{
    QSslSocket socket;
    QString seenPin;
    QByteArray received;

    RawTlsClient(quint16 port, const QString &pin)
    {
        QObject::connect(&socket, &QSslSocket::sslErrors, &socket,
                         [this, pin](const QList<QSslError> &errors) {
                             seenPin = spkiPin(socket.peerCertificate());
                             if (pinsEqual(seenPin, pin))
                                 socket.ignoreSslErrors(errors);
                         });
        QObject::connect(&socket, &QSslSocket::readyRead, &socket, [this] { received += socket.readAll(); });
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
    }
    void post(const QByteArray &path, const QByteArray &body)
    {
        socket.write("POST " + path +
                     " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
                     QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    }
};

} // namespace

class tst_TlsServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void servesHttpsWithEachKeyType_data()
    {
        QTest::addColumn<KeyType>("keyType");
        QTest::newRow("ecdsa p-256") << KeyType::EcdsaP256;
        QTest::newRow("rsa-2048") << KeyType::Rsa2048;
        QTest::newRow("ed25519 (opaque QSslKey)") << KeyType::Ed25519;
    }

    void servesHttpsWithEachKeyType()
    {
        QFETCH(KeyType, keyType);
        QTemporaryDir dir;
        const TlsIdentity identity = makeIdentity(dir, keyType);
        EchoHandler handler;
        TlsHttpServer server(&handler, identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        RawTlsClient client(server.serverPort(), identity.pin);
        QSignalSpy encrypted(&client.socket, &QSslSocket::encrypted);
        QVERIFY(encrypted.wait(scaled(10000)));
        QCOMPARE(client.seenPin, identity.pin);
        client.post("/federation/relay", R"({"x":1})");
        QTRY_VERIFY_WITH_TIMEOUT(client.received.contains("\"body\":{\"x\":1}"), scaled(10000));
        QVERIFY(client.received.startsWith("HTTP/1.1 200"));
        QCOMPARE(handler.requests.size(), 1);
        QCOMPARE(handler.requests.first().peerAddress, QHostAddress(QHostAddress::LocalHost));
        QCOMPARE(handler.requests.first().path, QByteArray("/federation/relay"));
    }

    void dualStackListenerReportsMappedPeer()
    {
        QTemporaryDir dir;
        const TlsIdentity identity = makeIdentity(dir, KeyType::EcdsaP256);
        EchoHandler handler;
        TlsHttpServer server(&handler, identity);
        QVERIFY(server.listen(QHostAddress::Any, 0));
        RawTlsClient client(server.serverPort(), identity.pin);
        QSignalSpy encrypted(&client.socket, &QSslSocket::encrypted);
        QVERIFY(encrypted.wait(scaled(10000)));
        client.post("/health", {});
        QTRY_COMPARE_WITH_TIMEOUT(handler.requests.size(), 1, scaled(10000));
        // What the subnet filter gets on a dual-stack listener (it must convert ::ffff:).
        bool isV4 = false;
        const quint32 v4 = handler.requests.first().peerAddress.toIPv4Address(&isV4);
        QVERIFY(isV4);
        QCOMPARE(QHostAddress(v4), QHostAddress(QHostAddress::LocalHost));
    }

    void wrongPinNeverReachesHandler()
    {
        QTemporaryDir dir;
        const TlsIdentity identity = makeIdentity(dir, KeyType::EcdsaP256);
        const TlsIdentity other = makeIdentity(dir, KeyType::EcdsaP256, QStringLiteral("other"));
        EchoHandler handler;
        TlsHttpServer server(&handler, identity);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        RawTlsClient client(server.serverPort(), other.pin);
        QSignalSpy failed(&client.socket, &QSslSocket::errorOccurred);
        QVERIFY(failed.wait(scaled(10000)));
        QVERIFY(!client.socket.isEncrypted());
        QCOMPARE(client.seenPin, identity.pin);
        QTRY_COMPARE_WITH_TIMEOUT(server.handshakesInProgress(), 0, scaled(10000));
        QCOMPARE(handler.requests.size(), 0);
    }

    void handshakeTimeoutFreesSilentClient()
    {
        QTemporaryDir dir;
        EchoHandler handler;
        TlsServerOptions options;
        options.handshakeTimeoutMs = 300;
        TlsHttpServer server(&handler, makeIdentity(dir, KeyType::EcdsaP256), options);
        QSignalSpy handshakeFailed(&server, &TlsHttpServer::handshakeFailed);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QTcpSocket silent;
        QSignalSpy disconnected(&silent, &QTcpSocket::disconnected);
        silent.connectToHost(QHostAddress::LocalHost, server.serverPort());
        QVERIFY(silent.waitForConnected(scaled(5000)));
        QTRY_COMPARE_WITH_TIMEOUT(server.handshakesInProgress(), 1, scaled(5000));
        QVERIFY(disconnected.wait(scaled(5000)));
        QTRY_COMPARE_WITH_TIMEOUT(server.handshakesInProgress(), 0, scaled(5000));
        QCOMPARE(handshakeFailed.size(), 1);
        QCOMPARE(handshakeFailed.first().at(1).toString(), QStringLiteral("TLS handshake timed out"));
    }

    void plainHttpIsClosed()
    {
        QTemporaryDir dir;
        EchoHandler handler;
        TlsHttpServer server(&handler, makeIdentity(dir, KeyType::EcdsaP256));
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QTcpSocket plain;
        QSignalSpy disconnected(&plain, &QTcpSocket::disconnected);
        plain.connectToHost(QHostAddress::LocalHost, server.serverPort());
        QVERIFY(plain.waitForConnected(scaled(5000)));
        plain.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
        QVERIFY(disconnected.wait(scaled(5000)));
        QCOMPARE(handler.requests.size(), 0);
    }

    void capsConnectionsInHandshake()
    {
        QTemporaryDir dir;
        EchoHandler handler;
        TlsServerOptions options;
        options.handshakeTimeoutMs = 60000; // only the cap may close them
        options.maxHandshakes = 2;
        TlsHttpServer server(&handler, makeIdentity(dir, KeyType::EcdsaP256), options);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QTcpSocket first, second, third;
        for (QTcpSocket *socket : {&first, &second}) {
            socket->connectToHost(QHostAddress::LocalHost, server.serverPort());
            QVERIFY(socket->waitForConnected(scaled(5000)));
        }
        QTRY_COMPARE_WITH_TIMEOUT(server.handshakesInProgress(), 2, scaled(5000));
        QSignalSpy thirdClosed(&third, &QTcpSocket::disconnected);
        third.connectToHost(QHostAddress::LocalHost, server.serverPort());
        QVERIFY(third.waitForConnected(scaled(5000)));
        QVERIFY(thirdClosed.wait(scaled(5000)));
        QCOMPARE(first.state(), QAbstractSocket::ConnectedState);
        QCOMPARE(second.state(), QAbstractSocket::ConnectedState);
        QCOMPARE(server.handshakesInProgress(), 2);
    }

    void newIdentityServesNextHandshakes()
    {
        QTemporaryDir dir;
        const TlsIdentity first = makeIdentity(dir, KeyType::EcdsaP256);
        const TlsIdentity second = makeIdentity(dir, KeyType::EcdsaP256, QStringLiteral("second"));
        EchoHandler handler;
        TlsHttpServer server(&handler, first);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        server.setIdentity(second);
        RawTlsClient client(server.serverPort(), second.pin);
        QSignalSpy encrypted(&client.socket, &QSslSocket::encrypted);
        QVERIFY(encrypted.wait(scaled(10000)));
        QCOMPARE(client.seenPin, second.pin);
    }
};

QTEST_GUILESS_MAIN(tst_TlsServer)
#include "tst_tlsserver.moc"
