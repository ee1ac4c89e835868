// The helper's HTTP client: against the real broker (credentials, 401 re-read, errors) and
// against a scripted loopback server for the framing cases a healthy broker never produces.
#include "common/brokerclient.h"
#include "common/tokenfile.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace TestSupport;
using Broker::BrokerClient;

namespace {

// Collects one callback.
struct Outcome
{
    bool called = false;
    Broker::Result<QJsonValue> result = std::unexpected(Broker::Error {});
    BrokerClient::Callback callback()
    {
        return [this](Broker::Result<QJsonValue> r) {
            called = true;
            result = std::move(r);
        };
    }
};

Broker::Location locationFor(const TestHome &home)
{
    return Broker::Location::fromEnvironment(home.environment());
}

// A loopback server that answers each request with the next scripted reply (raw bytes);
// an empty reply means "close without answering", "hang" means never answer.
class ScriptedServer : public QObject
{
public:
    QList<QByteArray> replies;
    QList<QByteArray> requests;
    QTcpServer server;

    ScriptedServer()
    {
        server.listen(QHostAddress::LocalHost, 0);
        connect(&server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] {
                    const QByteArray data = s->readAll();
                    requests << data;
                    if (replies.isEmpty())
                        return;
                    const QByteArray reply = replies.takeFirst();
                    if (reply == "hang")
                        return;
                    if (reply.isEmpty()) {
                        s->disconnectFromHost();
                        return;
                    }
                    s->write(reply);
                    if (reply.contains("Connection: close") || !reply.contains("Content-Length"))
                        s->disconnectFromHost();
                });
            }
        });
    }
    Broker::Location location() const
    {
        Broker::Location l;
        l.port = server.serverPort();
        l.tokenPath = QStringLiteral("/nonexistent/token");
        return l;
    }
};

// Between the client and the real broker: passes bytes both ways, except that when armed, the
// next /send-message reaches the broker and its answer never comes back: the client's connection
// closes before any answer byte, as when a broker dies after storing (or its answer is lost).
class LossyProxy : public QObject
{
public:
    explicit LossyProxy(quint16 brokerPort) : m_brokerPort(brokerPort)
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_server.nextPendingConnection())
                relay(client);
        });
    }
    quint16 port() const { return m_server.serverPort(); }
    bool armed = false;
    int sendsForwarded = 0;
    int answersDropped = 0;
    int connections = 0;

private:
    void relay(QTcpSocket *client)
    {
        ++connections;
        auto *upstream = new QTcpSocket(client);
        auto dropAnswer = std::make_shared<bool>(false);
        upstream->connectToHost(QHostAddress::LocalHost, m_brokerPort);
        connect(client, &QTcpSocket::readyRead, upstream, [this, client, upstream, dropAnswer] {
            const QByteArray data = client->readAll();
            if (data.contains("POST /send-message")) {
                ++sendsForwarded;
                if (std::exchange(armed, false))
                    *dropAnswer = true;
            }
            upstream->write(data);
        });
        connect(upstream, &QTcpSocket::readyRead, client, [this, client, upstream, dropAnswer] {
            const QByteArray data = upstream->readAll();
            if (*dropAnswer) {
                ++answersDropped;
                client->disconnectFromHost();
                upstream->abort();
                return;
            }
            client->write(data);
        });
        connect(upstream, &QTcpSocket::disconnected, client, &QTcpSocket::disconnectFromHost);
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
    }

    QTcpServer m_server;
    quint16 m_brokerPort;
};

// Registers a session of this process on tty with the main token (read from the file) and
// gives the client its session secret for the rest; the peer id, empty on failure (logged).
QString registerAs(BrokerClient &link, const QString &tty)
{
    Outcome reg;
    link.post(QStringLiteral("/register"),
              QJsonObject {{QStringLiteral("pid"), qint64(QCoreApplication::applicationPid())},
                           {QStringLiteral("cwd"), QStringLiteral("/")},
                           {QStringLiteral("git_root"), QJsonValue::Null},
                           {QStringLiteral("tty"), tty}},
              reg.callback());
    if (!QTest::qWaitFor([&] { return reg.called; }, scaled(10000)) || !reg.result) {
        qWarning().noquote() << "register:"
                             << (reg.called ? reg.result.error().message : QStringLiteral("no answer"));
        return {};
    }
    link.setSessionSecret(reg.result->toObject().value(QLatin1String("session_secret")).toString().toUtf8());
    return reg.result->toObject().value(QLatin1String("id")).toString();
}

