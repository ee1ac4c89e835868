#include "tests/openchamber/servicefixture.h"

#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

const QString kNotLanded =
    QStringLiteral("OpenCode accepted the prompt but it never appeared in the session");

// A ControlService that records what it is asked (the scheduled-task service's stand-in).
class RecordingService : public ControlService
{
public:
    QList<ActionInfo> catalog() const override { return {}; }
    void execute(const QString &action, const QJsonObject &input, const QString &contextDirectory,
                 CancelToken, ControlCallback done) override
    {
        calls.append({action, input, contextDirectory});
        done(QJsonObject {{QStringLiteral("forwarded"), action}});
    }
    struct Call
    {
        QString action;
        QJsonObject input;
        QString context;
    };
    QList<Call> calls;
};

// The action is refused with 400 and message before any request reaches OpenCode.
enum class Context { Repo, None };
void verifyRefusedUpFront(const QString &action, const QJsonObject &input, const QString &message,
                          Context context = Context::Repo)
{
    ServiceFixture f;
    const ControlResult r = f.run(action, input, context == Context::Repo ? f.repo() : QString());
    QVERIFY(!r);
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().message, message);
    QCOMPARE(f.fake.requests.size(), 0);
}

} // namespace

class tst_SessionService : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void catalogListsTheFourteenActions();
    void projectsAndModelsComeFromSettings();
    void unsupportedActionsAreUsageErrors_data();
    void unsupportedActionsAreUsageErrors();
    void scheduleActionsAreForwardedVerbatim();
    void scheduleActionsWithoutSchedulerAre503();
    void waitPrechecksRejectBeforeAnyRequest_data();
    void waitPrechecksRejectBeforeAnyRequest();
    void createUsesTheContextDirectory();
    void createResolvesConfiguredDefaults();
    void explicitModelWithEmptyProviderListIsNotRejected();
    void badSelectionIsRefusedBeforeAnySession_data();
    void badSelectionIsRefusedBeforeAnySession();
    void failedLookupsNeverRejectAValidSelection();
    void explicitModelDoesNotGetTheDefaultVariant();
    void createWithoutAnyModelIsAUsageError();
    void directoryProblemsAreReported_data();
    void directoryProblemsAreReported();
    void projectIdWinsOverDirectory();
    void sendAndForkRequireSessionAndPrompt_data();
    void sendAndForkRequireSessionAndPrompt();
    void sendReusesTheLastUserSelection();
    void sendResolvesTheDirectoryFromTheGlobalList();
    void sendFallsBackToTheContextDirectory();
    void forkFromMessageIdPromptsTheFork();
    void forkWhosePromptFailsReportsThePartialFork();
    void createWhoseDispatchFailsReportsTheSession();
    void promptThatNeverLandsIsReportedNotDispatched();
    void knownSlashCommandGoesThroughCommand();
    void failingSlashCommandIsNotRetriedAsAPrompt();
    void unknownSlashCommandIsAPlainPrompt();
    void waitIgnoresTheInitialIdle();
    void createWaitReturnsTheNewAnswer();
    void waitTimeoutIsAnError();
    void cancellationIsAnErrorAndKeepsPartialDetails();
    void cancelledBeforeStartIsAnswered();
    void eventStreamEndsTheWaitSoonerThanPolling();
    void sessionListFiltersAndReportsStatusPerDirectory();
    void sessionListLimitIsValidatedBeforeAnyRequest_data();
    void sessionListLimitIsValidatedBeforeAnyRequest();
    void sessionStatusRules();
    void messagesValidationOrder_data();
    void messagesValidationOrder();
    void messagesProjection();
    void messagesLastAssistantAndWait();
    void unreachableOpenCodeNamesTheUrlAndWhatToRun();
    void scheduledRunCreatesAndDispatchesWithoutLandingCheck();
};

void tst_SessionService::catalogListsTheFourteenActions()
{
    ServiceFixture f;
    const QList<ActionInfo> catalog = f.service->catalog();
    QCOMPARE(catalog.size(), 14);
    int exposed = 0;
    for (const ActionInfo &a : catalog) {
        QVERIFY2(!a.title.isEmpty() && !a.description.isEmpty(), qPrintable(a.name));
        exposed += a.agentExposed;
        if (a.name == QLatin1String("schedule.status"))
            QVERIFY(!a.agentExposed);
    }
    QCOMPARE(exposed, 13);
}

void tst_SessionService::projectsAndModelsComeFromSettings()
{
    ServiceFixture f;
    f.settings = ControlSettings::fromConfig(QJsonDocument::fromJson(R"({"openchamber":{
        "projects":[{"id":"p1","path":"/repo/app/"},{"id":"p1","path":"/elsewhere"},{"id":"p2","path":"/repo/lib","label":"Lib"},{"path":"/no/id"}],
        "default_model":"openai/gpt-5.5","default_variant":"high","default_agent":"plan",
        "favorite_models":["mock/mock-model",{"providerID":"openai","modelID":"gpt-4"},"nonsense"]}})")
                                                 .object());
    const ControlResult projects = f.run(QStringLiteral("projects.list"), {});
    QVERIFY(projects);
    QCOMPARE(
        projects->value(QStringLiteral("projects")).toArray(),
        QJsonDocument::fromJson(
            R"([{"id":"p1","path":"/repo/app","label":"app"},{"id":"p2","path":"/repo/lib","label":"Lib"}])")
            .array());
    const ControlResult models = f.run(QStringLiteral("models.list"), {});
    QVERIFY(models);
    QCOMPARE(*models,
             QJsonDocument::fromJson(
                 R"({"defaultModel":"openai/gpt-5.5","defaultVariant":"high","defaultAgent":"plan",
        "favoriteModels":[{"providerID":"mock","modelID":"mock-model"},{"providerID":"openai","modelID":"gpt-4"}],"recentModels":[]})")
                 .object());
    QCOMPARE(f.fake.requests.size(), 0);
}

void tst_SessionService::unsupportedActionsAreUsageErrors_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("message");
    QTest::newRow("delete") << QStringLiteral("session.delete")
                            << QStringLiteral("Unsupported OpenChamber action: session.delete");
    QTest::newRow("wait") << QStringLiteral("session.wait")
                          << QStringLiteral("Unsupported OpenChamber action: session.wait");
    QTest::newRow("singular") << QStringLiteral("project.list")
                              << QStringLiteral("Unsupported OpenChamber action: project.list");
    QTest::newRow("missing") << QStringLiteral("")
                             << QStringLiteral("Unsupported OpenChamber action: missing");
    QTest::newRow("enable") << QStringLiteral("schedule.enable")
                            << QStringLiteral("Unsupported OpenChamber action: schedule.enable");
}

void tst_SessionService::unsupportedActionsAreUsageErrors()
{
    QFETCH(QString, action);
    QFETCH(QString, message);
    verifyRefusedUpFront(action, QJsonObject {}, message, Context::None);
}

