// The scheduler in a real BrokerServer with a ManualClock (its job runs by that clock through
// runDueJobs) and the real SQLite file: a due task runs exactly once, also across a broker
// restart in the middle of its run; missed occurrences run once; concurrency limits; disabled
// tasks; the run watchdog; next runs in time zones.
#include "tests/broker/brokerharness.h"
#include "tests/openchamber/schedulefixture.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace OpenChamber;

namespace {

const QDateTime june1 = QDateTime(QDate(2026, 6, 1), QTime(8, 0), QTimeZone::utc());

qint64 ms(const QDateTime &at)
{
    return at.toMSecsSinceEpoch();
}

} // namespace

class tst_Scheduler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void dueOnceTaskRunsExactlyOnce();
    void restartMidRunDoesNotRunTwice();
    void restartMidRunOfDailyTaskKeepsTheNextDay();
    void occurrenceMissedWhileStoppedRunsOnce();
    void concurrencyLimits();
    void disabledTaskIsSkippedUntilEnabled();
    void failedRunRecordsTheError();
    void disablingDuringARunIsKept();
    void taskOfARemovedProjectFailsWithoutRetrying();
    void runPastMaximumDurationTimesOut();
    void manualRunAndConflicts();
    void nextRunsInTimeZones_data();
    void nextRunsInTimeZones();

private:
    void startBroker();
    void advanceTo(const QDateTime &at);
    QJsonObject create(QJsonObject input, const QString &project = QStringLiteral("p1"));
    // A daily task at `time` UTC; its id ("" when it could not be created).
    QString createDailyUtc(const QString &time, const QString &project = QStringLiteral("p1"));
    QJsonObject task(const QString &id, const QString &project = QStringLiteral("p1"));
    QJsonObject stateOf(const QString &id) { return task(id)[QStringLiteral("state")].toObject(); }

    std::unique_ptr<BrokerHarness> m_broker;
    std::shared_ptr<ScheduleTestModule> m_module;
    std::unique_ptr<QTemporaryDir> m_projects;
};

void tst_Scheduler::init()
{
    m_projects = std::make_unique<QTemporaryDir>();
    m_broker = std::make_unique<BrokerHarness>(std::function<void(Broker::Settings &)>(), true);
    m_broker->clock().set(june1);
    m_module = std::make_shared<ScheduleTestModule>();
    for (const char *id : {"p1", "p2"}) {
        const QString path = m_projects->filePath(QLatin1StringView(id));
        QVERIFY(QDir().mkpath(path));
        m_module->projects.append({QLatin1StringView(id), path});
    }
    m_broker->server().addModule(m_module);
    startBroker();
}

void tst_Scheduler::cleanup()
{
    m_broker.reset();
    m_module.reset();
    m_projects.reset();
}

void tst_Scheduler::startBroker()
{
    QVERIFY(m_broker->start());
    QCOMPARE(m_module->name(), QStringLiteral("openchamber"));
}

void tst_Scheduler::advanceTo(const QDateTime &at)
{
    const qint64 step = ms(at) - m_broker->clock().msecsSinceEpoch();
    QVERIFY(step >= 0);
    m_broker->clock().advance(step);
    m_broker->server().runDueJobs();
}

QJsonObject tst_Scheduler::create(QJsonObject input, const QString &project)
{
    input.insert(QStringLiteral("projectId"), project);
    if (!input.contains(QStringLiteral("name")))
        input.insert(QStringLiteral("name"), QStringLiteral("Nightly"));
    input.insert(QStringLiteral("prompt"), QStringLiteral("run the checks"));
    input.insert(QStringLiteral("model"), QStringLiteral("mock/mock-model"));
    const auto created = m_module->call(QStringLiteral("schedule.create"), input);
    if (!created) {
        qWarning() << "create failed:" << created.error().message;
        return {};
    }
    return created->value(QStringLiteral("task")).toObject();
}

QString tst_Scheduler::createDailyUtc(const QString &time, const QString &project)
{
    return create({{QStringLiteral("daily"), time}, {QStringLiteral("timezone"), QStringLiteral("UTC")}},
                  project)
        .value(QStringLiteral("id"))
        .toString();
}

QJsonObject tst_Scheduler::task(const QString &id, const QString &project)
{
    const auto listed =
        m_module->call(QStringLiteral("schedule.list"), {{QStringLiteral("projectId"), project}});
    if (!listed)
        return {};
    for (const QJsonValue &value : listed->value(QStringLiteral("tasks")).toArray()) {
        if (value[QStringLiteral("id")].toString() == id)
            return value.toObject();
    }
    return {};
}

