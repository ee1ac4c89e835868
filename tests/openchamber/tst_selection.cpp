#include "openchamber/controlinput.h"
#include "openchamber/controlsettings.h"
#include "openchamber/messageprojection.h"
#include "openchamber/selection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace OpenChamber;

namespace {

QJsonArray array(const char *json)
{
    return QJsonDocument::fromJson(json).array();
}

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

QString describe(const Selection &s)
{
    return (s.model ? s.model->toString() : QStringLiteral("-")) + QLatin1Char('|') + s.agent +
        QLatin1Char('|') + s.variant;
}

const char *kProviders = R"([
  {"id":"openai","models":{"gpt-5.5":{"id":"gpt-5.5","variants":{"high":{},"low":{}}},"gpt-4":{"id":"gpt-4"}}},
  {"id":"opencode","models":[{"id":"big-pickle"}]},
  {"id":"mock","models":{"mock-model":{"id":"mock-model"}}}])";

} // namespace

class tst_Selection : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaults_data();
    void defaults();
    void validation_data();
    void validation();
    void lastUserSelectionSkipsMessagesWithoutModel();
    void newestIdsBreakTiesByListOrder();
    void modelRefParsing_data();
    void modelRefParsing();
    void settingsIgnoreMalformedEntries();
};

void tst_Selection::defaults_data()
{
    QTest::addColumn<QJsonObject>("settings"); // default_model, default_variant, default_agent
    QTest::addColumn<QJsonArray>("agents");
    QTest::addColumn<QJsonArray>("providers");
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<QString>("expected");
    const QJsonArray providers = array(kProviders);
    const QJsonArray agents = array(R"([{"name":"plan","mode":"primary"},{"name":"build","mode":"primary"},
        {"name":"explore","mode":"subagent"},{"name":"secret","mode":"primary","hidden":true,"model":{"providerID":"mock","modelID":"mock-model"},"variant":"x"}])");
    QTest::newRow("settings model+variant")
        << object(R"({"default_model":"openai/gpt-5.5","default_variant":"high"})") << agents << providers
        << QJsonObject {} << QStringLiteral("openai/gpt-5.5|build|high");
    QTest::newRow("settings variant invalid")
        << object(R"({"default_model":"openai/gpt-4","default_variant":"high"})") << agents << providers
        << QJsonObject {} << QStringLiteral("openai/gpt-4|build|");
    QTest::newRow("settings model missing → big-pickle")
        << object(R"({"default_model":"x/y"})") << agents << providers << QJsonObject {}
        << QStringLiteral("opencode/big-pickle|build|");
    QTest::newRow("settings agent any mode") << object(R"({"default_agent":"secret"})") << agents << providers
                                             << QJsonObject {} << QStringLiteral("mock/mock-model|secret|");
    QTest::newRow("config default_agent primary")
        << QJsonObject {} << agents << providers << object(R"({"default_agent":"plan"})")
        << QStringLiteral("opencode/big-pickle|plan|");
    QTest::newRow("config default_agent hidden refused")
        << QJsonObject {} << agents << providers << object(R"({"default_agent":"secret"})")
        << QStringLiteral("opencode/big-pickle|build|");
    QTest::newRow("config model") << QJsonObject {} << agents << providers
                                  << object(R"({"model":"mock/mock-model"})")
                                  << QStringLiteral("mock/mock-model|build|");
    QTest::newRow("first primary")
        << QJsonObject {} << array(R"([{"name":"explore","mode":"subagent"},{"name":"a","mode":"all"}])")
        << providers << QJsonObject {} << QStringLiteral("opencode/big-pickle|a|");
    QTest::newRow("first agent") << QJsonObject {} << array(R"([{"name":"explore","mode":"subagent"}])")
                                 << providers << QJsonObject {}
                                 << QStringLiteral("opencode/big-pickle|explore|");
    QTest::newRow("first provider's first model")
        << QJsonObject {} << QJsonArray {} << array(R"([{"id":"p","models":{"m":{}}}])") << QJsonObject {}
        << QStringLiteral("p/m||");
    QTest::newRow("nothing") << QJsonObject {} << QJsonArray {} << QJsonArray {} << QJsonObject {}
                             << QStringLiteral("-||");
}