void tst_SessionService::scheduleActionsAreForwardedVerbatim()
{
    ServiceFixture f;
    RecordingService schedules;
    f.service->setScheduleService(&schedules);
    const QJsonObject input {{QStringLiteral("taskId"), QStringLiteral("t1")},
                             {QStringLiteral("projectId"), QStringLiteral("p")}};
    for (const char *action : {"schedule.status", "schedule.list", "schedule.create", "schedule.run",
                               "schedule.delete", "schedule.toggle"}) {
        const ControlResult r = f.run(QString::fromLatin1(action), input, QStringLiteral("/ctx"));
        QVERIFY(r);
        QCOMPARE(r->value(QStringLiteral("forwarded")).toString(), QString::fromLatin1(action));
    }
    QCOMPARE(schedules.calls.size(), 6);
    QCOMPARE(schedules.calls.last().input, input);
    QCOMPARE(schedules.calls.last().context, QStringLiteral("/ctx"));
}

void tst_SessionService::scheduleActionsWithoutSchedulerAre503()
{
    ServiceFixture f;
    const ControlResult r = f.run(QStringLiteral("schedule.list"), {});
    QVERIFY(!r);
    QCOMPARE(r.error().status, 503);
}

void tst_SessionService::waitPrechecksRejectBeforeAnyRequest_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QString>("message");
    const QJsonObject send {{QStringLiteral("sessionId"), QStringLiteral("ses_x")},
                            {QStringLiteral("prompt"), QStringLiteral("hi")}};
    auto with = [](QJsonObject o, const QString &k, const QJsonValue &v) {
        o.insert(k, v);
        return o;
    };
    QTest::newRow("create timeout no wait") << QStringLiteral("session.create") << obj({{"timeout", 30}})
                                            << QStringLiteral("timeout requires wait");
    QTest::newRow("create timeout wait string")
        << QStringLiteral("session.create") << obj({{"timeout", 30}, {"wait", "true"}})
        << QStringLiteral("timeout requires wait");
    QTest::newRow("create lastAssistant")
        << QStringLiteral("session.create") << obj({{"lastAssistant", true}})
        << QStringLiteral("lastAssistant requires wait");
    QTest::newRow("create timeout zero")
        << QStringLiteral("session.create") << obj({{"wait", true}, {"timeout", 0}})
        << QStringLiteral("timeout must be from 1 to 86400 seconds");
    QTest::newRow("create timeout big")
        << QStringLiteral("session.create") << obj({{"wait", true}, {"timeout", 86401}})
        << QStringLiteral("timeout must be from 1 to 86400 seconds");
    QTest::newRow("create timeout fraction")
        << QStringLiteral("session.create") << obj({{"wait", true}, {"timeout", 1.5}})
        << QStringLiteral("timeout must be from 1 to 86400 seconds");
    QTest::newRow("create timeout text")
        << QStringLiteral("session.create") << obj({{"wait", true}, {"timeout", "30"}})
        << QStringLiteral("timeout must be from 1 to 86400 seconds");
    QTest::newRow("send timeout no wait")
        << QStringLiteral("session.send") << with(send, QStringLiteral("timeout"), 5)
        << QStringLiteral("timeout requires wait");
    QTest::newRow("fork bad timeout")
        << QStringLiteral("session.fork")
        << with(with(send, QStringLiteral("wait"), true), QStringLiteral("timeout"), -3)
        << QStringLiteral("timeout must be from 1 to 86400 seconds");
    QTest::newRow("goal budget without goal")
        << QStringLiteral("session.create") << obj({{"goalTokenBudget", 5000}})
        << QStringLiteral("goalTokenBudget requires goal");
    QTest::newRow("malformed model") << QStringLiteral("session.create")
                                     << obj({{"prompt", "x"}, {"model", "gpt"}})
                                     << QStringLiteral("model must be in provider/model format");
    QTest::newRow("model half") << QStringLiteral("session.send")
                                << with(send, QStringLiteral("model"), QStringLiteral("openai/"))
                                << QStringLiteral("model must be in provider/model format");
}

void tst_SessionService::waitPrechecksRejectBeforeAnyRequest()
{
    QFETCH(QString, action);
    QFETCH(QJsonObject, input);
    QFETCH(QString, message);
    verifyRefusedUpFront(action, input, message);
}

void tst_SessionService::createUsesTheContextDirectory()
{
    ServiceFixture f;
    const ControlResult r = f.run(QStringLiteral("session.create"), obj({{"title", "  Fix it  "}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    const QList<FakeRequest> creates = f.fake.find("POST", QStringLiteral("/session"));
    QCOMPARE(creates.size(), 1);
    QCOMPARE(creates.first().directory(), f.repo());
    QCOMPARE(QUrl::fromPercentEncoding(creates.first().headers.value("x-opencode-directory")), f.repo());
    QCOMPARE(creates.first().json(), obj({{"directory", f.repo()}, {"title", "Fix it"}}));
    QCOMPARE(r->value(QStringLiteral("directory")).toString(), f.repo());
    QCOMPARE(r->value(QStringLiteral("title")).toString(), QStringLiteral("Fix it"));
    QVERIFY(r->value(QStringLiteral("sessionId")).toString().startsWith(QLatin1String("ses_")));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(false));
    QCOMPARE(r->value(QStringLiteral("dispatchedAsCommand")), QJsonValue(false));
    QVERIFY(!r->contains(QStringLiteral("model")));
    QCOMPARE(f.fake.countPrefix("POST", QStringLiteral("/session/")), 0);
    QCOMPARE(f.fake.count("GET", QStringLiteral("/agent")), 0); // no prompt: nothing to validate
}

void tst_SessionService::createResolvesConfiguredDefaults()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.settings.defaultModel = QStringLiteral("openai/gpt-5.5");
    f.settings.defaultVariant = QStringLiteral("high");
    const ControlResult r =
        f.run(QStringLiteral("session.create"), obj({{"directory", f.repo()}, {"prompt", "hello"}}));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(f.fake.find("GET", QStringLiteral("/config/providers")).first().directory(), f.repo());
    const QList<FakeRequest> prompts = f.fake.find(
        "POST",
        QStringLiteral("/session/%1/prompt_async").arg(r->value(QStringLiteral("sessionId")).toString()));
    QCOMPARE(prompts.size(), 1);
    QCOMPARE(prompts.first().directory(), f.repo());
    QCOMPARE(prompts.first().json(),
             QJsonDocument::fromJson(R"({"model":{"providerID":"openai","modelID":"gpt-5.5"},
        "agent":"build","variant":"high","parts":[{"type":"text","text":"hello"}]})")
                 .object());
    QCOMPARE(r->value(QStringLiteral("model")).toObject(),
             obj({{"providerID", "openai"}, {"modelID", "gpt-5.5"}}));
    QCOMPARE(r->value(QStringLiteral("agent")).toString(), QStringLiteral("build"));
    QCOMPARE(r->value(QStringLiteral("variant")).toString(), QStringLiteral("high"));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    QVERIFY(!r->contains(QStringLiteral("promptError")));
}