void tst_Scheduler::dueOnceTaskRunsExactlyOnce()
{
    const QJsonObject created = create({{QStringLiteral("once"), QStringLiteral("2026-06-01")},
                                        {QStringLiteral("time"), QStringLiteral("10:30")},
                                        {QStringLiteral("timezone"), QStringLiteral("Europe/Berlin")}});
    const QString id = created[QStringLiteral("id")].toString();
    QVERIFY(!id.isEmpty());
    const QDateTime due(QDate(2026, 6, 1), QTime(8, 30), QTimeZone::utc()); // 10:30 CEST
    QCOMPARE(created[QStringLiteral("state")][QStringLiteral("nextRunAt")].toDouble(), double(ms(due)));

    advanceTo(due.addSecs(-1));
    QCOMPARE(m_module->fake.calls.size(), 0);
    advanceTo(due);
    QCOMPARE(m_module->fake.calls.size(), 1);
    const ScheduledRunRequest request = m_module->fake.calls.first().request;
    QCOMPARE(request.title, QStringLiteral("Nightly 2026-06-01 10:30"));
    QCOMPARE(request.directory, m_module->projects.first().path);
    QCOMPARE(request.prompt, QStringLiteral("run the checks"));
    QCOMPARE(request.providerID, QStringLiteral("mock"));
    QCOMPARE(request.modelID, QStringLiteral("mock-model"));

    const QJsonObject after = task(id);
    QCOMPARE(after[QStringLiteral("enabled")].toBool(), false);
    const QJsonObject state = after[QStringLiteral("state")].toObject();
    QCOMPARE(state[QStringLiteral("lastStatus")].toString(), QStringLiteral("success"));
    QCOMPARE(state[QStringLiteral("lastSessionId")].toString(), QStringLiteral("ses_1"));
    QCOMPARE(state[QStringLiteral("lastScheduledFor")].toDouble(), double(ms(due)));
    QCOMPARE(state[QStringLiteral("lastRunAt")].toDouble(), double(ms(due)));
    QVERIFY(!state.contains(QStringLiteral("nextRunAt")));

    for (int hour = 1; hour <= 48; ++hour)
        advanceTo(due.addSecs(hour * 3600));
    QCOMPARE(m_module->fake.calls.size(), 1);
}

void tst_Scheduler::restartMidRunDoesNotRunTwice()
{
    m_module->fake.answerAtOnce = false;
    const QString id = create({{QStringLiteral("once"), QStringLiteral("2026-06-01")},
                               {QStringLiteral("time"), QStringLiteral("08:10")},
                               {QStringLiteral("timezone"), QStringLiteral("UTC")}})[QStringLiteral("id")]
                           .toString();
    advanceTo(june1.addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 1);
    QCOMPARE(stateOf(id)[QStringLiteral("lastStatus")].toString(), QStringLiteral("running"));
    const OpenChamber::CancelToken cancel = m_module->fake.calls.first().cancel;

    // The broker stops in the middle of the run and starts again on the same database file.
    m_broker->server().stop();
    QVERIFY(cancel.isCancelled());
    m_module->fake.held.clear();
    startBroker();
    QCOMPARE(m_module->recovered, 1);
    const QJsonObject after = task(id);
    QCOMPARE(after[QStringLiteral("enabled")].toBool(), false);
    QCOMPARE(after[QStringLiteral("state")][QStringLiteral("lastStatus")].toString(),
             QStringLiteral("error"));
    QVERIFY(
        after[QStringLiteral("state")][QStringLiteral("lastError")].toString().contains(u"never runs twice"));
    for (int minute = 1; minute <= 120; ++minute)
        advanceTo(june1.addSecs(600 + minute * 60));
    QCOMPARE(m_module->fake.calls.size(), 1);
    QCOMPARE(m_module->scheduler->runningCount(), 0);
}

void tst_Scheduler::restartMidRunOfDailyTaskKeepsTheNextDay()
{
    m_module->fake.answerAtOnce = false;
    const QString id = createDailyUtc(QStringLiteral("08:10"));
    advanceTo(june1.addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 1);
    m_broker->server().stop();
    m_module->fake.held.clear();
    startBroker();
    const QJsonObject after = task(id);
    QCOMPARE(after[QStringLiteral("enabled")].toBool(), true);
    QCOMPARE(after[QStringLiteral("state")][QStringLiteral("nextRunAt")].toDouble(),
             double(ms(june1.addDays(1).addSecs(600))));
    advanceTo(june1.addSecs(3600));
    QCOMPARE(m_module->fake.calls.size(), 1);
    advanceTo(june1.addDays(1).addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 2);
}

