#include "openchamber/opencodeclient.h"
#include "openchamber/opencodeevents.h"
#include "tests/openchamber/fakeopencode.h"

#include "tests/support/fakesecretstore.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QtTest>

using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

OpenCodeResult<QJsonValue> getSync(OpenCodeClient &client, const QString &path, const QString &directory,
                                   const QUrlQuery &query = {}, int timeoutMs = 0)
{
    std::optional<OpenCodeResult<QJsonValue>> result;
    QObject context;
    client.get(
        path, directory, query, &context, [&result](OpenCodeResult<QJsonValue> r) { result = std::move(r); },
        timeoutMs);
    if (!QTest::qWaitFor([&result] { return result.has_value(); }, TestSupport::scaled(10000)))
        result.reset();
    if (!result)
        return std::unexpected(
            OpenCodeError {OpenCodeError::Kind::Http, QStringLiteral("test: no answer"), -1, {}});
    return *result;
}

OpenCodeClient::Options optionsFor(const FakeOpenCode &fake)
{
    OpenCodeClient::Options options;
    options.baseUrl = fake.url();
    return options;
}

} // namespace

class tst_OpenCodeClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void configuredUrl_data();
    void configuredUrl();
    void requestsAreDirectoryScoped_data();
    void requestsAreDirectoryScoped();
    void unscopedRequestsCarryNoDirectory();
    void sendsBasicAuthWhenAPasswordIsSet();
    void wrongPasswordIsUnauthorized();
    void loadsThePasswordFromTheSecretStore();
    void httpErrorsKeepStatusAndBody();
    void nonJsonAnswerIsBadJson();
    void emptyAnswerIsUndefined();
    void oversizedAnswerIsTooLarge();
    void silentServerTimesOut();
    void unreachableNamesTheUrlAndTheCommand();
    void destroyedContextDropsTheCallback();
    void sseParser_data();
    void sseParser();
    void sseParserSplitAnywhere();
    void sseParserDropsOversizedEvents();
    void eventStreamDeliversObjects();
};

void tst_OpenCodeClient::configuredUrl_data()
{
    QTest::addColumn<QString>("env");
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("expected");
    QTest::newRow("default") << QString() << QString() << QStringLiteral("http://127.0.0.1:4096");
    QTest::newRow("config") << QString() << QStringLiteral("http://10.0.0.2:5000/")
                            << QStringLiteral("http://10.0.0.2:5000");
    QTest::newRow("env wins") << QStringLiteral(" http://127.0.0.1:7000 ")
                              << QStringLiteral("http://10.0.0.2:5000")
                              << QStringLiteral("http://127.0.0.1:7000");
    QTest::newRow("bad env → config") << QStringLiteral("ftp://x") << QStringLiteral("https://oc.local/base")
                                      << QStringLiteral("https://oc.local/base");
    QTest::newRow("bad config → default")
        << QString() << QStringLiteral("not a url") << QStringLiteral("http://127.0.0.1:4096");
    QTest::newRow("no host") << QStringLiteral("http://") << QString()
                             << QStringLiteral("http://127.0.0.1:4096");
}

void tst_OpenCodeClient::configuredUrl()
{
    QFETCH(QString, env);
    QFETCH(QString, config);
    QFETCH(QString, expected);
    QProcessEnvironment environment;
    if (!env.isNull())
        environment.insert(OpenCodeClient::UrlEnvironmentVariable, env);
    QJsonObject root;
    if (!config.isNull())
        root.insert(QStringLiteral("openchamber"), QJsonObject {{QStringLiteral("opencode_url"), config}});
    QCOMPARE(OpenCodeClient::configuredUrl(root, environment).toString(), expected);
}

void tst_OpenCodeClient::requestsAreDirectoryScoped_data()
{
    QTest::addColumn<QString>("directory");
    QTest::newRow("plain") << QStringLiteral("/repo/app");
    QTest::newRow("spaces") << QStringLiteral("/home/u/my project");
    QTest::newRow("specials") << QStringLiteral("/r/a+b&c=d#e?f%20g");
    QTest::newRow("unicode") << QStringLiteral("/home/ü/проект");
}