void tst_SessionService::explicitModelWithEmptyProviderListIsNotRejected()
{
    ServiceFixture f; // the instance offers nothing
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  obj({{"prompt", "hello"}, {"model", "openai/gpt-5.5"}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    QCOMPARE(f.fake.countPrefix("POST", QStringLiteral("/session/")), 1);
}

void tst_SessionService::badSelectionIsRefusedBeforeAnySession_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QJsonObject>("selection");
    QTest::addColumn<QString>("message");
    QTest::newRow("agent") << QStringLiteral("session.create") << obj({{"agent", "not-an-agent"}})
                           << QStringLiteral("Unknown agent 'not-an-agent' for %1");
    QTest::newRow("subagent") << QStringLiteral("session.create") << obj({{"agent", "explore"}})
                              << QStringLiteral(
                                     "Agent 'explore' is a subagent and cannot receive a prompt directly");
    QTest::newRow("model") << QStringLiteral("session.create") << obj({{"model", "openai/gpt-nope"}})
                           << QStringLiteral("Unknown model 'openai/gpt-nope' for %1");
    QTest::newRow("provider") << QStringLiteral("session.create") << obj({{"model", "nobody/gpt-5.5"}})
                              << QStringLiteral("Unknown model 'nobody/gpt-5.5' for %1");
    QTest::newRow("variant") << QStringLiteral("session.create")
                             << obj({{"model", "openai/gpt-5.5"}, {"variant", "ultra"}})
                             << QStringLiteral("Unknown variant 'ultra' for model 'openai/gpt-5.5'");
    QTest::newRow("variant of variantless")
        << QStringLiteral("session.create") << obj({{"model", "openai/gpt-4"}, {"variant", "high"}})
        << QStringLiteral("Unknown variant 'high' for model 'openai/gpt-4'");
    QTest::newRow("send agent") << QStringLiteral("session.send") << obj({{"agent", "nope"}})
                                << QStringLiteral("Unknown agent 'nope' for %1");
    QTest::newRow("fork model") << QStringLiteral("session.fork") << obj({{"model", "mock/other"}})
                                << QStringLiteral("Unknown model 'mock/other' for %1");
}

void tst_SessionService::badSelectionIsRefusedBeforeAnySession()
{
    QFETCH(QString, action);
    QFETCH(QJsonObject, selection);
    QFETCH(QString, message);
    ServiceFixture f;
    f.offerTypicalInstance();
    const QString existing = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    QJsonObject input = selection;
    input.insert(QStringLiteral("prompt"), QStringLiteral("do it"));
    input.insert(QStringLiteral("directory"), f.repo());
    input.insert(QStringLiteral("sessionId"), existing);
    const int sessionsBefore = int(f.fake.sessions().size());
    const ControlResult r = f.run(action, input);
    QVERIFY(!r);
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().message, message.contains(QLatin1String("%1")) ? message.arg(f.repo()) : message);
    QCOMPARE(f.fake.sessions().size(), sessionsBefore);
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 0);
    QCOMPARE(f.fake.countPrefix("POST", QStringLiteral("/session/")), 0); // no fork, no prompt
}

void tst_SessionService::failedLookupsNeverRejectAValidSelection()
{
    ServiceFixture f;
    f.fake.handler = [](const FakeRequest &r) -> std::optional<FakeResponse> {
        if (r.path == QLatin1String("/agent"))
            return FakeResponse::json(QJsonObject {{QStringLiteral("name"), QStringLiteral("Boom")}}, 500);
        if (r.path == QLatin1String("/config/providers"))
            return FakeResponse {200, "not json", false};
        return std::nullopt;
    };
    const ControlResult r =
        f.run(QStringLiteral("session.create"),
              obj({{"prompt", "x"}, {"model", "a/b"}, {"agent", "anything"}, {"variant", "v"}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    QCOMPARE(r->value(QStringLiteral("agent")).toString(), QStringLiteral("anything"));
}

void tst_SessionService::explicitModelDoesNotGetTheDefaultVariant()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.settings.defaultModel = QStringLiteral("openai/gpt-5.5");
    f.settings.defaultVariant = QStringLiteral("high");
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  obj({{"prompt", "x"}, {"model", "openai/gpt-5.5"}}), f.repo());
    QVERIFY(r);
    QVERIFY(!r->contains(QStringLiteral("variant")));
    const QJsonObject body = f.fake
                                 .find("POST",
                                       QStringLiteral("/session/%1/prompt_async")
                                           .arg(r->value(QStringLiteral("sessionId")).toString()))
                                 .first()
                                 .json();
    QVERIFY(!body.contains(QStringLiteral("variant")));
    QCOMPARE(body.value(QStringLiteral("agent")).toString(), QStringLiteral("build"));
}

void tst_SessionService::createWithoutAnyModelIsAUsageError()
{
    ServiceFixture f; // no providers, no settings: nothing to pick
    const ControlResult r = f.run(QStringLiteral("session.create"), obj({{"prompt", "x"}}), f.repo());
    QVERIFY(!r);
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().message,
             QStringLiteral("No model is configured or available for the requested directory"));
    QCOMPARE(r.error().details.value(QStringLiteral("partialAction")).toString(),
             QStringLiteral("session-created"));
}

void tst_SessionService::directoryProblemsAreReported_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<QString>("projectId");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    QTest::newRow("none") << QStringLiteral("") << QStringLiteral("") << 400
                          << QStringLiteral("Directory parameter is required");
    QTest::newRow("missing") << QStringLiteral("/no/such/dir/anywhere") << QStringLiteral("") << 400
                             << QStringLiteral("Directory not found");
    QTest::newRow("file") << QStringLiteral("FILE") << QStringLiteral("") << 400
                          << QStringLiteral("Specified path is not a directory");
    QTest::newRow("unknown project") << QStringLiteral("") << QStringLiteral("nope") << 404
                                     << QStringLiteral("Project not found");
    QTest::newRow("project gone") << QStringLiteral("") << QStringLiteral("gone") << 400
                                  << QStringLiteral("Invalid project directory");
}