void tst_Scheduler::occurrenceMissedWhileStoppedRunsOnce()
{
    const QString id = createDailyUtc(QStringLiteral("09:00"));
    m_broker->server().stop();
    m_broker->clock().advance(3 * 24 * 3600 * 1000LL); // three occurrences pass while stopped
    startBroker();
    QCOMPARE(m_module->recovered, 0);
    m_broker->clock().advance(1000);
    m_broker->server().runDueJobs();
    QCOMPARE(m_module->fake.calls.size(), 1);
    const QJsonObject state = stateOf(id);
    QCOMPARE(state[QStringLiteral("lastScheduledFor")].toDouble(), double(ms(june1.addSecs(3600))));
    QCOMPARE(state[QStringLiteral("nextRunAt")].toDouble(), double(ms(june1.addDays(3).addSecs(3600))));
    advanceTo(june1.addDays(3).addSecs(1800));
    QCOMPARE(m_module->fake.calls.size(), 1);
    advanceTo(june1.addDays(3).addSecs(3600));
    QCOMPARE(m_module->fake.calls.size(), 2);
}

void tst_Scheduler::concurrencyLimits()
{
    // Limits are read at start: restart with global 3, per project 2.
    m_broker->server().stop();
    m_module->limits = {3, 2, 30 * 60 * 1000};
    startBroker();
    m_module->fake.answerAtOnce = false;
    for (int i = 0; i < 3; ++i)
        QVERIFY(!createDailyUtc(QStringLiteral("08:10"), QStringLiteral("p1")).isEmpty());
    for (int i = 0; i < 2; ++i)
        QVERIFY(!createDailyUtc(QStringLiteral("08:10"), QStringLiteral("p2")).isEmpty());
    advanceTo(june1.addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 3);
    QMap<QString, int> perProject;
    for (const auto &call : std::as_const(m_module->fake.calls))
        ++perProject[call.request.directory];
    for (int count : std::as_const(perProject))
        QVERIFY(count <= 2);
    advanceTo(june1.addSecs(605));
    QCOMPARE(m_module->fake.calls.size(), 3); // still full
    m_module->fake.answerHeld();
    advanceTo(june1.addSecs(610));
    QCOMPARE(m_module->fake.calls.size(), 5); // the two that waited, late but once
    m_module->fake.answerHeld();
    advanceTo(june1.addSecs(3600));
    QCOMPARE(m_module->fake.calls.size(), 5);
    QCOMPARE(m_module->scheduler->runningCount(), 0);
}

void tst_Scheduler::disabledTaskIsSkippedUntilEnabled()
{
    const QJsonObject created = create({{QStringLiteral("daily"), QStringLiteral("08:10")},
                                        {QStringLiteral("timezone"), QStringLiteral("UTC")},
                                        {QStringLiteral("disabled"), true}});
    const QString id = created[QStringLiteral("id")].toString();
    QCOMPARE(created[QStringLiteral("enabled")].toBool(), false);
    QVERIFY(!created[QStringLiteral("state")].toObject().contains(QStringLiteral("nextRunAt")));
    advanceTo(june1.addSecs(3600));
    QCOMPARE(m_module->fake.calls.size(), 0);
    const auto toggled = m_module->call(QStringLiteral("schedule.toggle"),
                                        {{QStringLiteral("projectId"), QStringLiteral("p1")},
                                         {QStringLiteral("taskId"), id},
                                         {QStringLiteral("disabled"), false}});
    QVERIFY(toggled);
    QCOMPARE(toggled->value(QStringLiteral("enabled")).toBool(), true);
    QCOMPARE(toggled->value(QStringLiteral("task"))[QStringLiteral("state")][QStringLiteral("nextRunAt")]
                 .toDouble(),
             double(ms(june1.addDays(1).addSecs(600))));
    advanceTo(june1.addDays(1).addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 1);
}

void tst_Scheduler::failedRunRecordsTheError()
{
    m_module->fake.failWith = ControlError {500, QStringLiteral("prompt_async failed (500): boom"), {}};
    const QString id = createDailyUtc(QStringLiteral("08:10"));
    advanceTo(june1.addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 1);
    const QJsonObject state = stateOf(id);
    QCOMPARE(state[QStringLiteral("lastStatus")].toString(), QStringLiteral("error"));
    QCOMPARE(state[QStringLiteral("lastError")].toString(),
             QStringLiteral("prompt_async failed (500): boom"));
    QCOMPARE(state[QStringLiteral("nextRunAt")].toDouble(), double(ms(june1.addDays(1).addSecs(600))));
}

