// The helper's tool registry as another module uses it (samplemodule.h), driven through the
// real JSON-RPC dispatcher: tools/list, answers at once and later, exactly one answer,
// cancellation by the client and by shutdown, and isError results in plain words.
#include "mcp_stdio/jsonrpcdispatcher.h"
#include "mcp_stdio/toolregistry.h"
#include "mcp_stdio/toolschema.h"
#include "tests/mcp_stdio/samplemodule.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace Mcp;

namespace {

QByteArray toolCall(int id, const QString &name, const QJsonObject &arguments = {})
{
    return QJsonDocument(QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                      {QStringLiteral("id"), id},
                                      {QStringLiteral("method"), QStringLiteral("tools/call")},
                                      {QStringLiteral("params"),
                                       QJsonObject {{QStringLiteral("name"), name},
                                                    {QStringLiteral("arguments"), arguments}}}})
        .toJson(QJsonDocument::Compact);
}

QByteArray cancel(int id)
{
    return QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
                             "\"requestId\":") +
        QByteArray::number(id) + QByteArrayLiteral(",\"reason\":\"user\"}}");
}

QJsonObject resultOf(const QJsonValue &message)
{
    return message.toObject().value(QLatin1String("result")).toObject();
}

QString textOf(const QJsonObject &result)
{
    return result.value(QLatin1String("content"))
        .toArray()
        .at(0)
        .toObject()
        .value(QLatin1String("text"))
        .toString();
}

// A tool whose name the test picks (for the refusals).
class NamedTool final : public Tool
{
public:
    explicit NamedTool(QString name) : m_name(std::move(name)) { }
    QString name() const override { return m_name; }
    QString description(ClientKind) const override { return {}; }
    QJsonObject inputSchema() const override { return ToolSchema::object(); }
    void call(const QJsonObject &, const ToolContext &, ToolReply reply) override { reply.text(m_name); }

private:
    QString m_name;
};

// Answers twice, or keeps no reply at all: the bugs the registry must absorb.
class CarelessTool final : public Tool
{
public:
    QString name() const override { return QStringLiteral("careless"); }
    QString description(ClientKind) const override { return {}; }
    QJsonObject inputSchema() const override { return ToolSchema::object(); }
    void call(const QJsonObject &arguments, const ToolContext &, ToolReply reply) override
    {
        if (arguments.value(QLatin1String("twice")).toBool()) {
            reply.text(QStringLiteral("first"));
            reply.text(QStringLiteral("second"));
        }
        // else: the reply is dropped unanswered
    }
};

} // namespace

class tst_ToolRegistry : public QObject
{
    Q_OBJECT

    // The registry with the sample module behind a dispatcher; answers collected.
    struct Helper
    {
        ToolRegistry tools;
        SampleModule::Probe probe;
        JsonRpcDispatcher dispatcher {&tools};
        QList<QJsonValue> answers;

        explicit Helper(const QString &clientName = QStringLiteral("tst"))
        {
            tools.setClientName(clientName);
            SampleModule::addTools(tools, probe);
            QObject::connect(&dispatcher, &JsonRpcDispatcher::response, &dispatcher,
                             [this](const QJsonValue &message) { answers.append(message); });
        }
        QJsonValue answerFor(int id) const
        {
            for (const QJsonValue &a : answers) {
                if (a.toObject().value(QLatin1String("id")) == QJsonValue(id))
                    return a;
            }
            return {};
        }
    };

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void listsToolsInTheOrderAddedWordedForTheClient()
    {
        Helper claude(QStringLiteral("claude-code"));
        claude.tools.add(std::make_unique<NamedTool>(QStringLiteral("zzz_last")));
        const QJsonArray list = claude.tools.toolList();
        QCOMPARE(list.size(), 3);
        QCOMPARE(list.at(0).toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("sample_echo"));
        QCOMPARE(list.at(1).toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("sample_later"));
        QCOMPARE(list.at(2).toObject().value(QLatin1String("name")).toString(), QStringLiteral("zzz_last"));
        QCOMPARE(list.at(0).toObject().value(QLatin1String("description")).toString(),
                 QStringLiteral("Echo, worded for Claude Code."));
        QCOMPARE(list.at(0).toObject().value(QLatin1String("inputSchema")).toObject(),
                 SampleModule::EchoTool().inputSchema());

        Helper other(QStringLiteral("opencode"));
        QCOMPARE(other.tools.toolList().at(0).toObject().value(QLatin1String("description")).toString(),
                 QStringLiteral("Echo, worded for any client."));
    }