void tst_Selection::defaults()
{
    QFETCH(QJsonObject, settings);
    QFETCH(QJsonArray, agents);
    QFETCH(QJsonArray, providers);
    QFETCH(QJsonObject, config);
    QFETCH(QString, expected);
    const ControlSettings s = ControlSettings::fromConfig({{QStringLiteral("openchamber"), settings}});
    QCOMPARE(describe(resolveDefaultSelection(s, {providers, agents, config})), expected);
}

void tst_Selection::validation_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("agent");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<bool>("emptyLists");
    QTest::addColumn<QString>("error");
    QTest::newRow("ok") << QStringLiteral("openai/gpt-5.5") << QStringLiteral("build")
                        << QStringLiteral("high") << false << QStringLiteral("");
    QTest::newRow("array models") << QStringLiteral("opencode/big-pickle") << QStringLiteral("")
                                  << QStringLiteral("") << false << QStringLiteral("");
    QTest::newRow("hidden agent accepted") << QStringLiteral("") << QStringLiteral("secret")
                                           << QStringLiteral("") << false << QStringLiteral("");
    QTest::newRow("variant without model unchecked")
        << QStringLiteral("") << QStringLiteral("") << QStringLiteral("ultra") << false << QStringLiteral("");
    QTest::newRow("default is no variant")
        << QStringLiteral("openai/gpt-5.5") << QStringLiteral("") << QStringLiteral("default") << false
        << QStringLiteral("Unknown variant 'default' for model 'openai/gpt-5.5'");
    QTest::newRow("inherited key is no variant")
        << QStringLiteral("openai/gpt-5.5") << QStringLiteral("") << QStringLiteral("toString") << false
        << QStringLiteral("Unknown variant 'toString' for model 'openai/gpt-5.5'");
    QTest::newRow("unknown agent") << QStringLiteral("") << QStringLiteral("nope") << QStringLiteral("")
                                   << false << QStringLiteral("Unknown agent 'nope' for /d");
    QTest::newRow("subagent") << QStringLiteral("") << QStringLiteral("explore") << QStringLiteral("")
                              << false
                              << QStringLiteral(
                                     "Agent 'explore' is a subagent and cannot receive a prompt directly");
    QTest::newRow("unknown model") << QStringLiteral("openai/gpt-9") << QStringLiteral("")
                                   << QStringLiteral("") << false
                                   << QStringLiteral("Unknown model 'openai/gpt-9' for /d");
    QTest::newRow("case matters") << QStringLiteral("OpenAI/gpt-5.5") << QStringLiteral("")
                                  << QStringLiteral("") << false
                                  << QStringLiteral("Unknown model 'OpenAI/gpt-5.5' for /d");
    QTest::newRow("empty lists accept")
        << QStringLiteral("x/y") << QStringLiteral("z") << QStringLiteral("w") << true << QStringLiteral("");
}

void tst_Selection::validation()
{
    QFETCH(QString, model);
    QFETCH(QString, agent);
    QFETCH(QString, variant);
    QFETCH(bool, emptyLists);
    QFETCH(QString, error);
    SelectionInputs inputs;
    if (!emptyLists) {
        inputs.providers = array(kProviders);
        inputs.agents = array(
            R"([{"name":"build"},{"name":"explore","mode":"subagent"},{"name":"secret","hidden":true}])");
    }
    const Selection requested {ModelRef::parse(model), agent, variant};
    const std::optional<ControlError> result =
        validateRequestedSelection(requested, inputs, QStringLiteral("/d"));
    QCOMPARE(result ? result->message : QString(), error);
    if (result)
        QCOMPARE(result->status, 400);
}