void tst_Scheduler::disablingDuringARunIsKept()
{
    m_module->fake.answerAtOnce = false;
    const QString id = createDailyUtc(QStringLiteral("08:10"));
    advanceTo(june1.addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 1);
    QVERIFY(m_module->call(QStringLiteral("schedule.toggle"),
                           {{QStringLiteral("projectId"), QStringLiteral("p1")},
                            {QStringLiteral("taskId"), id},
                            {QStringLiteral("disabled"), true}}));
    m_module->fake.answerHeld();
    const QJsonObject after = task(id);
    QCOMPARE(after[QStringLiteral("enabled")].toBool(), false);
    QCOMPARE(after[QStringLiteral("state")][QStringLiteral("lastStatus")].toString(),
             QStringLiteral("success"));
    QVERIFY(!after[QStringLiteral("state")].toObject().contains(QStringLiteral("nextRunAt")));
    advanceTo(june1.addDays(1).addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 1);
}

void tst_Scheduler::taskOfARemovedProjectFailsWithoutRetrying()
{
    const QString id = create({{QStringLiteral("cron"), QStringLiteral("10 8 * * *")},
                               {QStringLiteral("timezone"), QStringLiteral("UTC")}})[QStringLiteral("id")]
                           .toString();
    m_module->projects.removeFirst(); // p1 leaves the configuration
    advanceTo(june1.addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 0);
    const QJsonObject state = task(id, QStringLiteral("p1"))[QStringLiteral("state")].toObject();
    QVERIFY(state.isEmpty()); // the project cannot be listed any more
    const auto stored = m_module->store->find(id);
    QVERIFY(stored && *stored);
    QCOMPARE((*stored)->state.lastStatus, QStringLiteral("error"));
    QCOMPARE((*stored)->state.lastError, QStringLiteral("Project not found"));
    QCOMPARE(*(*stored)->state.nextRunAt, ms(june1.addDays(1).addSecs(600)));
    advanceTo(june1.addSecs(3600));
    QCOMPARE(m_module->scheduler->runningCount(), 0);
}

void tst_Scheduler::runPastMaximumDurationTimesOut()
{
    m_module->fake.answerAtOnce = false;
    const QString id = createDailyUtc(QStringLiteral("08:10"));
    advanceTo(june1.addSecs(600));
    QCOMPARE(m_module->fake.calls.size(), 1);
    advanceTo(june1.addSecs(600 + 29 * 60));
    QCOMPARE(m_module->scheduler->runningCount(), 1);
    advanceTo(june1.addSecs(600 + 30 * 60));
    QCOMPARE(m_module->scheduler->runningCount(), 0);
    QVERIFY(m_module->fake.calls.first().cancel.isCancelled());
    QCOMPARE(stateOf(id)[QStringLiteral("lastError")].toString(),
             QStringLiteral("scheduled task run timed out"));
    m_module->fake.answerHeld(); // a late answer changes nothing
    QCOMPARE(stateOf(id)[QStringLiteral("lastStatus")].toString(), QStringLiteral("error"));
}

void tst_Scheduler::manualRunAndConflicts()
{
    m_module->fake.answerAtOnce = false;
    const QString id =
        create({{QStringLiteral("daily"), QStringLiteral("20:00")}})[QStringLiteral("id")].toString();
    const QJsonObject input {{QStringLiteral("projectId"), QStringLiteral("p1")},
                             {QStringLiteral("taskId"), id}};
    std::optional<ControlResult> first;
    m_module->service->execute(QStringLiteral("schedule.run"), input, {}, {},
                               [&first](ControlResult result) { first = std::move(result); });
    QVERIFY(!first);
    QCOMPARE(m_module->fake.calls.size(), 1);
    const auto second = m_module->call(QStringLiteral("schedule.run"), input);
    QVERIFY(!second);
    QCOMPARE(second.error().status, 409);
    QCOMPARE(second.error().message, QStringLiteral("task is already running"));
    m_module->fake.answerHeld();
    QVERIFY(first && *first);
    QCOMPARE((*first)->value(QStringLiteral("sessionId")).toString(), QStringLiteral("ses_1"));
    QCOMPARE((*first)
                 ->value(QStringLiteral("task"))[QStringLiteral("state")][QStringLiteral("lastStatus")]
                 .toString(),
             QStringLiteral("success"));
    QVERIFY(!(*first)->contains(QStringLiteral("persistError")));
    // A manual run leaves the task's schedule alone.
    QCOMPARE(task(id)[QStringLiteral("enabled")].toBool(), true);

    // Cancelled while waiting: 499 for the caller, the run itself goes on.
    OpenChamber::CancelToken cancel;
    std::optional<ControlResult> cancelled;
    m_module->service->execute(QStringLiteral("schedule.run"), input, {}, cancel,
                               [&cancelled](ControlResult result) { cancelled = std::move(result); });
    cancel.cancel();
    QVERIFY(cancelled && !*cancelled);
    QCOMPARE(cancelled->error().status, 499);
    m_module->fake.answerHeld();
    QCOMPARE(stateOf(id)[QStringLiteral("lastSessionId")].toString(), QStringLiteral("ses_2"));
}