    void refusesBadOrTakenNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        QTest::newRow("taken") << QStringLiteral("sample_echo") << QStringLiteral("already registered");
        QTest::newRow("empty") << QString() << QStringLiteral("use 1 to 64");
        QTest::newRow("dot") << QStringLiteral("sample.echo") << QStringLiteral("use 1 to 64");
        QTest::newRow("space") << QStringLiteral("sample echo") << QStringLiteral("use 1 to 64");
        QTest::newRow("non-ascii") << QStringLiteral("sample_\u00e9") << QStringLiteral("use 1 to 64");
        QTest::newRow("65 chars") << QString(65, QLatin1Char('a')) << QStringLiteral("use 1 to 64");
    }
    void refusesBadOrTakenNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, reason);
        Helper h;
        const auto added = h.tools.add(std::make_unique<NamedTool>(name));
        QVERIFY(!added);
        QVERIFY2(added.error().contains(reason), qPrintable(added.error()));
        QCOMPARE(h.tools.toolList().size(), 2);
        QVERIFY(h.tools.add(std::make_unique<NamedTool>(QString(64, QLatin1Char('a')))));
        QVERIFY(h.tools.add(std::make_unique<NamedTool>(QStringLiteral("A-z_0-9"))));
    }

    void answersAtOnce()
    {
        Helper h;
        h.dispatcher.handleLine(
            toolCall(1, QStringLiteral("sample_echo"), {{QStringLiteral("text"), QStringLiteral("hi")}}));
        QCOMPARE(h.answers.size(), 1);
        QCOMPARE(textOf(resultOf(h.answerFor(1))), QStringLiteral("hi (for tst)"));
        QVERIFY(!resultOf(h.answerFor(1)).contains(QLatin1String("isError")));
        QCOMPARE(h.tools.callsInFlight(), 0);
    }

    void answersLater()
    {
        Helper h;
        h.dispatcher.handleLine(
            toolCall(1, QStringLiteral("sample_later"),
                     {{QStringLiteral("text"), QStringLiteral("soon")}, {QStringLiteral("ms"), 10}}));
        QCOMPARE(h.answers.size(), 0);
        QCOMPARE(h.tools.callsInFlight(), 1);
        h.dispatcher.handleLine(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"); // not blocked by the call
        QCOMPARE(h.answers.size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(h.answers.size(), 2, TestSupport::scaled(5000));
        QCOMPARE(textOf(resultOf(h.answerFor(1))), QStringLiteral("soon"));
        QCOMPARE(h.tools.callsInFlight(), 0);
        QCOMPARE(h.dispatcher.requestsInFlight(), 0);
    }

    void faultsAreIsErrorResultsInPlainWords()
    {
        Helper h;
        h.dispatcher.handleLine(toolCall(1, QStringLiteral("sample_echo"), {{QStringLiteral("text"), 5}}));
        const QJsonObject result = resultOf(h.answerFor(1));
        QCOMPARE(result.value(QLatin1String("isError")), QJsonValue(true));
        QCOMPARE(textOf(result), QStringLiteral("Missing required parameter: text (the words to echo back)"));
        QVERIFY(!h.answerFor(1).toObject().contains(QLatin1String("error"))); // not a protocol error
    }

    void everyAnswerPassesTheResultFilter()
    {
        Helper h;
        h.tools.setResultFilter([](QJsonObject result) {
            result.insert(QStringLiteral("filtered"), true);
            return result;
        });
        h.dispatcher.handleLine(
            toolCall(1, QStringLiteral("sample_echo"), {{QStringLiteral("text"), QStringLiteral("a")}}));
        h.dispatcher.handleLine(toolCall(2, QStringLiteral("sample_echo")));
        h.dispatcher.handleLine(toolCall(3, QStringLiteral("sample_later")));
        h.probe.held.takeFirst().text(QStringLiteral("b"));
        for (int id : {1, 2, 3})
            QCOMPARE(resultOf(h.answerFor(id)).value(QLatin1String("filtered")), QJsonValue(true));
    }

    void onlyTheFirstAnswerCounts()
    {
        Helper h;
        h.tools.add(std::make_unique<CarelessTool>());
        h.dispatcher.handleLine(toolCall(1, QStringLiteral("careless"), {{QStringLiteral("twice"), true}}));
        QCOMPARE(h.answers.size(), 1);
        QCOMPARE(textOf(resultOf(h.answerFor(1))), QStringLiteral("first"));

        h.dispatcher.handleLine(toolCall(2, QStringLiteral("sample_later")));
        const Mcp::ToolReply reply = h.probe.held.takeFirst();
        reply.text(QStringLiteral("one"));
        reply.text(QStringLiteral("two"));
        QCOMPARE(h.answers.size(), 2);
        QCOMPARE(textOf(resultOf(h.answerFor(2))), QStringLiteral("one"));
        QVERIFY(reply.isAnswered());
    }

    void aCallDroppedUnansweredGetsAnErrorNotSilence()
    {
        Helper h;
        h.tools.add(std::make_unique<CarelessTool>());
        h.dispatcher.handleLine(toolCall(1, QStringLiteral("careless")));
        QTRY_COMPARE_WITH_TIMEOUT(h.answers.size(), 1, TestSupport::scaled(5000));
        const QJsonObject result = resultOf(h.answerFor(1));
        QCOMPARE(result.value(QLatin1String("isError")), QJsonValue(true));
        QVERIFY2(textOf(result).startsWith(QLatin1String("The careless tool ended without an answer")),
                 qPrintable(textOf(result)));
        QCOMPARE(h.dispatcher.requestsInFlight(), 0);
    }

    void clientCancellationStopsTheToolAndDropsItsAnswer()
    {
        Helper h;
        const int slowMs = TestSupport::scaled(300);
        h.dispatcher.handleLine(
            toolCall(7, QStringLiteral("sample_later"),
                     {{QStringLiteral("text"), QStringLiteral("late")}, {QStringLiteral("ms"), slowMs}}));
        QCOMPARE(h.probe.timersRunning, 1);
        h.dispatcher.handleLine(cancel(8)); // another id: nothing happens
        QCOMPARE(h.probe.cancelled, 0);
        h.dispatcher.handleLine(cancel(7));
        QCOMPARE(h.probe.cancelled, 1);
        QCOMPARE(h.probe.timersRunning, 0);
        QCOMPARE(h.tools.callsInFlight(), 0);
        QCOMPARE(h.dispatcher.requestsInFlight(), 0);
        // Long past the moment the tool would have answered: still no answer.
        QTest::qWait(3 * slowMs);
        QCOMPARE(h.answers.size(), 0);
        // A held reply answered after its cancellation is dropped too.
        h.dispatcher.handleLine(toolCall(9, QStringLiteral("sample_later")));
        h.dispatcher.handleLine(cancel(9));
        QCOMPARE(h.probe.cancelled, 2);
        h.probe.held.takeFirst().text(QStringLiteral("too late"));
        QCOMPARE(h.answers.size(), 0);
    }

    void cancellationCompletesABatch()
    {
        Helper h;
        h.dispatcher.handleLine("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                                "\"protocolVersion\":\"2025-03-26\"}}");
        h.answers.clear();
        h.dispatcher.handleLine('[' + toolCall(1, QStringLiteral("sample_later")) + ',' +
                                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
        QCOMPARE(h.answers.size(), 0); // the batch waits for its slowest element
        h.dispatcher.handleLine(cancel(1));
        QCOMPARE(h.answers.size(), 1);
        const QJsonArray batch = h.answers.first().toArray();
        QCOMPARE(batch.size(), 1); // the ping's answer; none for the cancelled call
        QCOMPARE(batch.at(0).toObject().value(QLatin1String("id")), QJsonValue(2));
    }

    void onCancelledAfterTheCancellationRunsAtOnce()
    {
        Helper h;
        h.dispatcher.handleLine(toolCall(1, QStringLiteral("sample_later")));
        h.dispatcher.handleLine(cancel(1));
        const Mcp::ToolReply reply = h.probe.held.takeFirst();
        QVERIFY(reply.isCancelled());
        int ran = 0;
        QObject context;
        reply.onCancelled(&context, [&ran] { ++ran; });
        QCOMPARE(ran, 1);
    }

    void shutdownCancelsCallsInFlightAndRunsNoMore()
    {
        Helper h;
        h.dispatcher.handleLine(toolCall(1, QStringLiteral("sample_later")));
        h.dispatcher.handleLine(
            toolCall(2, QStringLiteral("sample_later"), {{QStringLiteral("ms"), TestSupport::scaled(200)}}));
        QCOMPARE(h.tools.callsInFlight(), 2);
        h.tools.shutdown();
        QCOMPARE(h.probe.cancelled, 2);
        QCOMPARE(h.probe.timersRunning, 0);
        QCOMPARE(h.tools.callsInFlight(), 0);
        h.probe.held.takeFirst().text(QStringLiteral("after shutdown"));
        QCOMPARE(h.answers.size(), 0);

        h.dispatcher.handleLine(
            toolCall(3, QStringLiteral("sample_echo"), {{QStringLiteral("text"), QStringLiteral("x")}}));
        const QJsonObject refused = resultOf(h.answerFor(3));
        QCOMPARE(refused.value(QLatin1String("isError")), QJsonValue(true));
        QCOMPARE(textOf(refused), QStringLiteral("claude-peers is shutting down; sample_echo was not run."));
    }

    void anAnswerAfterTheRegistryIsGoneIsDropped()
    {
        SampleModule::Probe probe;
        QList<QJsonValue> answers;
        {
            ToolRegistry tools;
            SampleModule::addTools(tools, probe);
            JsonRpcDispatcher d(&tools);
            connect(&d, &JsonRpcDispatcher::response, this,
                    [&answers](const QJsonValue &a) { answers.append(a); });
            d.handleLine(toolCall(1, QStringLiteral("sample_later")));
        }
        probe.held.takeFirst().text(QStringLiteral("nobody listens")); // must not crash
        QCoreApplication::processEvents();
        QCOMPARE(answers.size(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_ToolRegistry)
#include "tst_toolregistry.moc"