void tst_SessionService::directoryProblemsAreReported()
{
    QFETCH(QString, directory);
    QFETCH(QString, projectId);
    QFETCH(int, status);
    QFETCH(QString, message);
    ServiceFixture f;
    f.settings.projects.append(
        {QStringLiteral("gone"), QStringLiteral("/no/such/project"), QStringLiteral("gone")});
    if (directory == QLatin1String("FILE")) {
        directory = f.repo() + QStringLiteral("/file.txt");
        QFile file(directory);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QJsonObject input;
    if (!directory.isEmpty())
        input.insert(QStringLiteral("directory"), directory);
    if (!projectId.isEmpty())
        input.insert(QStringLiteral("projectId"), projectId);
    const ControlResult r = f.run(QStringLiteral("session.create"), input);
    QVERIFY(!r);
    QCOMPARE(r.error().status, status);
    QCOMPARE(r.error().message, message);
    QCOMPARE(f.fake.requests.size(), 0);
}

void tst_SessionService::projectIdWinsOverDirectory()
{
    ServiceFixture f;
    f.settings.projects.append({QStringLiteral("p1"), f.otherRepo(), QStringLiteral("other")});
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  obj({{"projectId", "p1"}, {"directory", f.repo()}}), f.repo());
    QVERIFY(r);
    QCOMPARE(r->value(QStringLiteral("directory")).toString(), f.otherRepo());
    QCOMPARE(r->value(QStringLiteral("projectId")).toString(), QStringLiteral("p1"));
    QCOMPARE(f.fake.find("POST", QStringLiteral("/session")).first().directory(), f.otherRepo());
}

void tst_SessionService::sendAndForkRequireSessionAndPrompt_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QString>("message");
    QTest::newRow("send no session") << QStringLiteral("session.send") << obj({{"prompt", "x"}})
                                     << QStringLiteral("sessionId is required");
    QTest::newRow("send blank session")
        << QStringLiteral("session.send") << obj({{"sessionId", "  "}, {"prompt", "x"}})
        << QStringLiteral("sessionId is required");
    QTest::newRow("send numeric session")
        << QStringLiteral("session.send") << obj({{"sessionId", 5}, {"prompt", "x"}})
        << QStringLiteral("sessionId is required");
    QTest::newRow("send no prompt") << QStringLiteral("session.send") << obj({{"sessionId", "ses_1"}})
                                    << QStringLiteral("prompt is required");
    QTest::newRow("fork no prompt") << QStringLiteral("session.fork")
                                    << obj({{"sessionId", "ses_1"}, {"prompt", "   "}})
                                    << QStringLiteral("prompt is required");
    QTest::newRow("fork no session") << QStringLiteral("session.fork") << obj({{"prompt", "x"}})
                                     << QStringLiteral("sessionId is required");
    QTest::newRow("goal") << QStringLiteral("session.send")
                          << obj({{"sessionId", "ses_1"}, {"prompt", "x"}, {"goal", true}})
                          << QStringLiteral(
                                 "goal is not supported by this service; send the objective as the prompt");
}

void tst_SessionService::sendAndForkRequireSessionAndPrompt()
{
    QFETCH(QString, action);
    QFETCH(QJsonObject, input);
    QFETCH(QString, message);
    verifyRefusedUpFront(action, input, message);
}

void tst_SessionService::sendReusesTheLastUserSelection()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.settings.defaultModel = QStringLiteral("mock/mock-model");
    const QString id = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    f.fake.addMessage(
        id, QStringLiteral("user"), QStringLiteral("first"), 100, std::nullopt,
        obj({{"agent", "plan"},
             {"model",
              obj({{"providerID", "anthropic"}, {"modelID", "claude-sonnet-5"}, {"variant", "high"}})}}));
    f.fake.addMessage(id, QStringLiteral("assistant"), QStringLiteral("answer"), 200, 300);
    const ControlResult r = f.run(QStringLiteral("session.send"),
                                  obj({{"sessionId", id}, {"prompt", "again"}, {"directory", f.repo()}}));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("action")).toString(), QStringLiteral("send"));
    QCOMPARE(r->value(QStringLiteral("sessionId")).toString(), id);
    QCOMPARE(r->value(QStringLiteral("model")).toObject(),
             obj({{"providerID", "anthropic"}, {"modelID", "claude-sonnet-5"}}));
    QCOMPARE(r->value(QStringLiteral("agent")).toString(), QStringLiteral("plan"));
    QCOMPARE(r->value(QStringLiteral("variant")).toString(), QStringLiteral("high"));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    QCOMPARE(f.fake.count("GET", QStringLiteral("/config/providers")), 0);
    QCOMPARE(f.fake.count("GET", QStringLiteral("/agent")), 0);
    QCOMPARE(f.fake.count("GET", QStringLiteral("/config")), 0);
    QCOMPARE(f.fake.count("GET", QStringLiteral("/experimental/session")), 0); // explicit directory
}

void tst_SessionService::sendResolvesTheDirectoryFromTheGlobalList()
{
    ServiceFixture f;
    f.settings.defaultModel = QStringLiteral("mock/mock-model");
    f.offerTypicalInstance();
    const QString id = f.fake.addSession(f.otherRepo()).value(QStringLiteral("id")).toString();
    const ControlResult r =
        f.run(QStringLiteral("session.send"), obj({{"sessionId", id}, {"prompt", "x"}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("directory")).toString(), f.otherRepo());
    QCOMPARE(f.fake.count("GET", QStringLiteral("/experimental/session")), 1);
    QCOMPARE(f.fake.find("POST", QStringLiteral("/session/%1/prompt_async").arg(id)).first().directory(),
             f.otherRepo());
}

void tst_SessionService::sendFallsBackToTheContextDirectory()
{
    ServiceFixture f;
    f.settings.defaultModel = QStringLiteral("mock/mock-model");
    f.offerTypicalInstance();
    f.fake.addSession(f.repo(), QStringLiteral("ses_known"));
    f.fake.handler = [](const FakeRequest &r) -> std::optional<FakeResponse> {
        if (r.path == QLatin1String("/experimental/session"))
            return FakeResponse::json(QJsonArray {}); // not listed
        return std::nullopt;
    };
    const ControlResult r =
        f.run(QStringLiteral("session.send"), obj({{"sessionId", "ses_known"}, {"prompt", "x"}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("directory")).toString(), f.repo());
}

void tst_SessionService::forkFromMessageIdPromptsTheFork()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    const QString id = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    f.fake.addMessage(
        id, QStringLiteral("user"), QStringLiteral("one"), 100, std::nullopt,
        obj({{"agent", "build"}, {"model", obj({{"providerID", "mock"}, {"modelID", "mock-model"}})}}));
    const QString boundary = f.fake.messages(id)
                                 .last()
                                 .toObject()
                                 .value(QStringLiteral("info"))
                                 .toObject()
                                 .value(QStringLiteral("id"))
                                 .toString();
    const ControlResult r = f.run(
        QStringLiteral("session.fork"),
        obj({{"sessionId", id}, {"prompt", "branch off"}, {"messageId", boundary}, {"directory", f.repo()}}));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    const QString fork = r->value(QStringLiteral("sessionId")).toString();
    QVERIFY(fork != id);
    QCOMPARE(r->value(QStringLiteral("action")).toString(), QStringLiteral("fork"));
    QCOMPARE(r->value(QStringLiteral("sourceSessionId")).toString(), id);
    QCOMPARE(r->value(QStringLiteral("title")).toString(), QStringLiteral("Fork of ") + id);
    const QList<FakeRequest> forks = f.fake.find("POST", QStringLiteral("/session/%1/fork").arg(id));
    QCOMPARE(forks.size(), 1);
    QCOMPARE(forks.first().json(), obj({{"messageID", boundary}}));
    QCOMPARE(forks.first().directory(), f.repo());
    const QList<FakeRequest> reads = f.fake.find("GET", QStringLiteral("/session/%1/message").arg(fork));
    QVERIFY(!reads.isEmpty());
    QCOMPARE(reads.first().query.queryItemValue(QStringLiteral("limit")), QStringLiteral("100"));
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session/%1/prompt_async").arg(fork)), 1);
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session/%1/prompt_async").arg(id)), 0);
}

void tst_SessionService::forkWhosePromptFailsReportsThePartialFork()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.settings.defaultModel = QStringLiteral("mock/mock-model");
    const QString id = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    f.fake.handler = [](const FakeRequest &r) -> std::optional<FakeResponse> {
        if (r.path.endsWith(QLatin1String("/prompt_async")))
            return FakeResponse {500, "kaputt", false};
        return std::nullopt;
    };
    const ControlResult r = f.run(QStringLiteral("session.fork"),
                                  obj({{"sessionId", id}, {"prompt", "x"}, {"directory", f.repo()}}));
    QVERIFY(!r);
    QCOMPARE(r.error().status, 500);
    QCOMPARE(r.error().message, QStringLiteral("prompt_async failed (500): kaputt"));
    QCOMPARE(r.error().details.value(QStringLiteral("partial")), QJsonValue(true));
    QCOMPARE(r.error().details.value(QStringLiteral("partialAction")).toString(),
             QStringLiteral("fork-created"));
    const QString fork = r.error().details.value(QStringLiteral("sessionId")).toString();
    QVERIFY(!fork.isEmpty() && fork != id);
    QCOMPARE(r.error().details.value(QStringLiteral("directory")).toString(), f.repo());
}