void tst_OpenCodeClient::requestsAreDirectoryScoped()
{
    QFETCH(QString, directory);
    FakeOpenCode fake;
    OpenCodeClient client(optionsFor(fake));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("5"));
    const auto answer = getSync(client, QStringLiteral("/session"), directory, query);
    QVERIFY2(answer, qPrintable(answer ? QString() : answer.error().message));
    QCOMPARE(fake.requests.size(), 1);
    const FakeRequest &r = fake.requests.first();
    QCOMPARE(r.directory(), directory);
    QCOMPARE(r.query.queryItemValue(QStringLiteral("limit")), QStringLiteral("5"));
    QCOMPARE(QUrl::fromPercentEncoding(r.headers.value("x-opencode-directory")), directory);
    QCOMPARE(r.headers.value("accept"), QByteArray("application/json"));
    QVERIFY(!r.headers.contains("authorization"));
}

void tst_OpenCodeClient::unscopedRequestsCarryNoDirectory()
{
    FakeOpenCode fake;
    OpenCodeClient client(optionsFor(fake));
    QVERIFY(getSync(client, QStringLiteral("/global/health"), {}));
    QVERIFY(!fake.requests.first().query.hasQueryItem(QStringLiteral("directory")));
    QVERIFY(!fake.requests.first().headers.contains("x-opencode-directory"));
}

void tst_OpenCodeClient::sendsBasicAuthWhenAPasswordIsSet()
{
    FakeOpenCode fake;
    fake.password = "s3cret:with colon";
    OpenCodeClient client(optionsFor(fake));
    client.setPassword("s3cret:with colon");
    const auto answer = getSync(client, QStringLiteral("/agent"), QStringLiteral("/r"));
    QVERIFY2(answer, qPrintable(answer ? QString() : answer.error().message));
    QCOMPARE(fake.requests.first().headers.value("authorization"),
             "Basic " + QByteArray("opencode:s3cret:with colon").toBase64());
}

void tst_OpenCodeClient::wrongPasswordIsUnauthorized()
{
    FakeOpenCode fake;
    fake.password = "right";
    OpenCodeClient client(optionsFor(fake));
    client.setPassword("wrong");
    const auto answer = getSync(client, QStringLiteral("/agent"), QStringLiteral("/r"));
    QVERIFY(!answer);
    QCOMPARE(answer.error().kind, OpenCodeError::Kind::Unauthorized);
    QCOMPARE(answer.error().httpStatus, 401);
    QVERIFY(answer.error().message.contains(QLatin1String("opencode-password")));
}

void tst_OpenCodeClient::loadsThePasswordFromTheSecretStore()
{
    FakeOpenCode fake;
    fake.password = "from-store";
    TestSupport::FakeSecretStore store;
    OpenCodeClient client(optionsFor(fake));
    std::optional<bool> found;
    client.loadPassword(store, [&found](bool f) { found = f; });
    QTRY_VERIFY(found.has_value());
    QVERIFY(!*found);
    QVERIFY(!client.hasPassword());
    store.secrets.insert(Broker::SecretStore::openCodePasswordKey, "from-store");
    found.reset();
    client.loadPassword(store, [&found](bool f) { found = f; });
    QTRY_VERIFY(found.has_value());
    QVERIFY(*found);
    QVERIFY(getSync(client, QStringLiteral("/agent"), QStringLiteral("/r")));
}

void tst_OpenCodeClient::httpErrorsKeepStatusAndBody()
{
    FakeOpenCode fake;
    OpenCodeClient client(optionsFor(fake));
    const auto answer = getSync(client, QStringLiteral("/session/nope/message"), QStringLiteral("/r"));
    QVERIFY(!answer);
    QCOMPARE(answer.error().kind, OpenCodeError::Kind::Http);
    QCOMPARE(answer.error().httpStatus, 404);
    QVERIFY(answer.error().body.contains("NotFoundError"));
    QVERIFY2(answer.error().message.startsWith(QLatin1String("GET /session/nope/message failed (404)")),
             qPrintable(answer.error().message));
}

