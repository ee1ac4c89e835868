// ScheduleStore on the broker's real SQLite file, its table made by the module's migrations in
// a real BrokerServer: round trip of every field, per-project lists, the claim of an occurrence
// (once only, also after a restart on the same file), manual claims, finish, interrupted runs.
#include "tests/broker/brokerharness.h"
#include "tests/openchamber/schedulefixture.h"

#include <QSqlQuery>
#include <QTest>

using namespace OpenChamber;

class tst_ScheduleStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void migrationRecordsItsVersion();
    void roundTripsEveryField();
    void listsPerProjectOldestFirst();
    void claimsAnOccurrenceOnce();
    void claimSurvivesRestart();
    void manualClaimRefusedWhileRunning();
    void removeIsScopedToItsProject();

private:
    ScheduledTask sampleTask(const QString &id, const QString &project, qint64 createdAt) const;
    ScheduleStore &store() { return *m_module->store; }

    std::unique_ptr<BrokerHarness> m_broker;
    std::shared_ptr<ScheduleTestModule> m_module;
};

void tst_ScheduleStore::init()
{
    m_broker = std::make_unique<BrokerHarness>(std::function<void(Broker::Settings &)>(), true);
    m_module = std::make_shared<ScheduleTestModule>();
    m_broker->server().addModule(m_module);
    QVERIFY(m_broker->start());
}

void tst_ScheduleStore::cleanup()
{
    m_broker.reset();
    m_module.reset();
}

ScheduledTask tst_ScheduleStore::sampleTask(const QString &id, const QString &project, qint64 createdAt) const
{
    ScheduledTask task;
    task.id = id;
    task.projectId = project;
    task.name = QStringLiteral("Weekly report");
    task.schedule.kind = TaskSchedule::Kind::Weekly;
    task.schedule.times = {QStringLiteral("09:00"), QStringLiteral("17:30")};
    task.schedule.weekdays = {1, 3, 5};
    task.schedule.timezone = QStringLiteral("Europe/Kyiv");
    task.execution.prompt = QStringLiteral("/report weekly");
    task.execution.providerID = QStringLiteral("openai");
    task.execution.modelID = QStringLiteral("gpt-5.5");
    task.execution.agent = QStringLiteral("build");
    task.execution.variant = QStringLiteral("high");
    task.execution.goalEnabled = true;
    task.execution.goalTokenBudget = 200000;
    task.state.createdAt = createdAt;
    task.state.updatedAt = createdAt;
    task.state.nextRunAt = createdAt + 60000;
    return task;
}

void tst_ScheduleStore::migrationRecordsItsVersion()
{
    // Through the store: an empty table answers.
    const auto tasks = store().list(QStringLiteral("p1"));
    QVERIFY(tasks);
    QVERIFY(tasks->isEmpty());
    const QString path = m_broker->settings().location.databasePath;
    m_broker->server().stop();
    {
        QSqlDatabase look = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("look"));
        look.setDatabaseName(path);
        QVERIFY(look.open());
        QSqlQuery version(look);
        QVERIFY(
            version.exec(QStringLiteral("SELECT version FROM module_versions WHERE name = 'openchamber'")));
        QVERIFY(version.next());
        // 2: a peer task's last message (last_message_id, last_peer_id).
        QCOMPARE(version.value(0).toInt(), 2);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("look"));
}

void tst_ScheduleStore::roundTripsEveryField()
{
    ScheduledTask task = sampleTask(QStringLiteral("t1"), QStringLiteral("p1"), 1000);
    task.state.lastStatus = QStringLiteral("error");
    task.state.lastRunAt = 900;
    task.state.lastDurationMs = 42;
    task.state.lastScheduledFor = 880;
    task.state.lastSessionId = QStringLiteral("ses_9");
    task.state.lastError = QStringLiteral("boom");
    QVERIFY(store().upsert(task));
    const auto found = store().find(QStringLiteral("p1"), QStringLiteral("t1"));
    QVERIFY(found && *found);
    QCOMPARE((*found)->toJson(), task.toJson());
    QCOMPARE((*found)->projectId, QStringLiteral("p1"));
    // The other project does not see it.
    const auto elsewhere = store().find(QStringLiteral("p2"), QStringLiteral("t1"));
    QVERIFY(elsewhere && !*elsewhere);
}

