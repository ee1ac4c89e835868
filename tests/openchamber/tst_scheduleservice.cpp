// The schedule.* actions (docs/spec/control-service.md §4.9–4.14): inputs and outputs, §3's
// scope rules for schedules, the order of the checks and their texts and statuses.
#include "tests/broker/brokerharness.h"
#include "tests/openchamber/schedulefixture.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace OpenChamber;

class tst_ScheduleService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void catalogListsTheSixActions();
    void createMapsInputs();
    void createRefusesBadInput_data();
    void createRefusesBadInput();
    void createAcceptsZonesQtDoesNotList_data();
    void createAcceptsZonesQtDoesNotList();
    void scopeRules_data();
    void scopeRules();
    void taskIdIsCheckedBeforeScope_data();
    void taskIdIsCheckedBeforeScope();
    void toggleNeedsARealBoolean();
    void deleteAnswersTheRemainingTasks();
    void runOfMissingOrDisabledTask();
    void statusCounts();
    void unknownActionIsRefused();

private:
    ControlResult call(const QString &action, const QJsonObject &input, const QString &context = {})
    {
        return m_module->call(action, input, context);
    }
    QString createTask(const QJsonObject &extra = {});

    std::unique_ptr<BrokerHarness> m_broker;
    std::shared_ptr<ScheduleTestModule> m_module;
    std::unique_ptr<QTemporaryDir> m_dirs;
};

void tst_ScheduleService::init()
{
    m_dirs = std::make_unique<QTemporaryDir>();
    m_broker = std::make_unique<BrokerHarness>(std::function<void(Broker::Settings &)>(), true);
    m_broker->clock().set(QDateTime(QDate(2026, 6, 1), QTime(8, 0), QTimeZone::utc()));
    m_module = std::make_shared<ScheduleTestModule>();
    for (const char *id : {"p1", "p2"}) {
        const QString path = m_dirs->filePath(QLatin1StringView(id));
        QVERIFY(QDir().mkpath(path));
        m_module->projects.append({QLatin1StringView(id), path});
    }
    m_broker->server().addModule(m_module);
    QVERIFY(m_broker->start());
}

void tst_ScheduleService::cleanup()
{
    m_broker.reset();
    m_module.reset();
    m_dirs.reset();
}