void tst_Selection::lastUserSelectionSkipsMessagesWithoutModel()
{
    const QJsonArray messages = array(R"([
        {"info":{"role":"user","agent":"plan","model":{"providerID":"a","modelID":"old","variant":"low"}}},
        {"info":{"role":"user","agent":"build","model":{"providerID":"b","modelID":"new"}}},
        {"info":{"role":"assistant","providerID":"c","modelID":"x"}},
        {"info":{"role":"user","agent":"nomodel"}}])");
    const std::optional<Selection> s = lastUserSelection(messages);
    QVERIFY(s);
    QCOMPARE(describe(*s), QStringLiteral("b/new|build|"));
    QVERIFY(!lastUserSelection(array(R"([{"info":{"role":"user"}}, 5, "x", {}])")));
}

void tst_Selection::newestIdsBreakTiesByListOrder()
{
    const QJsonArray raw = array(R"([
        {"info":{"id":"u1","role":"user","time":{"created":5}}},
        {"info":{"id":"u2","role":"user","time":{"created":5}}},
        {"info":{"id":"a1","role":"assistant","time":{"created":9,"completed":10}}},
        {"info":{"id":"a2","role":"assistant","time":{"created":12}}},
        {"info":{"id":"u0","role":"user","time":{"created":1}}}])");
    QCOMPARE(newestUserMessageId(raw), QStringLiteral("u2"));
    QCOMPARE(latestCompletedAssistantId(raw), QStringLiteral("a1"));
    QCOMPARE(newestUserMessageId({}), QString());
    QCOMPARE(projectTextMessages(array(R"([{"info":"x","parts":7},{"parts":[{"type":"text","text":5}]}])"),
                                 MessageRole::All)
                 .size(),
             0);
}

void tst_Selection::modelRefParsing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << QStringLiteral("openai/gpt-5") << QStringLiteral("openai/gpt-5");
    QTest::newRow("first slash") << QStringLiteral("openrouter/meta/llama")
                                 << QStringLiteral("openrouter/meta/llama");
    QTest::newRow("trimmed") << QStringLiteral("  a / b  ") << QStringLiteral("a/b");
    QTest::newRow("no slash") << QStringLiteral("gpt") << QStringLiteral("");
    QTest::newRow("no provider") << QStringLiteral("/gpt") << QStringLiteral("");
    QTest::newRow("no model") << QStringLiteral("openai/") << QStringLiteral("");
    QTest::newRow("blank model") << QStringLiteral("openai/   ") << QStringLiteral("");
    QTest::newRow("empty") << QStringLiteral("") << QStringLiteral("");
}

void tst_Selection::modelRefParsing()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const std::optional<ModelRef> model = ModelRef::parse(text);
    QCOMPARE(model ? model->toString() : QString(), expected);
}

void tst_Selection::settingsIgnoreMalformedEntries()
{
    const ControlSettings s =
        ControlSettings::fromConfig(object(R"({"openchamber":{"projects":"nope","default_model":5,
        "default_agent":"  ","recent_models":[{"providerID":"p"},{"providerID":"p","modelID":"m"},"a/b",null]}})"));
    QVERIFY(s.projects.isEmpty());
    QVERIFY(s.defaultModel.isEmpty());
    QVERIFY(s.defaultAgent.isEmpty());
    QCOMPARE(s.recentModels, array(R"([{"providerID":"p","modelID":"m"},{"providerID":"a","modelID":"b"}])"));
    QCOMPARE(
        ControlSettings::fromConfig({}).modelsJson(),
        object(
            R"({"defaultModel":null,"defaultVariant":null,"defaultAgent":null,"favoriteModels":[],"recentModels":[]})"));
}

QTEST_GUILESS_MAIN(tst_Selection)
#include "tst_selection.moc"