QByteArray ok(const QByteArray &body)
{
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
        QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

} // namespace

class tst_BrokerClientLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void talksToTheRealBroker()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        BrokerClient link(locationFor(home));

        Outcome health;
        link.get(QStringLiteral("/health"), health.callback());
        QVERIFY(!health.called); // never from inside the call
        QTRY_VERIFY(health.called);
        QVERIFY(health.result);
        QCOMPARE(health.result->toObject().value(QLatin1String("status")).toString(), QStringLiteral("ok"));

        // Main token (read from the file) for /register; the answer's secret for the rest.
        const QString id = registerAs(link, QStringLiteral("pts/777"));
        QVERIFY(!id.isEmpty());

        Outcome list;
        link.post(QStringLiteral("/list-peers"),
                  QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")},
                               {QStringLiteral("cwd"), QStringLiteral("/")}},
                  list.callback());
        QTRY_VERIFY(list.called);
        QVERIFY(list.result && list.result->isArray());

        // The session secret may act only as its own peer.
        Outcome spoof;
        link.post(QStringLiteral("/heartbeat"),
                  QJsonObject {{QStringLiteral("id"), QStringLiteral("someone")}}, spoof.callback());
        QTRY_VERIFY(spoof.called);
        QVERIFY(!spoof.result);
        QCOMPARE(spoof.result.error().kind, Broker::ErrorKind::Http);
        QCOMPARE(spoof.result.error().httpStatus, 403);
        QVERIFY(spoof.result.error().message.startsWith(QLatin1String("Broker error (/heartbeat): 403 {")));

        // Unknown path: an http error with the reference's wording.
        Outcome missing;
        link.post(QStringLiteral("/nope"), QJsonObject(), missing.callback());
        QTRY_VERIFY(missing.called);
        QCOMPARE(missing.result.error().httpStatus, 404);

        // Keep-alive: many requests, answered in order on the same connections.
        int answered = 0;
        for (int i = 0; i < 50; ++i)
            link.post(QStringLiteral("/heartbeat"), QJsonObject {{QStringLiteral("id"), id}},
                      [&answered](Broker::Result<QJsonValue> r) { answered += r ? 1 : 0; });
        QTRY_COMPARE(answered, 50);
    }

    void rereadsARotatedTokenOnce()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        BrokerClient link(locationFor(home));
        Outcome first;
        link.post(QStringLiteral("/list-peers"),
                  QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")}}, first.callback());
        QTRY_VERIFY(first.called);
        QVERIFY(first.result); // token cached now

        // Rotate: new file content, broker told to reload.
        const QByteArray old = home.token();
        QVERIFY(Broker::TokenFile::write(home.tokenPath(), Broker::TokenFile::generate()));
        QCOMPARE(httpPostJson(home.port(), QStringLiteral("/reload"), QJsonObject(), old).status, 200);
        Outcome second;
        link.post(QStringLiteral("/list-peers"),
                  QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")}}, second.callback());
        QTRY_VERIFY(second.called);
        QVERIFY2(second.result, qPrintable(second.result.error().message));

        // A token file that is simply wrong: 401 reported after one re-read, no endless retries.
        Broker::Location wrong = locationFor(home);
        wrong.tokenPath = home.path() + QStringLiteral("/wrong-token");
        QVERIFY(Broker::TokenFile::write(wrong.tokenPath, Broker::TokenFile::generate()));
        BrokerClient wrongLink(wrong);
        Outcome third;
        wrongLink.post(QStringLiteral("/list-peers"),
                       QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")}}, third.callback());
        QTRY_VERIFY(third.called);
        QVERIFY(!third.result);
        QCOMPARE(third.result.error().httpStatus, 401);
    }

    void unreachableIsReportedLater()
    {
        Broker::Location l;
        l.port = freePort(); // nobody listens
        BrokerClient link(l);
        Outcome o;
        link.get(QStringLiteral("/health"), o.callback(), 2000);
        QVERIFY(!o.called);
        QTRY_VERIFY(o.called);
        QCOMPARE(o.result.error().kind, Broker::ErrorKind::Unreachable);
        QCOMPARE(o.result.error().message, link.unreachableMessage());
        QVERIFY(o.result.error().message.contains(QString::number(l.port)));
    }

    void framingCases_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("code"); // empty = success
        QTest::addColumn<QByteArray>("json"); // expected compact JSON on success
        QTest::newRow("content-length") << ok("{\"a\":1}") << QString() << QByteArray("{\"a\":1}");
        QTest::newRow("array") << ok("[1,2]") << QString() << QByteArray("[1,2]");
        QTest::newRow("chunked") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: "
                                               "chunked\r\n\r\n4\r\n{\"b\"\r\n4\r\n:22}\r\n0\r\n\r\n")
                                 << QString() << QByteArray("{\"b\":22}");
        QTest::newRow("close-delimited")
            << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"c\":3}") << QString()
            << QByteArray("{\"c\":3}");
        QTest::newRow("not json") << ok("hello") << QStringLiteral("bad_json") << QByteArray();
        QTest::newRow("empty body") << ok("") << QStringLiteral("bad_json") << QByteArray();
        QTest::newRow("http 500") << QByteArray("HTTP/1.1 500 Internal\r\nContent-Length: 2\r\n\r\n{}")
                                  << QStringLiteral("http") << QByteArray();
        QTest::newRow("too large") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n{")
                                   << QStringLiteral("too_large") << QByteArray();
        QTest::newRow("garbage") << QByteArray("SSH-2.0-OpenSSH\r\n\r\n") << QStringLiteral("unreachable")
                                 << QByteArray();
        QTest::newRow("closed without answer")
            << QByteArray() << QStringLiteral("unreachable") << QByteArray();
        QTest::newRow("no answer: timeout")
            << QByteArray("hang") << QStringLiteral("unreachable") << QByteArray();
    }
    void framingCases()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QString, code);
        QFETCH(QByteArray, json);
        ScriptedServer server;
        server.replies << reply;
        BrokerClient link(server.location());
        Outcome o;
        link.get(QStringLiteral("/x"), o.callback(), 500);
        QTRY_VERIFY(o.called);
        if (code.isEmpty()) {
            QVERIFY2(o.result, qPrintable(o.result.error().message));
            const QByteArray got = o.result->isArray()
                ? QJsonDocument(o.result->toArray()).toJson(QJsonDocument::Compact)
                : QJsonDocument(o.result->toObject()).toJson(QJsonDocument::Compact);
            QCOMPARE(got, json);
        } else {
            QVERIFY(!o.result);
            QCOMPARE(o.result.error().code(), code);
        }
        // The link is usable afterwards.
        server.replies << ok("{\"again\":true}");
        Outcome again;
        link.get(QStringLiteral("/y"), again.callback(), 2000);
        QTRY_VERIFY(again.called);
        QVERIFY2(again.result, qPrintable(again.result.error().message));
    }

    void aReusedConnectionClosedUnderARequestIsRetriedOnceUnlessItStores()
    {
        ScriptedServer server;
        BrokerClient link(server.location());
        // First request opens the connection; the second finds it closed by the server.
        server.replies << ok("{}") << QByteArray() << ok("{\"retried\":true}");
        Outcome first;
        link.post(QStringLiteral("/heartbeat"), QJsonObject(), first.callback());
        QTRY_VERIFY(first.called);
        Outcome second;
        link.post(QStringLiteral("/heartbeat"), QJsonObject(), second.callback());
        QTRY_VERIFY(second.called);
        QVERIFY2(second.result, qPrintable(second.result.error().message));
        QVERIFY(second.result->toObject().value(QLatin1String("retried")).toBool());

        // /send-message stores: never sent twice.
        server.replies << QByteArray() << ok("{\"ok\":true}");
        Outcome send;
        link.post(QStringLiteral("/send-message"), QJsonObject(), send.callback());
        QTRY_VERIFY(send.called);
        QVERIFY(!send.result);
        QCOMPARE(send.result.error().kind, Broker::ErrorKind::Unreachable);
    }

    // Issue 11 §3: a /send-message whose connection closed before its answer, after the broker
    // stored it, is sent again with the same Idempotency-Key and stored once; the client gets
    // the first answer (the same message id), not a failure.
    void aSendClosedBeforeItsAnswerIsStoredOnce()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        LossyProxy proxy(home.port());
        Broker::Location location = locationFor(home);
        location.port = proxy.port();
        BrokerClient link(location);

        const QString id = registerAs(link, QStringLiteral("pts/778"));
        QVERIFY(!id.isEmpty());
        const auto send = [&](const QString &text) {
            auto o = std::make_shared<Outcome>();
            link.post(QStringLiteral("/send-message"),
                      QJsonObject {{QStringLiteral("from_id"), id},
                                   {QStringLiteral("to_id"), id},
                                   {QStringLiteral("text"), text}},
                      o->callback());
            return o;
        };

        // The first answer echoes the key: this broker honours it.
        const auto first = send(QStringLiteral("first"));
        QTRY_VERIFY(first->called);
        QVERIFY2(first->result, qPrintable(first->result.error().message));

        proxy.armed = true;
        const auto once = send(QStringLiteral("once"));
        QTRY_VERIFY_WITH_TIMEOUT(once->called, scaled(10000));
        QCOMPARE(proxy.answersDropped, 1);
        QCOMPARE(proxy.sendsForwarded, 3); // first, once, once again
        QVERIFY2(once->result, qPrintable(once->result.error().message));
        QVERIFY(once->result->toObject().value(QLatin1String("ok")).toBool());
        const qint64 messageId = once->result->toObject().value(QLatin1String("message_id")).toInteger();
        QVERIFY(messageId > 0);

        Outcome poll;
        link.post(QStringLiteral("/poll-messages"), QJsonObject {{QStringLiteral("id"), id}},
                  poll.callback());
        QTRY_VERIFY(poll.called);
        QVERIFY2(poll.result, qPrintable(poll.result.error().message));
        QStringList texts;
        QList<qint64> ids;
        for (const QJsonValue &m : poll.result->toObject().value(QLatin1String("messages")).toArray()) {
            texts << m.toObject().value(QLatin1String("text")).toString();
            ids << m.toObject().value(QLatin1String("id")).toInteger();
        }
        QCOMPARE(texts, QStringList({QStringLiteral("first"), QStringLiteral("once")}));
        QCOMPARE(ids.last(), messageId); // the re-send got the first answer
        QVERIFY2(broker.stderrOutput().isEmpty() || !broker.stderrOutput().contains("not recorded"),
                 broker.stderrOutput().constData());
    }

    // A key that is not 1 to 128 visible ASCII characters is refused with a clear error; a
    // request without one (a 0.7 client) is served as before, and its answer carries no key.
    void malformedIdempotencyKeyIsRefused()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, home.port());
        QVERIFY(socket.waitForConnected(scaled(5000)));
        const QByteArray token = *Broker::TokenFile::read(locationFor(home).tokenPath);
        const QByteArray body = R"({"from_id":"x","to_id":"y","text":"t"})";
        socket.write("POST /send-message HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token +
                     "\r\nIdempotency-Key: " + QByteArray(129, 'k') +
                     "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                     QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT(
            (answer += socket.readAll(), socket.state() == QAbstractSocket::UnconnectedState), scaled(5000));
        answer += socket.readAll();
        QVERIFY2(answer.startsWith("HTTP/1.1 400"), answer.constData());
        QVERIFY2(answer.contains("Idempotency-Key must be 1 to 128 visible ASCII characters"),
                 answer.constData());
    }

    void waitsDoNotBlockOtherRequests()
    {
        ScriptedServer server;
        BrokerClient link(server.location());
        server.replies << "hang";
        Outcome wait;
        link.post(QStringLiteral("/wait-messages"), QJsonObject(), wait.callback(), 3000);
        QTRY_COMPARE(server.requests.size(), 1);
        server.replies << ok("{\"beat\":1}");
        Outcome beat;
        link.post(QStringLiteral("/heartbeat"), QJsonObject(), beat.callback(), 2000);
        QTRY_VERIFY(beat.called);
        QVERIFY(beat.result);
        QVERIFY(!wait.called);
        QTRY_VERIFY_WITH_TIMEOUT(wait.called, 5000);
        QCOMPARE(wait.result.error().kind, Broker::ErrorKind::Unreachable);
    }
};

QTEST_GUILESS_MAIN(tst_BrokerClientLive)
#include "tst_brokerclientlive.moc"