void tst_SessionService::createWhoseDispatchFailsReportsTheSession()
{
    ServiceFixture f;
    f.settings.defaultModel = QStringLiteral("mock/mock-model");
    f.offerTypicalInstance();
    f.fake.handler = [](const FakeRequest &r) -> std::optional<FakeResponse> {
        if (r.path.endsWith(QLatin1String("/prompt_async")))
            return FakeResponse::empty(404);
        return std::nullopt;
    };
    const ControlResult r = f.run(QStringLiteral("session.create"), obj({{"prompt", "x"}}), f.repo());
    QVERIFY(!r);
    QCOMPARE(r.error().message, QStringLiteral("prompt_async failed (404)"));
    QCOMPARE(r.error().details.value(QStringLiteral("partialAction")).toString(),
             QStringLiteral("session-created"));
    QCOMPARE(r.error().details.value(QStringLiteral("sessionId")).toString(),
             f.fake.sessions().first().toObject().value(QStringLiteral("id")).toString());
}

void tst_SessionService::promptThatNeverLandsIsReportedNotDispatched()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.fake.landPrompts = false;
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  obj({{"prompt", "x"}, {"model", "mock/mock-model"}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(false));
    QCOMPARE(r->value(QStringLiteral("promptError")).toString(), kNotLanded);
    QCOMPARE(r->value(QStringLiteral("dispatchedAsCommand")), QJsonValue(false));
    QCOMPARE(r->value(QStringLiteral("model")).toObject(),
             obj({{"providerID", "mock"}, {"modelID", "mock-model"}}));
    // Polled every 150 ms for 5 s (on the manual clock).
    QVERIFY2(f.elapsedMs() >= 5000 && f.elapsedMs() < 5400, qPrintable(QString::number(f.elapsedMs())));
    const QString id = r->value(QStringLiteral("sessionId")).toString();
    const int reads = f.fake.count("GET", QStringLiteral("/session/%1/message").arg(id));
    QVERIFY2(reads >= 30 && reads <= 40, qPrintable(QString::number(reads))); // baseline + ~34 polls
}

void tst_SessionService::knownSlashCommandGoesThroughCommand()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.fake.commands = {obj({{"name", "review"}, {"template", "Review $ARGUMENTS"}})};
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  obj({{"prompt", "/review  src/main.cpp now\nignored line"},
                                       {"model", "openai/gpt-5.5"},
                                       {"variant", "low"}}),
                                  f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("dispatchedAsCommand")), QJsonValue(true));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    const QString id = r->value(QStringLiteral("sessionId")).toString();
    const QList<FakeRequest> commands = f.fake.find("POST", QStringLiteral("/session/%1/command").arg(id));
    QCOMPARE(commands.size(), 1);
    QCOMPARE(commands.first().json(),
             obj({{"command", "review"},
                  {"arguments", "src/main.cpp now"},
                  {"model", "openai/gpt-5.5"},
                  {"agent", "build"},
                  {"variant", "low"}}));
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session/%1/prompt_async").arg(id)), 0);
}

void tst_SessionService::failingSlashCommandIsNotRetriedAsAPrompt()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.fake.commands = {obj({{"name", "review"}})};
    f.fake.handler = [](const FakeRequest &r) -> std::optional<FakeResponse> {
        if (r.path.endsWith(QLatin1String("/command")) && r.method == "POST")
            return FakeResponse {500, R"({"name":"UnknownError"})", false};
        return std::nullopt;
    };
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  obj({{"prompt", "/review"}, {"model", "mock/mock-model"}}), f.repo());
    QVERIFY(!r);
    QCOMPARE(r.error().status, 500);
    QVERIFY(r.error().message.startsWith(QLatin1String("command failed (500)")));
    QCOMPARE(f.fake.countPrefix("POST", QStringLiteral("/session/")), 1);
}

void tst_SessionService::unknownSlashCommandIsAPlainPrompt()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    const ControlResult r =
        f.run(QStringLiteral("session.create"),
              obj({{"prompt", "/etc/hosts is odd"}, {"model", "mock/mock-model"}}), f.repo());
    QVERIFY(r);
    QCOMPARE(r->value(QStringLiteral("dispatchedAsCommand")), QJsonValue(false));
    QCOMPARE(f.fake.count("GET", QStringLiteral("/command")), 1);
    QCOMPARE(f.fake.countPrefix("POST", QStringLiteral("/session/")), 1);
}