void tst_Scheduler::nextRunsInTimeZones_data()
{
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QDateTime>("expected"); // invalid: no next run
    const auto utc = [](int y, int mo, int d, int h, int mi) {
        return QDateTime(QDate(y, mo, d), QTime(h, mi), QTimeZone::utc());
    };
    QTest::newRow("daily New York summer")
        << june1
        << QJsonObject {{QStringLiteral("daily"), QStringLiteral("09:00")},
                        {QStringLiteral("timezone"), QStringLiteral("America/New_York")}}
        << utc(2026, 6, 1, 13, 0);
    QTest::newRow("daily, two times, later one today")
        << june1
        << QJsonObject {{QStringLiteral("daily"), QStringLiteral("18:00, 07:00")},
                        {QStringLiteral("timezone"), QStringLiteral("UTC")}}
        << utc(2026, 6, 1, 18, 0);
    QTest::newRow("daily within the 5 s slack is tomorrow")
        << june1
        << QJsonObject {{QStringLiteral("daily"), QStringLiteral("08:00")},
                        {QStringLiteral("timezone"), QStringLiteral("UTC")}}
        << utc(2026, 6, 2, 8, 0);
    QTest::newRow("daily in the spring gap")
        << utc(2026, 3, 7, 12, 0)
        << QJsonObject {{QStringLiteral("daily"), QStringLiteral("02:30")},
                        {QStringLiteral("timezone"), QStringLiteral("America/New_York")}}
        << utc(2026, 3, 8, 7, 0);
    QTest::newRow("weekly Sunday and Wednesday")
        << june1
        << QJsonObject {{QStringLiteral("weekly"), QStringLiteral("0,3")},
                        {QStringLiteral("time"), QStringLiteral("09:00")},
                        {QStringLiteral("timezone"), QStringLiteral("Europe/Berlin")}}
        << utc(2026, 6, 3, 7, 0);
    QTest::newRow("once in Lord Howe")
        << june1
        << QJsonObject {{QStringLiteral("once"), QStringLiteral("2026-10-04")},
                        {QStringLiteral("time"), QStringLiteral("02:15")},
                        {QStringLiteral("timezone"), QStringLiteral("Australia/Lord_Howe")}}
        << utc(2026, 10, 3, 15, 30);
    QTest::newRow("once in the past") << june1
                                      << QJsonObject {{QStringLiteral("once"), QStringLiteral("2026-05-31")},
                                                      {QStringLiteral("time"), QStringLiteral("09:00")},
                                                      {QStringLiteral("timezone"), QStringLiteral("UTC")}}
                                      << QDateTime();
    QTest::newRow("cron weekdays Berlin")
        << june1
        << QJsonObject {{QStringLiteral("cron"), QStringLiteral("0 9 * * 1-5")},
                        {QStringLiteral("timezone"), QStringLiteral("Europe/Berlin")}}
        << utc(2026, 6, 2, 7, 0);
    QTest::newRow("cron that never matches")
        << june1
        << QJsonObject {{QStringLiteral("cron"), QStringLiteral("0 0 30 2 *")},
                        {QStringLiteral("timezone"), QStringLiteral("UTC")}}
        << QDateTime();
}

void tst_Scheduler::nextRunsInTimeZones()
{
    QFETCH(QDateTime, now);
    QFETCH(QJsonObject, input);
    QFETCH(QDateTime, expected);
    advanceTo(now < june1 ? june1 : now);
    if (now < june1)
        m_broker->clock().set(now);
    const QJsonObject created = create(input);
    QVERIFY(!created.isEmpty());
    const QJsonObject state = created[QStringLiteral("state")].toObject();
    if (!expected.isValid()) {
        QVERIFY(!state.contains(QStringLiteral("nextRunAt")));
        return;
    }
    QCOMPARE(QDateTime::fromMSecsSinceEpoch(qint64(state[QStringLiteral("nextRunAt")].toDouble()),
                                            QTimeZone::utc()),
             expected);
}

QTEST_GUILESS_MAIN(tst_Scheduler)
#include "tst_scheduler.moc"
