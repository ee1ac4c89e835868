// The helper's openchamber tool: the real claude-peers-mcp process (driven over stdio) against
// an in-process broker with the ControlModule and a fake service. tools/list shows it with the
// contract's schema; a call reaches /agent-tool with the session's credential and cwd and
// answers the envelope; a failure is an isError envelope; notifications/cancelled cancels the
// action in the broker; other tools still answer while an action waits.
#include "openchamber/controlmodule.h"
#include "tests/broker/brokerharness.h"
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/openchamber/adapters/fakecontrolservice.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

class Fixture
{
public:
    BrokerHarness harness;
    FakeControlService *service = nullptr;
    std::unique_ptr<McpClient> client;

    Fixture()
    {
        auto fake = std::make_unique<FakeControlService>();
        service = fake.get();
        harness.server().addModule(
            std::make_shared<ControlModule>(std::make_unique<FakeBackend>(std::move(fake))));
    }

    bool start()
    {
        if (!harness.start())
            return false;
        QProcessEnvironment env = helperEnvironment(harness.home(), false);
        env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(harness.port()));
        env.insert(u"CLAUDE_PEERS_STARTUP_HELLO"_s, u"false"_s);
        client = std::make_unique<McpClient>(env);
        return client->start() && client->initialize();
    }

    QJsonObject envelope(const QJsonObject &toolResult) const
    {
        return QJsonDocument::fromJson(McpClient::text(toolResult).toUtf8()).object();
    }
};

QJsonObject args(const QString &action, const QJsonObject &parameters = {})
{
    return {{u"action"_s, action}, {u"parameters"_s, parameters}};
}

} // namespace

class tst_ControlTool : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listedWithTheContractSchema()
    {
        Fixture f;
        QVERIFY(f.start());
        const QJsonArray tools =
            f.client->call(u"tools/list"_s).value(u"result"_s).toObject().value(u"tools"_s).toArray();
        QJsonObject tool;
        QStringList names;
        for (const QJsonValue &t : tools) {
            names << t.toObject().value(u"name"_s).toString();
            if (names.last() == u"openchamber"_s)
                tool = t.toObject();
        }
        QCOMPARE(names.last(), u"openchamber"_s); // after the nine built-in tools
        QCOMPARE(names.size(), 10);
        const QJsonObject properties =
            tool.value(u"inputSchema"_s).toObject().value(u"properties"_s).toObject();
        const QJsonArray actions = properties.value(u"action"_s).toObject().value(u"enum"_s).toArray();
        QCOMPARE(actions.size(), 13);
        QVERIFY(!actions.contains(u"schedule.status"_s));
        QVERIFY(actions.contains(u"session.create"_s));
        const QJsonObject parameters = properties.value(u"parameters"_s).toObject();
        QCOMPARE(parameters.value(u"additionalProperties"_s).toBool(true), false);
        for (const char *key :
             {"projectId", "directory", "sessionId", "prompt", "model", "agent", "variant", "wait", "timeout",
              "lastAssistant", "cron", "timezone", "disabled", "peer", "peers"})
            QVERIFY2(parameters.value(u"properties"_s).toObject().contains(QLatin1String(key)), key);
    }

    void callAnswersTheEnvelope()
    {
        Fixture f;
        QVERIFY(f.start());
        const QJsonObject result {{u"sessionId"_s, u"ses_1"_s}, {u"promptDispatched"_s, true}};
        f.service->next = result;
        const QJsonObject answer =
            f.client->callTool(u"openchamber"_s, args(u"session.create"_s, {{u"prompt"_s, u"hello"_s}}));
        QVERIFY2(!McpClient::isError(answer), qPrintable(McpClient::text(answer)));
        const QJsonObject e = f.envelope(answer);
        QCOMPARE(e.value(u"schemaVersion"_s).toInt(), 1);
        QCOMPARE(e.value(u"ok"_s).toBool(), true);
        QCOMPARE(e.value(u"action"_s).toString(), u"session.create"_s);
        QCOMPARE(e.value(u"data"_s).toObject(), result);
        QCOMPARE(f.service->calls->size(), 1);
        const auto &call = *f.service->calls->first();
        QCOMPARE(call.input.value(u"prompt"_s).toString(), u"hello"_s);
        // The context directory is the session's working directory (the helper's cwd).
        QCOMPARE(QDir(call.contextDirectory).canonicalPath(), QDir::current().canonicalPath());
    }

    void failuresAreErrorEnvelopes()
    {
        Fixture f;
        QVERIFY(f.start());
        f.service->next = std::unexpected(ControlError {404, u"Task not found"_s, {}});
        const QJsonObject answer =
            f.client->callTool(u"openchamber"_s, args(u"schedule.run"_s, {{u"taskId"_s, u"t"_s}}));
        QVERIFY(McpClient::isError(answer));
        const QJsonObject e = f.envelope(answer);
        QCOMPARE(e.value(u"ok"_s).toBool(true), false);
        QCOMPARE(e.value(u"error"_s).toObject(),
                 (QJsonObject {{u"message"_s, u"Task not found"_s}, {u"kind"_s, u"usage"_s}}));

        const QJsonObject refused = f.client->callTool(u"openchamber"_s, args(u"schedule.status"_s));
        QVERIFY(McpClient::isError(refused));
        QVERIFY(f.envelope(refused)
                    .value(u"error"_s)
                    .toObject()
                    .value(u"message"_s)
                    .toString()
                    .startsWith(u"Unsupported OpenChamber action: schedule.status"_s));
        QCOMPARE(f.service->calls->size(), 1);

        const QJsonObject missing = f.client->callTool(u"openchamber"_s, QJsonObject {});
        QVERIFY(McpClient::isError(missing));
        QCOMPARE(f.envelope(missing).value(u"error"_s).toObject().value(u"kind"_s).toString(), u"usage"_s);
    }

    void cancelledCallCancelsTheAction()
    {
        Fixture f;
        QVERIFY(f.start());
        f.service->hold = true;
        const int id = f.client->request(
            u"tools/call"_s,
            {{u"name"_s, u"openchamber"_s},
             {u"arguments"_s, args(u"session.messages"_s, {{u"sessionId"_s, u"s"_s}, {u"wait"_s, true}})}});
        QTRY_COMPARE_WITH_TIMEOUT(f.service->calls->size(), 1, TestSupport::scaled(10000));
        // Other tools answer while the action waits (it has a connection of its own).
        const QJsonObject who = f.client->callTool(u"whoami"_s);
        QVERIFY2(McpClient::text(who).startsWith(u"ID: "_s), qPrintable(McpClient::text(who)));
        f.client->sendRaw(QJsonDocument(QJsonObject {{u"jsonrpc"_s, u"2.0"_s},
                                                     {u"method"_s, u"notifications/cancelled"_s},
                                                     {u"params"_s, QJsonObject {{u"requestId"_s, id}}}})
                              .toJson(QJsonDocument::Compact));
        QTRY_VERIFY_WITH_TIMEOUT(f.service->calls->first()->cancelled, TestSupport::scaled(10000));
        // MCP: no answer to a cancelled request.
        QVERIFY(!f.client->waitResponse(id, TestSupport::scaled(500)));
    }
};

QTEST_GUILESS_MAIN(tst_ControlTool)
#include "tst_controltool.moc"