void tst_SessionService::waitIgnoresTheInitialIdle()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.service->setOptions([] {
        SessionService::Options o;
        o.useEventStream = false; // polling alone: exactly the reference's loop
        return o;
    }());
    const QString id = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    f.fake.addMessage(
        id, QStringLiteral("user"), QStringLiteral("q"), 100, std::nullopt,
        obj({{"agent", "build"}, {"model", obj({{"providerID", "mock"}, {"modelID", "mock-model"}})}}));
    f.fake.addMessage(id, QStringLiteral("assistant"), QStringLiteral("old answer"), 200, 300);
    f.fake.idlePollsFirst = 1; // the first status poll sees idle before the run starts
    f.fake.busyPolls = 0; // then the run completes between polls: never seen busy
    f.fake.replyText = QStringLiteral("new answer");
    const ControlResult r = f.run(QStringLiteral("session.send"),
                                  obj({{"sessionId", id},
                                       {"prompt", "again"},
                                       {"directory", f.repo()},
                                       {"wait", true},
                                       {"lastAssistant", true}}));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(f.fake.count("GET", QStringLiteral("/session/status")), 2);
    QCOMPARE(r->value(QStringLiteral("sessionStatus")).toObject(), obj({{"type", "idle"}}));
    QCOMPARE(
        r->value(QStringLiteral("lastAssistantMessage")).toObject().value(QStringLiteral("text")).toString(),
        QStringLiteral("new answer"));
    QVERIFY(!r->contains(QStringLiteral("baselineAssistantMessageId")));
}

void tst_SessionService::createWaitReturnsTheNewAnswer()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.fake.busyPolls = 3;
    f.fake.replyText = QStringLiteral("  42  ");
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  obj({{"prompt", "meaning?"},
                                       {"model", "mock/mock-model"},
                                       {"wait", true},
                                       {"timeout", 60},
                                       {"lastAssistant", true}}),
                                  f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    const QJsonObject last = r->value(QStringLiteral("lastAssistantMessage")).toObject();
    QCOMPARE(last.value(QStringLiteral("text")).toString(), QStringLiteral("42"));
    QCOMPARE(last.value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
    QCOMPARE(last.value(QStringLiteral("model")).toString(), QStringLiteral("mock/mock-model"));
    QVERIFY(f.fake.count("GET", QStringLiteral("/session/status")) >= 4);
}

void tst_SessionService::waitTimeoutIsAnError()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.fake.busyPolls = 1000000; // never finishes
    const ControlResult r =
        f.run(QStringLiteral("session.create"),
              obj({{"prompt", "x"}, {"model", "mock/mock-model"}, {"wait", true}, {"timeout", 3}}), f.repo());
    QVERIFY(!r);
    QCOMPARE(r.error().status, 500);
    QCOMPARE(r.error().message, QStringLiteral("Session did not become idle within 3 seconds"));
    QCOMPARE(r.error().details.value(QStringLiteral("partialAction")).toString(),
             QStringLiteral("session-created"));
}

void tst_SessionService::cancellationIsAnErrorAndKeepsPartialDetails()
{
    ServiceFixture f(true); // real timers: the wait really waits
    f.offerTypicalInstance();
    f.fake.busyPolls = 1000000;
    const QString id = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    CancelToken cancel;
    std::optional<ControlResult> result;
    f.start(QStringLiteral("session.fork"),
            obj({{"sessionId", id},
                 {"prompt", "x"},
                 {"model", "mock/mock-model"},
                 {"directory", f.repo()},
                 {"wait", true}}),
            &result, {}, cancel);
    // Cancel once the wait is polling.
    QTRY_VERIFY_WITH_TIMEOUT(f.fake.count("GET", QStringLiteral("/session/status")) >= 2,
                             TestSupport::scaled(10000));
    QVERIFY(!result);
    cancel.cancel();
    QVERIFY(result.has_value()); // answered at once, not at the next poll
    QVERIFY(!*result);
    QCOMPARE(result->error().status, 499);
    QCOMPARE(result->error().message, QStringLiteral("OpenChamber action was cancelled"));
    QCOMPARE(result->error().details.value(QStringLiteral("partialAction")).toString(),
             QStringLiteral("fork-created"));
    const int polls = f.fake.count("GET", QStringLiteral("/session/status"));
    QTest::qWait(1500); // longer than the 500 ms poll: a run left behind would poll again
    QCOMPARE(f.fake.count("GET", QStringLiteral("/session/status")), polls);
    QTRY_COMPARE(f.service->runningCount(), 0);
}

void tst_SessionService::cancelledBeforeStartIsAnswered()
{
    ServiceFixture f;
    CancelToken cancel;
    cancel.cancel();
    const ControlResult r = f.run(QStringLiteral("session.list"), {}, f.repo(), cancel);
    QVERIFY(!r);
    QCOMPARE(r.error().status, 499);
    QCOMPARE(f.fake.requests.size(), 0);
}

void tst_SessionService::eventStreamEndsTheWaitSoonerThanPolling()
{
    ServiceFixture f(true);
    f.offerTypicalInstance();
    SessionService::Options o;
    o.waitPollMs = 3600 * 1000; // polling alone would take an hour
    o.landingPollMs = 3600 * 1000;
    f.service->setOptions(o);
    f.fake.runDelayMs = 100;
    f.fake.replyText = QStringLiteral("from the stream");
    const ControlResult r =
        f.run(QStringLiteral("session.create"),
              obj({{"prompt", "x"}, {"model", "mock/mock-model"}, {"wait", true}, {"lastAssistant", true}}),
              f.repo(), {}, 20000);
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    QCOMPARE(
        r->value(QStringLiteral("lastAssistantMessage")).toObject().value(QStringLiteral("text")).toString(),
        QStringLiteral("from the stream"));
    QCOMPARE(f.fake.count("GET", QStringLiteral("/event")), 1);
    QTRY_COMPARE(f.fake.eventStreams(), 0); // closed with the action
}

void tst_SessionService::sessionListFiltersAndReportsStatusPerDirectory()
{
    ServiceFixture f;
    f.fake.addSession(f.repo(), QStringLiteral("ses_a"));
    f.fake.addSession(f.repo(), QStringLiteral("ses_arch"), {}, true);
    f.fake.addSession(f.otherRepo(), QStringLiteral("ses_b"));
    f.fake.addSession(QStringLiteral("/broken"), QStringLiteral("ses_c"));
    f.fake.setStatus(QStringLiteral("ses_a"), QStringLiteral("busy"));
    f.fake.handler = [](const FakeRequest &r) -> std::optional<FakeResponse> {
        if (r.path == QLatin1String("/session/status") && r.directory() == QLatin1String("/broken"))
            return FakeResponse {500, "no", false};
        return std::nullopt;
    };
    const ControlResult r = f.run(QStringLiteral("session.list"), obj({{"withStatus", true}}));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("limit")).toInt(), 10);
    QCOMPARE(r->value(QStringLiteral("directory")), QJsonValue(QJsonValue::Null));
    QCOMPARE(r->value(QStringLiteral("archived")).toString(), QStringLiteral("excluded"));
    const QJsonArray sessions = r->value(QStringLiteral("sessions")).toArray();
    QCOMPARE(sessions.size(), 3);
    QHash<QString, QString> status;
    for (const QJsonValue &s : sessions)
        status.insert(s[QStringLiteral("id")].toString(),
                      s[QStringLiteral("status")][QStringLiteral("type")].toString());
    QCOMPARE(status.value(QStringLiteral("ses_a")), QStringLiteral("busy"));
    QCOMPARE(status.value(QStringLiteral("ses_b")), QStringLiteral("idle"));
    QCOMPARE(status.value(QStringLiteral("ses_c")), QStringLiteral("unknown"));
    QCOMPARE(f.fake.count("GET", QStringLiteral("/session/status")), 3); // one per directory

    const ControlResult all =
        f.run(QStringLiteral("session.list"), obj({{"all", true}, {"limit", 2}, {"directory", f.repo()}}));
    QVERIFY(all);
    QCOMPARE(all->value(QStringLiteral("archived")).toString(), QStringLiteral("included"));
    QCOMPARE(all->value(QStringLiteral("directory")).toString(), f.repo());
    QCOMPARE(all->value(QStringLiteral("sessions")).toArray().size(), 2);
    QCOMPARE(f.fake.find("GET", QStringLiteral("/session")).last().directory(), f.repo());
}