void tst_ScheduleStore::listsPerProjectOldestFirst()
{
    QVERIFY(store().upsert(sampleTask(QStringLiteral("b"), QStringLiteral("p1"), 2000)));
    QVERIFY(store().upsert(sampleTask(QStringLiteral("a"), QStringLiteral("p1"), 3000)));
    QVERIFY(store().upsert(sampleTask(QStringLiteral("c"), QStringLiteral("p2"), 1000)));
    const auto tasks = store().list(QStringLiteral("p1"));
    QVERIFY(tasks);
    QCOMPARE(tasks->size(), 2);
    QCOMPARE(tasks->at(0).id, QStringLiteral("b"));
    QCOMPARE(tasks->at(1).id, QStringLiteral("a"));
    QCOMPARE(*store().enabledCount(), 3);
}

void tst_ScheduleStore::claimsAnOccurrenceOnce()
{
    ScheduledTask task = sampleTask(QStringLiteral("t1"), QStringLiteral("p1"), 1000);
    QVERIFY(store().upsert(task));
    const qint64 occurrence = *task.state.nextRunAt;
    QCOMPARE(store().due(occurrence - 1)->size(), 0);
    QCOMPARE(store().due(occurrence)->size(), 1);
    QCOMPARE(*store().claimScheduled(task.id, occurrence, occurrence + 86400000, occurrence + 10), true);
    QCOMPARE(*store().claimScheduled(task.id, occurrence, occurrence + 86400000, occurrence + 20), false);
    QCOMPARE(store().due(occurrence + 86400000)->size(), 0); // running: not due again
    const auto claimed = *store().find(task.id);
    QCOMPARE(claimed->state.lastStatus, QStringLiteral("running"));
    QCOMPARE(*claimed->state.lastScheduledFor, occurrence);
    QCOMPARE(*claimed->state.lastRunAt, occurrence + 10);
    QCOMPARE(*claimed->state.nextRunAt, occurrence + 86400000);
    QCOMPARE(store().interrupted()->size(), 1);

    ScheduledTask finished = *claimed;
    finished.state.lastStatus = QStringLiteral("success");
    finished.state.lastSessionId = QStringLiteral("ses_1");
    QVERIFY(store().finish(finished));
    QCOMPARE(store().interrupted()->size(), 0);
    // The old occurrence can never be claimed again; the following one can.
    QCOMPARE(*store().claimScheduled(task.id, occurrence, occurrence + 1, occurrence + 30), false);
    QCOMPARE(*store().claimScheduled(task.id, occurrence + 86400000, std::nullopt, occurrence + 86400000),
             true);
}

void tst_ScheduleStore::claimSurvivesRestart()
{
    ScheduledTask task = sampleTask(QStringLiteral("t1"), QStringLiteral("p1"), 1000);
    QVERIFY(store().upsert(task));
    const qint64 occurrence = *task.state.nextRunAt;
    QCOMPARE(*store().claimScheduled(task.id, occurrence, occurrence + 1000, occurrence), true);
    m_broker->server().stop();
    QVERIFY(m_broker->start()); // a new store on the same file; recovery ends the claim as an error
    QCOMPARE(m_module->recovered, 1);
    QCOMPARE(*store().claimScheduled(task.id, occurrence, occurrence + 1000, occurrence), false);
    const auto after = *store().find(task.id);
    QCOMPARE(after->state.lastStatus, QStringLiteral("error"));
    QCOMPARE(*after->state.nextRunAt, occurrence + 1000);
    QCOMPARE(store().interrupted()->size(), 0);
}

void tst_ScheduleStore::manualClaimRefusedWhileRunning()
{
    QVERIFY(store().upsert(sampleTask(QStringLiteral("t1"), QStringLiteral("p1"), 1000)));
    QCOMPARE(*store().claimManual(QStringLiteral("t1"), 5000), true);
    QCOMPARE(*store().claimManual(QStringLiteral("t1"), 5001), false);
    QCOMPARE(*store().claimScheduled(QStringLiteral("t1"), 61000, std::nullopt, 61000), false);
    QCOMPARE(*store().claimManual(QStringLiteral("missing"), 5002), false);
}

void tst_ScheduleStore::removeIsScopedToItsProject()
{
    QVERIFY(store().upsert(sampleTask(QStringLiteral("t1"), QStringLiteral("p1"), 1000)));
    QCOMPARE(*store().remove(QStringLiteral("p2"), QStringLiteral("t1")), false);
    QCOMPARE(*store().remove(QStringLiteral("p1"), QStringLiteral("t1")), true);
    QCOMPARE(*store().remove(QStringLiteral("p1"), QStringLiteral("t1")), false);
}

QTEST_GUILESS_MAIN(tst_ScheduleStore)
#include "tst_schedulestore.moc"