void tst_OpenCodeClient::nonJsonAnswerIsBadJson()
{
    FakeOpenCode fake;
    fake.handler = [](const FakeRequest &) -> std::optional<FakeResponse> {
        return FakeResponse {200, "<html>", false};
    };
    OpenCodeClient client(optionsFor(fake));
    const auto answer = getSync(client, QStringLiteral("/agent"), {});
    QVERIFY(!answer);
    QCOMPARE(answer.error().kind, OpenCodeError::Kind::BadJson);
}

void tst_OpenCodeClient::emptyAnswerIsUndefined()
{
    FakeOpenCode fake;
    fake.handler = [](const FakeRequest &) -> std::optional<FakeResponse> {
        return FakeResponse::empty(204);
    };
    OpenCodeClient client(optionsFor(fake));
    const auto answer = getSync(client, QStringLiteral("/x"), {});
    QVERIFY(answer);
    QVERIFY(answer->isUndefined());
}

void tst_OpenCodeClient::oversizedAnswerIsTooLarge()
{
    FakeOpenCode fake;
    const QByteArray big = "[\"" + QByteArray(300 * 1024, 'x') + "\"]";
    fake.handler = [big](const FakeRequest &) -> std::optional<FakeResponse> {
        return FakeResponse {200, big, false};
    };
    OpenCodeClient::Options options = optionsFor(fake);
    options.maxAnswerBytes = 64 * 1024;
    OpenCodeClient client(options);
    const auto answer = getSync(client, QStringLiteral("/session"), {});
    QVERIFY(!answer);
    QCOMPARE(answer.error().kind, OpenCodeError::Kind::TooLarge);
    options.maxAnswerBytes = 1024 * 1024;
    OpenCodeClient roomy(options);
    QVERIFY(getSync(roomy, QStringLiteral("/session"), {}));
}

void tst_OpenCodeClient::silentServerTimesOut()
{
    FakeOpenCode fake;
    fake.handler = [](const FakeRequest &) -> std::optional<FakeResponse> {
        return FakeResponse {200, {}, true};
    };
    OpenCodeClient client(optionsFor(fake));
    const auto answer = getSync(client, QStringLiteral("/session"), {}, {}, 300);
    QVERIFY(!answer);
    QCOMPARE(answer.error().kind, OpenCodeError::Kind::Timeout);
    QVERIFY(answer.error().message.contains(fake.url().toString()));
}

void tst_OpenCodeClient::unreachableNamesTheUrlAndTheCommand()
{
    OpenCodeClient::Options options;
    const quint16 port = TestSupport::freePort();
    options.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
    OpenCodeClient client(options);
    const auto answer = getSync(client, QStringLiteral("/global/health"), {});
    QVERIFY(!answer);
    QCOMPARE(answer.error().kind, OpenCodeError::Kind::Unreachable);
    QVERIFY(answer.error().message.contains(options.baseUrl.toString()));
    QVERIFY(answer.error().message.contains(QStringLiteral("opencode serve --port %1").arg(port)));
    QVERIFY(answer.error().message.contains(OpenCodeClient::UrlEnvironmentVariable));
}

void tst_OpenCodeClient::destroyedContextDropsTheCallback()
{
    FakeOpenCode fake;
    fake.handler = [](const FakeRequest &) -> std::optional<FakeResponse> {
        return FakeResponse {200, {}, true};
    };
    OpenCodeClient client(optionsFor(fake));
    bool called = false;
    auto *context = new QObject;
    client.get(QStringLiteral("/session"), {}, {}, context, [&called](auto) { called = true; });
    QTRY_COMPARE(fake.requests.size(), 1);
    delete context;
    QTRY_COMPARE(client.pendingCount(), 0);
    QVERIFY(!called);
}

