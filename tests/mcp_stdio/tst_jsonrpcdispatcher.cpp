#include "mcp_stdio/jsonrpc.h"
#include "mcp_stdio/jsonrpcdispatcher.h"
#include "mcp_stdio/serverinfo.h"
#include "mcp_stdio/toolregistry.h"
#include "mcp_stdio/toolschema.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace Mcp;

namespace {

// Two tools in a real registry: "echo" answers at once, "slow" when the test says so.
class FakeTool : public Tool
{
public:
    FakeTool(QString name, QList<std::function<void()>> *pending)
        : m_name(std::move(name)), m_pending(pending)
    {
    }
    QString name() const override { return m_name; }
    QString description(ClientKind) const override { return m_name; }
    QJsonObject inputSchema() const override { return ToolSchema::object(); }
    void call(const QJsonObject &arguments, const ToolContext &, ToolReply reply) override
    {
        const QString text = arguments.value(QLatin1String("text")).toString();
        if (m_pending)
            m_pending->append([reply, text] { reply.text(text); });
        else
            reply.text(text);
    }

private:
    QString m_name;
    QList<std::function<void()>> *m_pending;
};

class FakeTools : public ToolRegistry
{
public:
    FakeTools()
    {
        add(std::make_unique<FakeTool>(QStringLiteral("echo"), nullptr));
        add(std::make_unique<FakeTool>(QStringLiteral("slow"), &pending));
    }
    QList<std::function<void()>> pending;
};

QByteArray line(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class tst_JsonRpcDispatcher : public QObject
{
    Q_OBJECT

    FakeTools m_tools;

    // Feeds one line; returns the answers emitted synchronously.
    QList<QJsonValue> send(JsonRpcDispatcher &d, const QByteArray &input)
    {
        QSignalSpy spy(&d, &JsonRpcDispatcher::response);
        d.handleLine(input);
        QList<QJsonValue> out;
        for (const auto &args : spy)
            out << args.at(0).value<QJsonValue>();
        return out;
    }
    QJsonObject sendOne(JsonRpcDispatcher &d, const QByteArray &input)
    {
        const QList<QJsonValue> out = send(d, input);
        if (out.size() != 1) {
            qWarning() << "expected one answer, got" << out.size() << "for" << input.left(200);
            return {};
        }
        return out.first().toObject();
    }
    void initialize(JsonRpcDispatcher &d, const QString &version = QStringLiteral("2025-11-25"))
    {
        sendOne(d,
                line(QJsonObject {
                    {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("id"), 0},
                    {QStringLiteral("method"), QStringLiteral("initialize")},
                    {QStringLiteral("params"), QJsonObject {{QStringLiteral("protocolVersion"), version}}}}));
    }

private Q_SLOTS:
    void errorPaths_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<int>("code");
        QTest::addColumn<QJsonValue>("id");

        const QJsonValue null(QJsonValue::Null);
        QTest::newRow("truncated json")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,") << int(JsonRpc::ParseError) << null;
        QTest::newRow("not json") << QByteArray("hello") << int(JsonRpc::ParseError) << null;
        QTest::newRow("two values") << QByteArray("{} {}") << int(JsonRpc::ParseError) << null;
        QTest::newRow("trailing comma value") << QByteArray("1,2") << int(JsonRpc::ParseError) << null;
        QTest::newRow("invalid utf8") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}")
                                      << int(JsonRpc::ParseError) << null;
        QTest::newRow("number") << QByteArray("42") << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("string") << QByteArray("\"ping\"") << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("null") << QByteArray("null") << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("array without batching")
            << QByteArray("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]")
            << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("empty array") << QByteArray("[]") << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("missing jsonrpc")
            << QByteArray("{\"id\":3,\"method\":\"ping\"}") << int(JsonRpc::InvalidRequest) << QJsonValue(3);
        QTest::newRow("wrong jsonrpc") << QByteArray("{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"ping\"}")
                                       << int(JsonRpc::InvalidRequest) << QJsonValue(QStringLiteral("a"));
        QTest::newRow("jsonrpc number") << QByteArray("{\"jsonrpc\":2.0,\"id\":4,\"method\":\"ping\"}")
                                        << int(JsonRpc::InvalidRequest) << QJsonValue(4);
        QTest::newRow("missing method")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":5}") << int(JsonRpc::InvalidRequest) << QJsonValue(5);
        QTest::newRow("method number") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":7}")
                                       << int(JsonRpc::InvalidRequest) << QJsonValue(6);
        QTest::newRow("id null") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}")
                                 << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("id fractional") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}")
                                       << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("id object") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}")
                                   << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("id bool") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}")
                                 << int(JsonRpc::InvalidRequest) << null;
        QTest::newRow("params array")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"params\":[1]}")
            << int(JsonRpc::InvalidParams) << QJsonValue(8);
        QTest::newRow("params string")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":\"x\"}")
            << int(JsonRpc::InvalidParams) << QJsonValue(9);
        QTest::newRow("unknown method")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"foo/bar\"}")
            << int(JsonRpc::MethodNotFound) << QJsonValue(10);
        QTest::newRow("server/discover string id")
            << QByteArray(
                   "{\"jsonrpc\":\"2.0\",\"id\":\"server-discover-probe-1\",\"method\":\"server/discover\"}")
            << int(JsonRpc::MethodNotFound) << QJsonValue(QStringLiteral("server-discover-probe-1"));
        QTest::newRow("prompts/list")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"prompts/list\"}")
            << int(JsonRpc::MethodNotFound) << QJsonValue(11);
        QTest::newRow("resources/list")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"resources/list\"}")
            << int(JsonRpc::MethodNotFound) << QJsonValue(12);
        QTest::newRow("logging/setLevel unknown level")
            << QByteArray(
                   "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"logging/setLevel\",\"params\":{\"level\":"
                   "\"loud\"}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(13);
        QTest::newRow("logging/setLevel without level")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"logging/setLevel\",\"params\":{}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(13);
        QTest::newRow("notification method with id")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"notifications/initialized\"}")
            << int(JsonRpc::InvalidRequest) << QJsonValue(14);
        QTest::newRow("tools/call without name")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"tools/call\",\"params\":{}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(15);
        QTest::newRow("tools/call name number")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"tools/call\",\"params\":{\"name\":3}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(16);
        QTest::newRow("tools/call arguments array")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":17,\"method\":\"tools/"
                          "call\",\"params\":{\"name\":\"echo\",\"arguments\":[]}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(17);
        QTest::newRow("tools/call unknown tool")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":\"u\",\"method\":\"tools/"
                          "call\",\"params\":{\"name\":\"nope\"}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(QStringLiteral("u"));
        QTest::newRow("tools/list cursor")
            << QByteArray(
                   "{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"tools/list\",\"params\":{\"cursor\":\"2\"}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(18);
        QTest::newRow("initialize version number")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"initialize\",\"params\":{"
                          "\"protocolVersion\":2025}}")
            << int(JsonRpc::InvalidParams) << QJsonValue(19);
    }
    void errorPaths()
    {
        QFETCH(QByteArray, input);
        QFETCH(int, code);
        QFETCH(QJsonValue, id);
        JsonRpcDispatcher d(&m_tools);
        initialize(d);
        const QJsonObject answer = sendOne(d, input);
        QCOMPARE(answer.value(QLatin1String("jsonrpc")).toString(), QStringLiteral("2.0"));
        QCOMPARE(answer.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt(), code);
        QVERIFY(!answer.value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString()
                     .isEmpty());
        QVERIFY(answer.contains(QLatin1String("id")));
        QCOMPARE(answer.value(QLatin1String("id")), id);
        QVERIFY(!answer.contains(QLatin1String("result")));
        QVERIFY(!answer.value(QLatin1String("error")).toObject().contains(QLatin1String("data")));
    }

    void notificationsAreNeverAnswered_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::newRow("initialized") << QByteArray(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        QTest::newRow("cancelled unknown id") << QByteArray(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":99}}");
        QTest::newRow("cancelled bad params") << QByteArray(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":[1]}}");
        QTest::newRow("unknown notification")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}");
        QTest::newRow("notification bad params")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":5}");
        QTest::newRow("request method without id") << QByteArray("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}");
        QTest::newRow("a response from the client")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        QTest::newRow("an error response from the client")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"x\"}}");
    }
    void notificationsAreNeverAnswered()
    {
        QFETCH(QByteArray, input);
        JsonRpcDispatcher d(&m_tools);
        initialize(d);
        QCOMPARE(send(d, input).size(), 0);
    }

    void idsAreEchoedWithTheirType_data()
    {
        QTest::addColumn<QByteArray>("rawId");
        QTest::newRow("zero") << QByteArray("0");
        QTest::newRow("integer") << QByteArray("7");
        QTest::newRow("negative") << QByteArray("-3");
        QTest::newRow("large") << QByteArray("9007199254740991");
        QTest::newRow("string") << QByteArray("\"7\"");
        QTest::newRow("empty string") << QByteArray("\"\"");
        QTest::newRow("unicode string") << QByteArray("\"\xc3\xa9-\xe2\x82\xac\"");
    }
    void idsAreEchoedWithTheirType()
    {
        QFETCH(QByteArray, rawId);
        JsonRpcDispatcher d(&m_tools);
        QSignalSpy spy(&d, &JsonRpcDispatcher::response);
        d.handleLine("{\"jsonrpc\":\"2.0\",\"id\":" + rawId + ",\"method\":\"ping\"}");
        QCOMPARE(spy.size(), 1);
        const QJsonValue answer = spy.at(0).at(0).value<QJsonValue>();
        // The serialised id is byte-identical to the one we received.
        const QByteArray out = QJsonDocument(answer.toObject()).toJson(QJsonDocument::Compact);
        QVERIFY2(out.contains(QByteArray("\"id\":" + rawId)), out.constData());
        QCOMPARE(answer.toObject().value(QLatin1String("result")).toObject(), QJsonObject());
    }

    void negotiatesProtocolVersion_data()
    {
        QTest::addColumn<QJsonValue>("requested");
        QTest::addColumn<QString>("answered");
        // Written out here, not taken from the code: the handshake-era revisions of the MCP
        // specification (modelcontextprotocol/modelcontextprotocol schema/<version>/), each of
        // which a client may ask for and must get back unchanged.
        const QStringList handshakeEra {QStringLiteral("2024-11-05"), QStringLiteral("2025-03-26"),
                                        QStringLiteral("2025-06-18"), QStringLiteral("2025-11-25")};
        for (const QString &v : handshakeEra)
            QTest::newRow(qPrintable(v)) << QJsonValue(v) << v;
        QTest::newRow("newer") << QJsonValue(QStringLiteral("2099-01-01")) << QStringLiteral("2025-11-25");
        QTest::newRow("older unknown")
            << QJsonValue(QStringLiteral("2024-10-07")) << QStringLiteral("2025-11-25");
        QTest::newRow("missing") << QJsonValue(QJsonValue::Undefined) << QStringLiteral("2025-11-25");
        QTest::newRow("2026-07-28") << QJsonValue(QStringLiteral("2026-07-28"))
                                    << QStringLiteral("2025-11-25");
    }
    void supportsExactlyTheHandshakeEraVersions()
    {
        QCOMPARE(ServerInfo::supportedProtocolVersions(),
                 QStringList({QStringLiteral("2024-11-05"), QStringLiteral("2025-03-26"),
                              QStringLiteral("2025-06-18"), QStringLiteral("2025-11-25")}));
    }

    void negotiatesProtocolVersion()
    {
        QFETCH(QJsonValue, requested);
        QFETCH(QString, answered);
        JsonRpcDispatcher d(&m_tools);
        QJsonObject params {{QStringLiteral("capabilities"), QJsonObject()},
                            {QStringLiteral("clientInfo"),
                             QJsonObject {{QStringLiteral("name"), QStringLiteral("t")},
                                          {QStringLiteral("version"), QStringLiteral("1")}}}};
        if (!requested.isUndefined())
            params.insert(QStringLiteral("protocolVersion"), requested);
        QSignalSpy answeredSpy(&d, &JsonRpcDispatcher::initializeAnswered);
        const QJsonObject answer =
            sendOne(d,
                    line(QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                      {QStringLiteral("id"), 0},
                                      {QStringLiteral("method"), QStringLiteral("initialize")},
                                      {QStringLiteral("params"), params}}));
        const QJsonObject result = answer.value(QLatin1String("result")).toObject();
        QCOMPARE(answer.value(QLatin1String("id")), QJsonValue(0));
        QCOMPARE(result.value(QLatin1String("protocolVersion")).toString(), answered);
        QCOMPARE(d.protocolVersion(), answered);
        QCOMPARE(answeredSpy.size(), 1);
        QCOMPARE(result.value(QLatin1String("serverInfo")).toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("claude-peers"));
        const QJsonObject caps = result.value(QLatin1String("capabilities")).toObject();
        QVERIFY(caps.value(QLatin1String("tools")).isObject());
        QVERIFY(caps.value(QLatin1String("experimental"))
                    .toObject()
                    .value(QLatin1String("claude/channel"))
                    .isObject());
        QVERIFY(!caps.contains(QLatin1String("prompts")));
        QVERIFY(!caps.contains(QLatin1String("resources")));
        QVERIFY(caps.value(QLatin1String("logging")).isObject()); // notifications/message for trouble
        const QString instructions = result.value(QLatin1String("instructions")).toString();
        QVERIFY(!instructions.isEmpty());
        QVERIFY(instructions.size() <= 2048);
    }

    void instructionsFitClaudeCodesLimit()
    {
        QVERIFY2(ServerInfo::instructions().size() <= 2048,
                 qPrintable(QString::number(ServerInfo::instructions().size())));
        for (const char *word : {"send_message", "check_messages", "set_summary", "set_name", "from_id",
                                 "list_peers", "broadcast_message", "whoami", "<channel"})
            QVERIFY2(ServerInfo::instructions().contains(QLatin1String(word)), word);
    }

    void setLevelIsAnsweredAndReported()
    {
        JsonRpcDispatcher d(&m_tools);
        initialize(d);
        QSignalSpy levels(&d, &JsonRpcDispatcher::logLevelSet);
        const QJsonObject answer = sendOne(d,
                                           "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"logging/setLevel\","
                                           "\"params\":{\"level\":\"warning\"}}");
        QCOMPARE(answer.value(QLatin1String("result")), QJsonValue(QJsonObject()));
        QCOMPARE(levels.size(), 1);
        QCOMPARE(levels.at(0).at(0).toString(), QStringLiteral("warning"));
    }

    void instructionsAreWordedForTheClient_data()
    {
        QTest::addColumn<QString>("client");
        QTest::addColumn<bool>("claudeCode");
        QTest::newRow("claude-code") << QStringLiteral("claude-code") << true;
        QTest::newRow("opencode") << QStringLiteral("opencode") << false;
        QTest::newRow("other") << QStringLiteral("mcp-inspector") << false;
    }
    void instructionsAreWordedForTheClient()
    {
        QFETCH(QString, client);
        QFETCH(bool, claudeCode);
        JsonRpcDispatcher d(&m_tools);
        const QJsonObject params {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                                  {QStringLiteral("capabilities"), QJsonObject()},
                                  {QStringLiteral("clientInfo"),
                                   QJsonObject {{QStringLiteral("name"), client},
                                                {QStringLiteral("version"), QStringLiteral("1")}}}};
        const QJsonObject answer =
            sendOne(d,
                    line(QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                      {QStringLiteral("id"), 1},
                                      {QStringLiteral("method"), QStringLiteral("initialize")},
                                      {QStringLiteral("params"), params}}));
        const QString text =
            answer.value(QLatin1String("result")).toObject().value(QLatin1String("instructions")).toString();
        QVERIFY(text.size() <= 2048);
        QCOMPARE(text.contains(QLatin1String("<channel")), claudeCode);
        QCOMPARE(text.contains(QLatin1String("/rename")), claudeCode);
        QVERIFY(!text.contains(QLatin1String("Claude Code instances")));
        QVERIFY(text.contains(QLatin1String("check_messages")));
        QVERIFY(text.contains(QLatin1String("QUEUED PEER MESSAGES")));
    }

    void toolsListIsOnePage()
    {
        JsonRpcDispatcher d(&m_tools);
        initialize(d);
        const QJsonObject answer =
            sendOne(d, QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}"));
        const QJsonObject result = answer.value(QLatin1String("result")).toObject();
        QCOMPARE(result.value(QLatin1String("tools")).toArray().size(), 2);
        QVERIFY(!result.contains(QLatin1String("nextCursor")));
        // No params at all is fine too.
        QVERIFY(sendOne(d, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")
                    .contains(QLatin1String("result")));
    }

    void toolsCallAnswersWithTheToolResult()
    {
        JsonRpcDispatcher d(&m_tools);
        initialize(d);
        QSignalSpy called(&d, &JsonRpcDispatcher::toolCalled);
        const QJsonObject answer =
            sendOne(d,
                    "{\"jsonrpc\":\"2.0\",\"id\":\"c1\",\"method\":\"tools/"
                    "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}}");
        QCOMPARE(answer.value(QLatin1String("id")).toString(), QStringLiteral("c1"));
        QCOMPARE(answer.value(QLatin1String("result"))
                     .toObject()
                     .value(QLatin1String("content"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QLatin1String("text"))
                     .toString(),
                 QStringLiteral("hi"));
        QCOMPARE(called.size(), 1);
        // arguments: null is treated as absent.
        QVERIFY(sendOne(d,
                        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/"
                        "call\",\"params\":{\"name\":\"echo\",\"arguments\":null}}")
                    .contains(QLatin1String("result")));
    }

    void pingIsAnsweredWhileAToolRuns()
    {
        JsonRpcDispatcher d(&m_tools);
        initialize(d);
        QSignalSpy spy(&d, &JsonRpcDispatcher::response);
        d.handleLine(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        d.handleLine("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.at(0).at(0).value<QJsonValue>().toObject().value(QLatin1String("id")), QJsonValue(2));
        QCOMPARE(d.requestsInFlight(), 1);
        m_tools.pending.takeFirst()();
        QCOMPARE(spy.size(), 2);
        QCOMPARE(spy.at(1).at(0).value<QJsonValue>().toObject().value(QLatin1String("id")), QJsonValue(1));
        QCOMPARE(d.requestsInFlight(), 0);
    }

    void cancelledRequestGetsNoAnswer()
    {
        JsonRpcDispatcher d(&m_tools);
        initialize(d);
        QSignalSpy spy(&d, &JsonRpcDispatcher::response);
        d.handleLine(
            "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        // A cancel for the integer 1 must not hit the string "x", nor a string "1" an integer.
        d.handleLine(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"y\"}}");
        d.handleLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
                     "cancelled\",\"params\":{\"requestId\":\"x\",\"reason\":\"user\"}}");
        QCOMPARE(spy.size(), 0);
        m_tools.pending.takeFirst()();
        QCOMPARE(spy.size(), 0);
        QCOMPARE(d.requestsInFlight(), 0);
    }

    void initializedIsSignalledOnce()
    {
        JsonRpcDispatcher d(&m_tools);
        QSignalSpy spy(&d, &JsonRpcDispatcher::initialized);
        initialize(d);
        QVERIFY(!d.isInitialized());
        send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        send(d, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        QVERIFY(d.isInitialized());
        QCOMPARE(spy.size(), 1);
    }

    void servesToolsBeforeInitialize()
    {
        // Lenient: a client that skips the handshake still gets answers.
        JsonRpcDispatcher d(&m_tools);
        QVERIFY(sendOne(d, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")
                    .contains(QLatin1String("result")));
    }

    void batchesOnlyIn20250326()
    {
        JsonRpcDispatcher d(&m_tools);
        initialize(d, QStringLiteral("2025-03-26"));
        const QList<QJsonValue> out =
            send(d,
                 "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                 "{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"nope\"},"
                 "5,"
                 "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/"
                 "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"t\"}}}]");
        QCOMPARE(out.size(), 1);
        QVERIFY(out.first().isArray());
        const QJsonArray answers = out.first().toArray();
        QCOMPARE(answers.size(), 4); // the notification is not answered
        QCOMPARE(answers.at(0).toObject().value(QLatin1String("id")), QJsonValue(1));
        QCOMPARE(answers.at(1)
                     .toObject()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("code"))
                     .toInt(),
                 int(JsonRpc::MethodNotFound));
        QCOMPARE(answers.at(2)
                     .toObject()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("code"))
                     .toInt(),
                 int(JsonRpc::InvalidRequest));
        QCOMPARE(answers.at(3).toObject().value(QLatin1String("id")), QJsonValue(3));
        QVERIFY(d.isInitialized());

        // Only notifications: no answer at all.
        QCOMPARE(send(d, "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]").size(), 0);
        // Empty batch: one Invalid Request.
        QCOMPARE(
            sendOne(d, "[]").value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt(),
            int(JsonRpc::InvalidRequest));
    }

    void batchWaitsForItsSlowestElement()
    {
        JsonRpcDispatcher d(&m_tools);
        initialize(d, QStringLiteral("2025-03-26"));
        QSignalSpy spy(&d, &JsonRpcDispatcher::response);
        d.handleLine(
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}},"
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
        QCOMPARE(spy.size(), 0);
        m_tools.pending.takeFirst()();
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.at(0).at(0).value<QJsonValue>().toArray().size(), 2);
    }

    void lineTooLongIsAnInvalidRequest()
    {
        JsonRpcDispatcher d(&m_tools);
        QSignalSpy spy(&d, &JsonRpcDispatcher::response);
        d.handleLineTooLong(16 * 1024 * 1024);
        QCOMPARE(spy.size(), 1);
        const QJsonObject answer = spy.at(0).at(0).value<QJsonValue>().toObject();
        QCOMPARE(answer.value(QLatin1String("id")), QJsonValue(QJsonValue::Null));
        QCOMPARE(answer.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt(),
                 int(JsonRpc::InvalidRequest));
        QVERIFY(answer.value(QLatin1String("error"))
                    .toObject()
                    .value(QLatin1String("message"))
                    .toString()
                    .startsWith(QLatin1String("Line too long (limit 16777216")));
    }

    void answerAfterDispatcherIsGoneIsDropped()
    {
        FakeTools tools;
        {
            JsonRpcDispatcher d(&tools);
            d.handleLine(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        }
        tools.pending.takeFirst()(); // must not crash
    }
};

QTEST_GUILESS_MAIN(tst_JsonRpcDispatcher)
#include "tst_jsonrpcdispatcher.moc"