void tst_SessionService::sessionListLimitIsValidatedBeforeAnyRequest_data()
{
    QTest::addColumn<QJsonValue>("limit");
    QTest::newRow("zero") << QJsonValue(0);
    QTest::newRow("negative") << QJsonValue(-1);
    QTest::newRow("fraction") << QJsonValue(2.5);
    QTest::newRow("string") << QJsonValue(QStringLiteral("5"));
    QTest::newRow("bool") << QJsonValue(true);
    QTest::newRow("unsafe") << QJsonValue(1e300);
}

void tst_SessionService::sessionListLimitIsValidatedBeforeAnyRequest()
{
    QFETCH(QJsonValue, limit);
    verifyRefusedUpFront(QStringLiteral("session.list"), QJsonObject {{QStringLiteral("limit"), limit}},
                         QStringLiteral("limit must be a positive integer"), Context::None);
}

void tst_SessionService::sessionStatusRules()
{
    ServiceFixture f;
    ControlResult r = f.run(QStringLiteral("session.status"), obj({{"directory", f.repo()}}));
    QCOMPARE(r.error().message, QStringLiteral("sessionId is required"));
    r = f.run(QStringLiteral("session.status"), obj({{"sessionId", "ses_1"}}));
    QCOMPARE(r.error().message, QStringLiteral("directory is required"));
    QCOMPARE(r.error().status, 400);
    QCOMPARE(f.fake.requests.size(), 0);

    f.fake.addSession(f.repo(), QStringLiteral("ses_1"));
    f.fake.setStatus(QStringLiteral("ses_1"), QStringLiteral("retry"));
    r = f.run(QStringLiteral("session.status"), obj({{"sessionId", "ses_1"}}), f.repo());
    QVERIFY(r);
    QCOMPARE(
        *r,
        obj({{"sessionId", "ses_1"}, {"directory", f.repo()}, {"sessionStatus", obj({{"type", "retry"}})}}));
    r = f.run(QStringLiteral("session.status"), obj({{"sessionId", "ses_other"}, {"directory", f.repo()}}));
    QCOMPARE(r->value(QStringLiteral("sessionStatus")).toObject(), obj({{"type", "idle"}}));

    f.fake.handler = [](const FakeRequest &) -> std::optional<FakeResponse> {
        return FakeResponse::json(QJsonArray {1});
    };
    r = f.run(QStringLiteral("session.status"), obj({{"sessionId", "ses_1"}}), f.repo());
    QVERIFY(!r);
    QCOMPARE(r.error().status, 500);
    QCOMPARE(r.error().message, QStringLiteral("Invalid session status response"));
}

void tst_SessionService::messagesValidationOrder_data()
{
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QString>("message");
    QTest::newRow("session first") << obj({{"role", "bad"}, {"timeout", 3}})
                                   << QStringLiteral("sessionId is required");
    QTest::newRow("directory") << obj({{"sessionId", "s"}, {"directory", "   "}, {"role", "bad"}})
                               << QStringLiteral("directory is required");
    QTest::newRow("timeout before role")
        << obj({{"sessionId", "s"}, {"directory", "/d"}, {"timeout", 3}, {"role", "bad"}})
        << QStringLiteral("timeout requires wait");
    QTest::newRow("role") << obj({{"sessionId", "s"}, {"directory", "/d"}, {"role", "system"}})
                          << QStringLiteral("role must be all, user, or assistant");
    QTest::newRow("all+last") << obj({{"sessionId", "s"}, {"directory", "/d"}, {"all", true}, {"last", true}})
                              << QStringLiteral("all cannot be combined with last or limit");
    QTest::newRow("all+limit") << obj({{"sessionId", "s"}, {"directory", "/d"}, {"all", true}, {"limit", 3}})
                               << QStringLiteral("all cannot be combined with last or limit");
    QTest::newRow("last+limit")
        << obj({{"sessionId", "s"}, {"directory", "/d"}, {"last", true}, {"limit", 3}})
        << QStringLiteral("last cannot be combined with limit");
    QTest::newRow("lastAssistant+limit")
        << obj({{"sessionId", "s"}, {"directory", "/d"}, {"lastAssistant", true}, {"limit", 3}})
        << QStringLiteral("last cannot be combined with limit");
    QTest::newRow("limit") << obj({{"sessionId", "s"}, {"directory", "/d"}, {"limit", 0}})
                           << QStringLiteral("limit must be a positive integer");
    QTest::newRow("timeout range")
        << obj({{"sessionId", "s"}, {"directory", "/d"}, {"wait", true}, {"timeout", 90000}})
        << QStringLiteral("timeout must be from 1 to 86400 seconds");
}

void tst_SessionService::messagesValidationOrder()
{
    QFETCH(QJsonObject, input);
    QFETCH(QString, message);
    verifyRefusedUpFront(QStringLiteral("session.messages"), input, message, Context::None);
}