void tst_OpenCodeClient::sseParser_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QList<QByteArray>>("events");
    QTest::newRow("one") << QByteArray("data: {\"a\":1}\n\n") << QList<QByteArray> {"{\"a\":1}"};
    QTest::newRow("crlf") << QByteArray("data: x\r\n\r\n") << QList<QByteArray> {"x"};
    QTest::newRow("no space") << QByteArray("data:x\n\n") << QList<QByteArray> {"x"};
    QTest::newRow("multi-line") << QByteArray("data: a\ndata: b\n\n") << QList<QByteArray> {"a\nb"};
    QTest::newRow("comment and fields")
        << QByteArray(": hi\nevent: e\nid: 3\nretry: 10\ndata: x\n\n") << QList<QByteArray> {"x"};
    QTest::newRow("no data") << QByteArray("event: e\n\n") << QList<QByteArray> {};
    QTest::newRow("unterminated") << QByteArray("data: x\n") << QList<QByteArray> {};
    QTest::newRow("two") << QByteArray("data: 1\n\ndata: 2\n\n") << QList<QByteArray> {"1", "2"};
    QTest::newRow("empty data") << QByteArray("data\n\n") << QList<QByteArray> {""};
}

void tst_OpenCodeClient::sseParser()
{
    QFETCH(QByteArray, input);
    QFETCH(QList<QByteArray>, events);
    SseParser parser;
    QCOMPARE(parser.feed(input), events);
}

void tst_OpenCodeClient::sseParserSplitAnywhere()
{
    const QByteArray stream =
        "data: {\"type\":\"a\"}\r\n\r\n: ping\n\ndata: one\ndata: two\n\ndata: last\n\n";
    const QList<QByteArray> expected {"{\"type\":\"a\"}", "one\ntwo", "last"};
    for (qsizetype split = 0; split <= stream.size(); ++split) {
        SseParser parser;
        QList<QByteArray> got = parser.feed(stream.left(split));
        got += parser.feed(stream.mid(split));
        QCOMPARE(got, expected);
    }
    SseParser bytewise;
    QList<QByteArray> got;
    for (char c : stream)
        got += bytewise.feed(QByteArray(1, c));
    QCOMPARE(got, expected);
}

void tst_OpenCodeClient::sseParserDropsOversizedEvents()
{
    SseParser parser(16);
    const QByteArray stream =
        "data: small\n\ndata: " + QByteArray(100, 'x') + "\ndata: more\n\ndata: after\n\n";
    for (qsizetype chunk : {qsizetype(1), qsizetype(7), stream.size()}) {
        SseParser p(16);
        QList<QByteArray> got;
        for (qsizetype i = 0; i < stream.size(); i += chunk)
            got += p.feed(stream.mid(i, chunk));
        QCOMPARE(got, (QList<QByteArray> {"small", "after"}));
        QCOMPARE(p.droppedEvents(), 1);
    }
    Q_UNUSED(parser);
}

void tst_OpenCodeClient::eventStreamDeliversObjects()
{
    FakeOpenCode fake;
    OpenCodeClient client(optionsFor(fake));
    QNetworkAccessManager network;
    OpenCodeEventStream stream(client, network, QStringLiteral("/repo"));
    QSignalSpy events(&stream, &OpenCodeEventStream::received);
    QTRY_COMPARE(fake.eventStreams(), 1);
    QTRY_COMPARE(events.size(), 1); // server.connected
    QVERIFY(stream.isConnected());
    fake.emitEvent(QStringLiteral("/elsewhere"), {{QStringLiteral("type"), QStringLiteral("x")}});
    fake.emitEvent(QStringLiteral("/repo"),
                   {{QStringLiteral("type"), QStringLiteral("session.idle")},
                    {QStringLiteral("properties"),
                     QJsonObject {{QStringLiteral("sessionID"), QStringLiteral("ses_9")}}}});
    QTRY_COMPARE(events.size(), 2);
    const QJsonObject event = events.last().first().toJsonObject();
    QCOMPARE(eventSessionId(event), QStringLiteral("ses_9"));
    QCOMPARE(fake.requests.first().directory(), QStringLiteral("/repo"));
}

QTEST_GUILESS_MAIN(tst_OpenCodeClient)
#include "tst_opencodeclient.moc"