QString tst_ScheduleService::createTask(const QJsonObject &extra)
{
    QJsonObject input {{QStringLiteral("projectId"), QStringLiteral("p1")},
                       {QStringLiteral("name"), QStringLiteral("n")},
                       {QStringLiteral("prompt"), QStringLiteral("p")},
                       {QStringLiteral("model"), QStringLiteral("a/b")},
                       {QStringLiteral("daily"), QStringLiteral("09:00")}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        input.insert(it.key(), it.value());
    const auto created = call(QStringLiteral("schedule.create"), input);
    return created ? created->value(QStringLiteral("task"))[QStringLiteral("id")].toString() : QString();
}

void tst_ScheduleService::catalogListsTheSixActions()
{
    const QList<ActionInfo> actions = m_module->service->catalog();
    QStringList names;
    for (const ActionInfo &action : actions) {
        names.append(action.name);
        QVERIFY(!action.title.isEmpty());
        QVERIFY(!action.description.isEmpty());
        QCOMPARE(action.agentExposed, action.name != u"schedule.status");
    }
    QCOMPARE(names,
             (QStringList {QStringLiteral("schedule.status"), QStringLiteral("schedule.list"),
                           QStringLiteral("schedule.create"), QStringLiteral("schedule.run"),
                           QStringLiteral("schedule.delete"), QStringLiteral("schedule.toggle")}));
}

// docs/spec/control-service.md §12: daily " 09:00 " → {kind: daily, times: ["09:00"]}, model split,
// goal and budget passed, project resolved from the directory.
void tst_ScheduleService::createMapsInputs()
{
    const auto created =
        call(QStringLiteral("schedule.create"),
             {{QStringLiteral("directory"), QString(m_module->projects[1].path + QStringLiteral("/./"))},
              {QStringLiteral("name"), QStringLiteral(" Morning ")},
              {QStringLiteral("prompt"), QStringLiteral("say hi")},
              {QStringLiteral("model"), QStringLiteral("openai/gpt-5.5/fast")},
              {QStringLiteral("daily"), QStringLiteral(" 09:00 ")},
              {QStringLiteral("timezone"), QStringLiteral("Europe/Kyiv")},
              {QStringLiteral("agent"), QStringLiteral("plan")},
              {QStringLiteral("variant"), QStringLiteral("high")},
              {QStringLiteral("goal"), true},
              {QStringLiteral("goalTokenBudget"), 200000},
              {QStringLiteral("unknownKey"), 1}});
    QVERIFY2(created, created ? "" : qPrintable(created.error().message));
    QCOMPARE(created->value(QStringLiteral("created")).toBool(), true);
    const QJsonObject task = created->value(QStringLiteral("task")).toObject();
    QCOMPARE(task[QStringLiteral("name")].toString(), QStringLiteral("Morning"));
    QCOMPARE(task[QStringLiteral("enabled")].toBool(), true);
    QCOMPARE(task[QStringLiteral("schedule")].toObject(),
             (QJsonObject {{QStringLiteral("kind"), QStringLiteral("daily")},
                           {QStringLiteral("times"), QJsonArray {QStringLiteral("09:00")}},
                           {QStringLiteral("timezone"), QStringLiteral("Europe/Kyiv")}}));
    QCOMPARE(task[QStringLiteral("execution")].toObject(),
             (QJsonObject {{QStringLiteral("prompt"), QStringLiteral("say hi")},
                           {QStringLiteral("providerID"), QStringLiteral("openai")},
                           {QStringLiteral("modelID"), QStringLiteral("gpt-5.5/fast")},
                           {QStringLiteral("agent"), QStringLiteral("plan")},
                           {QStringLiteral("variant"), QStringLiteral("high")},
                           {QStringLiteral("goalEnabled"), true},
                           {QStringLiteral("goalTokenBudget"), 200000}}));
    const QJsonObject state = task[QStringLiteral("state")].toObject();
    QCOMPARE(state[QStringLiteral("lastStatus")].toString(), QStringLiteral("idle"));
    QVERIFY(state.contains(QStringLiteral("nextRunAt")));
    const auto listed =
        call(QStringLiteral("schedule.list"), {{QStringLiteral("projectId"), QStringLiteral("p2")}});
    QVERIFY(listed);
    QCOMPARE(listed->value(QStringLiteral("tasks")).toArray().size(), 1);
    QCOMPARE(listed->value(QStringLiteral("scheduler"))[QStringLiteral("enabledScheduledTasksCount")].toInt(),
             1);
}

void tst_ScheduleService::createRefusesBadInput_data()
{
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    const QJsonObject good {{QStringLiteral("projectId"), QStringLiteral("p1")},
                            {QStringLiteral("name"), QStringLiteral("n")},
                            {QStringLiteral("prompt"), QStringLiteral("p")},
                            {QStringLiteral("model"), QStringLiteral("a/b")},
                            {QStringLiteral("daily"), QStringLiteral("09:00")}};
    const auto with = [&good](std::initializer_list<std::pair<const char *, QJsonValue>> changes) {
        QJsonObject input = good;
        for (const auto &[key, value] : changes) {
            if (value.isUndefined())
                input.remove(QLatin1StringView(key));
            else
                input.insert(QLatin1StringView(key), value);
        }
        return input;
    };
    const QJsonValue drop(QJsonValue::Undefined);
    // Scope first, then the contract's order.
    QTest::newRow("scope before name") << with({{"projectId", QStringLiteral("nope")}, {"name", drop}}) << 404
                                       << QStringLiteral("Project not found");
    QTest::newRow("name") << with({{"name", QStringLiteral("  ")}, {"prompt", drop}}) << 400
                          << QStringLiteral("name is required");
    QTest::newRow("name not a string") << with({{"name", 5}}) << 400 << QStringLiteral("name is required");
    QTest::newRow("prompt") << with({{"prompt", drop}, {"model", drop}}) << 400
                            << QStringLiteral("prompt is required");
    QTest::newRow("model") << with({{"model", drop}, {"daily", drop}}) << 400
                           << QStringLiteral("model is required");
    QTest::newRow("model format") << with({{"model", QStringLiteral("gpt")}}) << 400
                                  << QStringLiteral("model must be in provider/model format");
    QTest::newRow("model empty half") << with({{"model", QStringLiteral("a/")}}) << 400
                                      << QStringLiteral("model must be in provider/model format");
    QTest::newRow("budget without goal") << with({{"goalTokenBudget", 5000}, {"daily", drop}}) << 400
                                         << QStringLiteral("goalTokenBudget requires goal");
    QTest::newRow("goal string is not true")
        << with({{"goal", QStringLiteral("true")}, {"goalTokenBudget", 5000}}) << 400
        << QStringLiteral("goalTokenBudget requires goal");
    QTest::newRow("budget low") << with({{"goal", true}, {"goalTokenBudget", 999}}) << 400
                                << QStringLiteral("goalTokenBudget must be from 1000 to 100000000");
    QTest::newRow("budget fraction") << with({{"goal", true}, {"goalTokenBudget", 1000.5}}) << 400
                                     << QStringLiteral("goalTokenBudget must be from 1000 to 100000000");
    QTest::newRow("no selector") << with({{"daily", drop}}) << 400
                                 << QStringLiteral("Provide exactly one of daily, weekly, once, or cron");
    QTest::newRow("two selectors") << with({{"cron", QStringLiteral("* * * * *")}}) << 400
                                   << QStringLiteral("Provide exactly one of daily, weekly, once, or cron");
    QTest::newRow("weekly without time") << with({{"daily", drop}, {"weekly", QStringLiteral("1,2")}}) << 400
                                         << QStringLiteral("time is required with weekly");
    QTest::newRow("weekly day 7") << with({{"daily", drop},
                                           {"weekly", QStringLiteral("1,7")},
                                           {"time", QStringLiteral("09:00")}})
                                  << 400 << QStringLiteral("weekly must contain weekdays from 0 to 6");
    QTest::newRow("weekly word") << with({{"daily", drop},
                                          {"weekly", QStringLiteral("mon")},
                                          {"time", QStringLiteral("09:00")}})
                                 << 400 << QStringLiteral("weekly must contain weekdays from 0 to 6");
    QTest::newRow("weekly commas only")
        << with({{"daily", drop}, {"weekly", QStringLiteral(",,")}, {"time", QStringLiteral("09:00")}}) << 400
        << QStringLiteral("weekly is required");
    QTest::newRow("once without time") << with({{"daily", drop}, {"once", QStringLiteral("2026-09-01")}})
                                       << 400 << QStringLiteral("time is required with once");
    // The storage checks (docs/spec/control-service.md §9.1): 400 here, every one of them
    // (docs/divergences.md).
    QTest::newRow("daily 25:00") << with({{"daily", QStringLiteral("25:00")}}) << 400
                                 << QStringLiteral("schedule.times is invalid: '25:00' is not HH:mm");
    QTest::newRow("once 2026-02-30")
        << with({{"daily", drop}, {"once", QStringLiteral("2026-02-30")}, {"time", QStringLiteral("09:00")}})
        << 400 << QStringLiteral("schedule.date is invalid: '2026-02-30' is not a real YYYY-MM-DD date");
    QTest::newRow("once time 9:00") << with({{"daily", drop},
                                             {"once", QStringLiteral("2026-09-01")},
                                             {"time", QStringLiteral("9:00")}})
                                    << 400 << QStringLiteral("schedule.time is invalid: '9:00' is not HH:mm");
    QTest::newRow("bad zone") << with({{"timezone", QStringLiteral("Mars/Olympus")}}) << 400
                              << QStringLiteral(
                                     "schedule.timezone is invalid: Mars/Olympus is not an IANA time zone");
    // The zone names a file under /usr/share/zoneinfo: a path is never looked up.
    QTest::newRow("zone as a path") << with({{"timezone", QStringLiteral("../../../etc/passwd")}}) << 400
                                    << QStringLiteral(
                                           "schedule.timezone is invalid: ../../../etc/passwd is not an "
                                           "IANA time zone");
    QTest::newRow("zone absolute")
        << with({{"timezone", QStringLiteral("/etc/localtime")}}) << 400
        << QStringLiteral("schedule.timezone is invalid: /etc/localtime is not an IANA time zone");
    QTest::newRow("bad cron") << with({{"daily", drop}, {"cron", QStringLiteral("61 * * * *")}}) << 400
                              << QStringLiteral(
                                     "schedule.cron is invalid: cron field minute: 61 is out of range 0-59");
    QTest::newRow("long cron")
        << with({{"daily", drop},
                 {"cron", QString(QStringLiteral("1,").repeated(100) + QStringLiteral("1 * * * *"))}})
        << 400 << QStringLiteral("schedule.cron is invalid: longer than 200 characters");
    QTest::newRow("long name") << with({{"name", QStringLiteral("x").repeated(81)}}) << 400
                               << QStringLiteral("name is invalid: longer than 80 characters");
    QTest::newRow("long prompt") << with({{"prompt", QStringLiteral("x").repeated(20001)}}) << 400
                                 << QStringLiteral(
                                        "execution.prompt is invalid: longer than 20000 characters");
}

void tst_ScheduleService::createRefusesBadInput()
{
    QFETCH(QJsonObject, input);
    QFETCH(int, status);
    QFETCH(QString, message);
    const auto created = call(QStringLiteral("schedule.create"), input);
    QVERIFY(!created);
    QCOMPARE(created.error().message, message);
    QCOMPARE(created.error().status, status);
    const auto listed =
        call(QStringLiteral("schedule.list"), {{QStringLiteral("projectId"), QStringLiteral("p1")}});
    QVERIFY(listed);
    QVERIFY(listed->value(QStringLiteral("tasks")).toArray().isEmpty());
}

// Qt 6.4's list of zone ids lacks the Etc/ zones; a server's system zone is often Etc/UTC.
void tst_ScheduleService::createAcceptsZonesQtDoesNotList_data()
{
    QTest::addColumn<QString>("zone");
    QTest::newRow("Etc/UTC") << QStringLiteral("Etc/UTC");
    QTest::newRow("Etc/GMT+5") << QStringLiteral("Etc/GMT+5");
    QTest::newRow("UTC") << QStringLiteral("UTC");
}

void tst_ScheduleService::createAcceptsZonesQtDoesNotList()
{
    QFETCH(QString, zone);
    const auto created = call(QStringLiteral("schedule.create"),
                              {{QStringLiteral("directory"), m_module->projects[1].path},
                               {QStringLiteral("name"), QStringLiteral("Zoned")},
                               {QStringLiteral("prompt"), QStringLiteral("say hi")},
                               {QStringLiteral("model"), QStringLiteral("openai/gpt-5.5")},
                               {QStringLiteral("daily"), QStringLiteral("09:00")},
                               {QStringLiteral("timezone"), zone}});
    QVERIFY2(created, created ? "" : qPrintable(created.error().message));
    QCOMPARE(created->value(QStringLiteral("task"))[QStringLiteral("schedule")][QStringLiteral("timezone")]
                 .toString(),
             zone);
    QVERIFY(created->value(QStringLiteral("task"))[QStringLiteral("state")][QStringLiteral("nextRunAt")]
                .isDouble());
}

void tst_ScheduleService::scopeRules_data()
{
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QString>("context"); // "P1"/"P2": that project's path
    QTest::addColumn<int>("status"); // 200: listed
    QTest::addColumn<QString>("expect"); // the project listed, or the error message
    QTest::newRow("projectId wins over context")
        << QJsonObject {{QStringLiteral("projectId"), QStringLiteral("p2")}} << QStringLiteral("P1") << 200
        << QStringLiteral("p2");
    QTest::newRow("directory") << QJsonObject {{QStringLiteral("directory"), QStringLiteral("P2")}}
                               << QString() << 200 << QStringLiteral("p2");
    QTest::newRow("directory beats context")
        << QJsonObject {{QStringLiteral("directory"), QStringLiteral("P2")}} << QStringLiteral("P1") << 200
        << QStringLiteral("p2");
    QTest::newRow("context") << QJsonObject {} << QStringLiteral("P1") << 200 << QStringLiteral("p1");
    QTest::newRow("both") << QJsonObject {{QStringLiteral("projectId"), QStringLiteral("p1")},
                                          {QStringLiteral("directory"), QStringLiteral("P1")}}
                          << QString() << 400 << QStringLiteral("Provide only one of projectId or directory");
    QTest::newRow("neither") << QJsonObject {} << QString() << 400
                             << QStringLiteral("projectId or directory is required");
    QTest::newRow("blank strings are absent")
        << QJsonObject {{QStringLiteral("projectId"), QStringLiteral(" ")},
                        {QStringLiteral("directory"), QStringLiteral("")}}
        << QString() << 400 << QStringLiteral("projectId or directory is required");
    QTest::newRow("unknown project") << QJsonObject {{QStringLiteral("projectId"), QStringLiteral("p9")}}
                                     << QString() << 404 << QStringLiteral("Project not found");
    QTest::newRow("unknown directory")
        << QJsonObject {{QStringLiteral("directory"), QStringLiteral("/nowhere/x/../y")}} << QString() << 404
        << QStringLiteral("Project not found for directory: /nowhere/y");
}

void tst_ScheduleService::scopeRules()
{
    QFETCH(QJsonObject, input);
    QFETCH(QString, context);
    QFETCH(int, status);
    QFETCH(QString, expect);
    const auto path = [this](const QString &marker) {
        return marker == u"P1" ? m_module->projects[0].path
            : marker == u"P2"  ? m_module->projects[1].path
                               : marker;
    };
    if (input.contains(QStringLiteral("directory")))
        input.insert(QStringLiteral("directory"), path(input.value(QStringLiteral("directory")).toString()));
    QVERIFY(!createTask({{QStringLiteral("projectId"), QStringLiteral("p2")}}).isEmpty());
    const auto listed = call(QStringLiteral("schedule.list"), input, path(context));
    if (status != 200) {
        QVERIFY(!listed);
        QCOMPARE(listed.error().status, status);
        QCOMPARE(listed.error().message, expect);
        return;
    }
    QVERIFY2(listed, listed ? "" : qPrintable(listed.error().message));
    QCOMPARE(listed->value(QStringLiteral("tasks")).toArray().size(), expect == u"p2" ? 1 : 0);
}

void tst_ScheduleService::taskIdIsCheckedBeforeScope_data()
{
    QTest::addColumn<QString>("action");
    for (const char *action : {"schedule.run", "schedule.delete", "schedule.toggle"})
        QTest::newRow(action) << QString::fromLatin1(action);
}

void tst_ScheduleService::taskIdIsCheckedBeforeScope()
{
    QFETCH(QString, action);
    const auto result = call(action,
                             {{QStringLiteral("projectId"), QStringLiteral("p1")},
                              {QStringLiteral("directory"), QStringLiteral("/x")}});
    QVERIFY(!result);
    QCOMPARE(result.error().status, 400);
    QCOMPARE(result.error().message, QStringLiteral("taskId is required"));
}

void tst_ScheduleService::toggleNeedsARealBoolean()
{
    const QString id = createTask();
    // disabled is checked after scope resolution.
    auto result = call(QStringLiteral("schedule.toggle"),
                       {{QStringLiteral("taskId"), id}, {QStringLiteral("projectId"), QStringLiteral("p9")}});
    QCOMPARE(result.error().message, QStringLiteral("Project not found"));
    for (const QJsonValue &bad : {QJsonValue(), QJsonValue(QStringLiteral("true")), QJsonValue(1)}) {
        result = call(QStringLiteral("schedule.toggle"),
                      {{QStringLiteral("taskId"), id},
                       {QStringLiteral("projectId"), QStringLiteral("p1")},
                       {QStringLiteral("disabled"), bad}});
        QVERIFY(!result);
        QCOMPARE(result.error().message, QStringLiteral("disabled is required for schedule.toggle"));
    }
    result = call(QStringLiteral("schedule.toggle"),
                  {{QStringLiteral("taskId"), QStringLiteral("nope")},
                   {QStringLiteral("projectId"), QStringLiteral("p1")},
                   {QStringLiteral("disabled"), true}});
    QCOMPARE(result.error().status, 404);
    QCOMPARE(result.error().message, QStringLiteral("Task not found"));
    result = call(QStringLiteral("schedule.toggle"),
                  {{QStringLiteral("taskId"), id},
                   {QStringLiteral("projectId"), QStringLiteral("p1")},
                   {QStringLiteral("disabled"), true}});
    QVERIFY(result);
    QCOMPARE(result->value(QStringLiteral("enabled")).toBool(), false);
    QCOMPARE(result->value(QStringLiteral("task"))[QStringLiteral("enabled")].toBool(), false);
    QVERIFY(!result->value(QStringLiteral("task"))[QStringLiteral("state")].toObject().contains(
        QStringLiteral("nextRunAt")));
    // In another project the task does not exist.
    result = call(QStringLiteral("schedule.toggle"),
                  {{QStringLiteral("taskId"), id},
                   {QStringLiteral("projectId"), QStringLiteral("p2")},
                   {QStringLiteral("disabled"), false}});
    QCOMPARE(result.error().status, 404);
}

void tst_ScheduleService::deleteAnswersTheRemainingTasks()
{
    const QString first = createTask();
    const QString second = createTask();
    auto result =
        call(QStringLiteral("schedule.delete"),
             {{QStringLiteral("taskId"), first}, {QStringLiteral("projectId"), QStringLiteral("p1")}});
    QVERIFY(result);
    QCOMPARE(result->value(QStringLiteral("deleted")).toBool(), true);
    const QJsonArray remaining = result->value(QStringLiteral("tasks")).toArray();
    QCOMPARE(remaining.size(), 1);
    QCOMPARE(remaining[0][QStringLiteral("id")].toString(), second);
    result = call(QStringLiteral("schedule.delete"),
                  {{QStringLiteral("taskId"), first}, {QStringLiteral("projectId"), QStringLiteral("p1")}});
    QCOMPARE(result.error().status, 404);
    QCOMPARE(result.error().message, QStringLiteral("Task not found"));
}

void tst_ScheduleService::runOfMissingOrDisabledTask()
{
    const QString id = createTask({{QStringLiteral("disabled"), true}});
    for (const QString &taskId : {id, QStringLiteral("nope")}) {
        const auto result =
            call(QStringLiteral("schedule.run"),
                 {{QStringLiteral("taskId"), taskId}, {QStringLiteral("projectId"), QStringLiteral("p1")}});
        QVERIFY(!result);
        QCOMPARE(result.error().status, 404);
        QCOMPARE(result.error().message, QStringLiteral("Task not found or disabled"));
    }
    QCOMPARE(m_module->fake.calls.size(), 0);
}

void tst_ScheduleService::statusCounts()
{
    auto status = call(QStringLiteral("schedule.status"), {});
    QVERIFY(status);
    QCOMPARE(*status,
             (QJsonObject {{QStringLiteral("hasEnabledScheduledTasks"), false},
                           {QStringLiteral("hasRunningScheduledTasks"), false},
                           {QStringLiteral("enabledScheduledTasksCount"), 0},
                           {QStringLiteral("runningScheduledTasksCount"), 0}}));
    createTask();
    createTask({{QStringLiteral("disabled"), true}});
    const QString running = createTask();
    m_module->fake.answerAtOnce = false;
    std::optional<ControlResult> pending;
    m_module->service->execute(
        QStringLiteral("schedule.run"),
        {{QStringLiteral("taskId"), running}, {QStringLiteral("projectId"), QStringLiteral("p1")}}, {}, {},
        [&pending](ControlResult r) { pending = std::move(r); });
    status = call(QStringLiteral("schedule.status"), {});
    QCOMPARE(*status,
             (QJsonObject {{QStringLiteral("hasEnabledScheduledTasks"), true},
                           {QStringLiteral("hasRunningScheduledTasks"), true},
                           {QStringLiteral("enabledScheduledTasksCount"), 2},
                           {QStringLiteral("runningScheduledTasksCount"), 1}}));
    m_module->fake.answerHeld();
    QVERIFY(pending && *pending);
}

void tst_ScheduleService::unknownActionIsRefused()
{
    for (const QString &action : {QStringLiteral("schedule.enable"), QString()}) {
        const auto result = call(action, {});
        QVERIFY(!result);
        QCOMPARE(result.error().status, 400);
        QCOMPARE(result.error().message,
                 QStringLiteral("Unsupported OpenChamber action: %1")
                     .arg(action.isEmpty() ? QStringLiteral("missing") : action));
    }
}

QTEST_GUILESS_MAIN(tst_ScheduleService)
#include "tst_scheduleservice.moc"