void tst_SessionService::messagesProjection()
{
    ServiceFixture f;
    const QString id = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    const QJsonObject model {{QStringLiteral("providerID"), QStringLiteral("mock")},
                             {QStringLiteral("modelID"), QStringLiteral("m")}};
    f.fake.addMessage(id, QStringLiteral("assistant"), QStringLiteral("second"), 300, 310,
                      {{QStringLiteral("providerID"), QStringLiteral("mock")},
                       {QStringLiteral("modelID"), QStringLiteral("m")}},
                      {obj({{"type", "text"}, {"text", " and more "}, {"synthetic", true}})});
    f.fake.addMessage(id, QStringLiteral("user"), QStringLiteral(" first "), 100, std::nullopt,
                      {{QStringLiteral("model"), model}});
    f.fake.addMessage(id, QStringLiteral("assistant"), QString(), 400, 410, {},
                      {obj({{"type", "tool"}, {"tool", "bash"}})});
    f.fake.addMessage(id, QStringLiteral("system"), QStringLiteral("hidden"), 50);
    f.fake.addMessage(id, QStringLiteral("user"), QStringLiteral("third"), 500);
    ControlResult r = f.run(QStringLiteral("session.messages"), obj({{"sessionId", id}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("role")).toString(), QStringLiteral("all"));
    QCOMPARE(r->value(QStringLiteral("sessionStatus")).toObject(), obj({{"type", "idle"}}));
    const QJsonArray messages = r->value(QStringLiteral("messages")).toArray();
    QCOMPARE(messages.size(), 3);
    QCOMPARE(messages[0].toObject().value(QStringLiteral("text")).toString(), QStringLiteral("first"));
    QCOMPARE(messages[0].toObject().value(QStringLiteral("model")), QJsonValue(QJsonValue::Null));
    QCOMPARE(messages[0].toObject().value(QStringLiteral("completedAt")), QJsonValue(QJsonValue::Null));
    QCOMPARE(messages[1].toObject().value(QStringLiteral("text")).toString(),
             QStringLiteral("second and more"));
    QCOMPARE(messages[1].toObject().value(QStringLiteral("model")).toString(), QStringLiteral("mock/m"));
    QCOMPARE(messages[1].toObject().value(QStringLiteral("createdAt")).toDouble(), 300.0);
    QCOMPARE(messages[1].toObject().value(QStringLiteral("completedAt")).toDouble(), 310.0);
    QCOMPARE(messages[2].toObject().value(QStringLiteral("text")).toString(), QStringLiteral("third"));
    QCOMPARE(f.fake.find("GET", QStringLiteral("/session/%1/message").arg(id))
                 .first()
                 .query.queryItemValue(QStringLiteral("limit")),
             QStringLiteral("100"));

    r = f.run(QStringLiteral("session.messages"), obj({{"sessionId", id}, {"role", "user"}, {"limit", 1}}),
              f.repo());
    QCOMPARE(r->value(QStringLiteral("messages")).toArray().size(), 1);
    QCOMPARE(r->value(QStringLiteral("messages"))[0][QStringLiteral("text")].toString(),
             QStringLiteral("third"));
    r = f.run(QStringLiteral("session.messages"), obj({{"sessionId", id}, {"all", true}}), f.repo());
    QCOMPARE(r->value(QStringLiteral("messages")).toArray().size(), 3);
    QVERIFY(!f.fake.requests.last().query.hasQueryItem(QStringLiteral("limit")));
}

void tst_SessionService::messagesLastAssistantAndWait()
{
    ServiceFixture f;
    const QString id = f.fake.addSession(f.repo()).value(QStringLiteral("id")).toString();
    f.fake.addMessage(id, QStringLiteral("assistant"), QStringLiteral("a1"), 100, 110);
    f.fake.addMessage(id, QStringLiteral("user"), QStringLiteral("u"), 200);
    f.fake.addMessage(id, QStringLiteral("assistant"), QStringLiteral("a2"), 300, 310);
    f.fake.setStatus(id, QStringLiteral("busy"));
    f.fake.handler = [&f, id, polls = 0](const FakeRequest &r) mutable -> std::optional<FakeResponse> {
        if (r.path == QLatin1String("/session/status") && ++polls == 3)
            f.fake.setStatus(id, QStringLiteral("idle"));
        return std::nullopt;
    };
    const ControlResult r =
        f.run(QStringLiteral("session.messages"),
              obj({{"sessionId", id}, {"lastAssistant", true}, {"wait", true}}), f.repo());
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r->value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
    QCOMPARE(r->value(QStringLiteral("sessionStatus")).toObject(), obj({{"type", "idle"}}));
    QCOMPARE(r->value(QStringLiteral("messages")).toArray().size(), 1);
    QCOMPARE(r->value(QStringLiteral("messages"))[0][QStringLiteral("text")].toString(),
             QStringLiteral("a2"));
    QCOMPARE(f.fake.count("GET", QStringLiteral("/session/status")), 3);
}

void tst_SessionService::unreachableOpenCodeNamesTheUrlAndWhatToRun()
{
    ServiceFixture f;
    const quint16 port = TestSupport::freePort();
    OpenCodeClient::Options options;
    options.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
    OpenCodeClient down(options);
    SessionService service(
        down, [] { return ControlSettings {}; }, nullptr);
    service.setTimers(f.service->timers());
    for (const QString &action : {QStringLiteral("session.create"), QStringLiteral("session.list")}) {
        std::optional<ControlResult> result;
        service.execute(action, {}, f.repo(), {}, [&result](ControlResult r) { result = r; });
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), TestSupport::scaled(10000));
        QVERIFY(!*result);
        QCOMPARE(result->error().status, 500);
        const QString message = result->error().message;
        QVERIFY2(message.contains(QStringLiteral("http://127.0.0.1:%1").arg(port)), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("opencode serve --port %1").arg(port)), qPrintable(message));
    }
}

void tst_SessionService::scheduledRunCreatesAndDispatchesWithoutLandingCheck()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    f.fake.landPrompts = false; // would fail the landing check: the scheduler does not make one
    std::optional<std::expected<QString, ControlError>> result;
    f.service->startScheduledRun({f.repo(), QStringLiteral("Nightly 2026-12-01 09:00"),
                                  QStringLiteral("run the report"), QStringLiteral("openai"),
                                  QStringLiteral("gpt-5.5"), QStringLiteral("plan"), QStringLiteral("high")},
                                 {}, [&result](auto r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QVERIFY2(result->has_value(), qPrintable(result->has_value() ? QString() : result->error().message));
    const QString id = **result;
    QCOMPARE(f.fake.find("POST", QStringLiteral("/session"))
                 .first()
                 .json()
                 .value(QStringLiteral("title"))
                 .toString(),
             QStringLiteral("Nightly 2026-12-01 09:00"));
    const QJsonObject body =
        f.fake.find("POST", QStringLiteral("/session/%1/prompt_async").arg(id)).first().json();
    QCOMPARE(body.value(QStringLiteral("agent")).toString(), QStringLiteral("plan"));
    QCOMPARE(body.value(QStringLiteral("variant")).toString(), QStringLiteral("high"));
    QCOMPARE(f.elapsedMs(), 0);

    result.reset();
    f.service->startScheduledRun(
        {f.repo(), {}, QStringLiteral("x"), QStringLiteral("openai"), QStringLiteral("nope"), {}, {}}, {},
        [&result](auto r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QVERIFY(!result->has_value());
    QCOMPARE(result->error().message, QStringLiteral("Unknown model 'openai/nope' for %1").arg(f.repo()));
}

QTEST_GUILESS_MAIN(tst_SessionService)
#include "tst_sessionservice.moc"
