// Scheduled tasks that message a peer (docs/divergences.md "Scheduled tasks that message a peer"):
// in a real BrokerServer with a ManualClock and real peers registered over loopback HTTP. The
// task fires once at its time as a broker message from "operator" to the peer of that session
// name, fails clearly when no peer or several have it, is never sent twice across a restart, and
// the contract's inputs are untouched by the extension.
#include "openchamber/peertarget.h"
#include "tests/broker/brokerharness.h"
#include "tests/openchamber/schedulefixture.h"

#include <QJsonArray>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace OpenChamber;

namespace {

const QDateTime june1 = QDateTime(QDate(2026, 6, 1), QTime(6, 0), QTimeZone::utc());

Broker::Peer peer(const QString &id, const QString &name)
{
    Broker::Peer p;
    p.id = id;
    p.sessionName = name;
    return p;
}

} // namespace

class tst_PeerSchedule : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void resolvesByExactNameThenId_data();
    void resolvesByExactNameThenId();
    void firesOnceAtItsTimeAsAMessageFromTheOperator();
    void failsClearlyWhenNoPeerHasTheName();
    void failsClearlyWhenTheNameIsAmbiguous();
    void followsTheNameToANewSession();
    void notSentTwiceAcrossARestart();
    void interruptedRunIsNotRepeated();
    void runNowAnswersTheMessage();
    void toggleDeleteAndListWithoutAProject();
    void createRefusesWhatAPeerTaskCannotHave_data();
    void createRefusesWhatAPeerTaskCannotHave();
    void unknownPeerIsAllowedAtCreate();
    void contractTasksAreUnchanged();

private:
    void startBroker();
    void advanceTo(const QDateTime &at);
    QJsonObject createFor(const QString &peer, QJsonObject input = {});
    QJsonObject peerTask(const QString &id);
    QJsonArray messagesTo(const RegisteredPeer &peer);

    std::unique_ptr<BrokerHarness> m_broker;
    std::shared_ptr<ScheduleTestModule> m_module;
    std::unique_ptr<QTemporaryDir> m_projects;
    QSet<qint64> m_seen;
};

void tst_PeerSchedule::init()
{
    m_projects = std::make_unique<QTemporaryDir>();
    // The clock jumps hours ahead: heartbeats are not what these tests are about.
    m_broker = std::make_unique<BrokerHarness>([](Broker::Settings &s) { s.heartbeatTimeoutMs = 0; }, true);
    m_broker->clock().set(june1);
    m_module = std::make_shared<ScheduleTestModule>();
    const QString path = m_projects->filePath(QStringLiteral("p1"));
    QVERIFY(QDir().mkpath(path));
    m_module->projects.append({QStringLiteral("p1"), path});
    m_broker->server().addModule(m_module);
    startBroker();
}

void tst_PeerSchedule::cleanup()
{
    m_seen.clear();
    m_broker.reset();
    m_module.reset();
    m_projects.reset();
}

void tst_PeerSchedule::startBroker()
{
    QVERIFY(m_broker->start());
}

void tst_PeerSchedule::advanceTo(const QDateTime &at)
{
    const qint64 step = at.toMSecsSinceEpoch() - m_broker->clock().msecsSinceEpoch();
    QVERIFY(step >= 0);
    m_broker->clock().advance(step);
    m_broker->server().runDueJobs();
}

QJsonObject tst_PeerSchedule::createFor(const QString &peer, QJsonObject input)
{
    input.insert(QStringLiteral("peer"), peer);
    if (!input.contains(QStringLiteral("name")))
        input.insert(QStringLiteral("name"), QStringLiteral("Morning review"));
    input.insert(QStringLiteral("prompt"), QStringLiteral("please review yesterday's commits"));
    if (!input.contains(QStringLiteral("daily")) && !input.contains(QStringLiteral("once")))
        input.insert(QStringLiteral("daily"), QStringLiteral("09:00"));
    if (!input.contains(QStringLiteral("timezone")))
        input.insert(QStringLiteral("timezone"), QStringLiteral("UTC"));
    const auto created = m_module->call(QStringLiteral("schedule.create"), input);
    if (!created) {
        qWarning() << "create failed:" << created.error().message;
        return {};
    }
    return created->value(QStringLiteral("task")).toObject();
}

QJsonObject tst_PeerSchedule::peerTask(const QString &id)
{
    const auto listed = m_module->call(QStringLiteral("schedule.list"), {{QStringLiteral("peers"), true}});
    if (!listed)
        return {};
    for (const QJsonValue &value : listed->value(QStringLiteral("tasks")).toArray()) {
        if (value[QStringLiteral("id")].toString() == id)
            return value.toObject();
    }
    return {};
}

QJsonArray tst_PeerSchedule::messagesTo(const RegisteredPeer &peer)
{
    // The messages not seen by an earlier call (the poll lists what is not acknowledged yet).
    QJsonArray fresh;
    for (const QJsonValue &message : m_broker->poll(peer.id)) {
        if (!m_seen.contains(message[QStringLiteral("id")].toInteger())) {
            m_seen.insert(message[QStringLiteral("id")].toInteger());
            fresh.append(message);
        }
    }
    return fresh;
}

void tst_PeerSchedule::resolvesByExactNameThenId_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("expected"); // the id, or the start of the error
    QTest::newRow("name") << "reviewer"
                          << "id-r";
    QTest::newRow("name is case-sensitive") << "Reviewer"
                                            << "no peer named Reviewer is connected";
    QTest::newRow("id when no name matches") << "id-w"
                                             << "id-w";
    QTest::newRow("a name wins over an id") << "id-x"
                                            << "id-n";
    QTest::newRow("ambiguous") << "twin"
                               << "2 connected peers are named twin (ids id-t1, id-t2)";
    QTest::newRow("none") << "nobody"
                          << "no peer named nobody is connected";
}

void tst_PeerSchedule::resolvesByExactNameThenId()
{
    QFETCH(QString, target);
    QFETCH(QString, expected);
    const QList<Broker::Peer> live {peer(QStringLiteral("id-r"), QStringLiteral("reviewer")),
                                    peer(QStringLiteral("id-w"), QString()),
                                    peer(QStringLiteral("id-x"), QStringLiteral("writer")),
                                    peer(QStringLiteral("id-n"), QStringLiteral("id-x")),
                                    peer(QStringLiteral("id-t1"), QStringLiteral("twin")),
                                    peer(QStringLiteral("id-t2"), QStringLiteral("twin"))};
    const auto resolved = PeerTarget::resolve(target, live);
    if (resolved)
        QCOMPARE(resolved->id, expected);
    else
        QVERIFY2(resolved.error().startsWith(expected), qPrintable(resolved.error()));
}

void tst_PeerSchedule::firesOnceAtItsTimeAsAMessageFromTheOperator()
{
    const RegisteredPeer reviewer =
        m_broker->registerPeer(QStringLiteral("/work/a"), {}, {}, QStringLiteral("reviewer"));
    const RegisteredPeer other =
        m_broker->registerPeer(QStringLiteral("/work/b"), {}, {}, QStringLiteral("writer"));
    const QJsonObject task = createFor(QStringLiteral("reviewer"));
    const QString id = task[QStringLiteral("id")].toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(task[QStringLiteral("execution")].toObject(),
             (QJsonObject {{QStringLiteral("prompt"), QStringLiteral("please review yesterday's commits")},
                           {QStringLiteral("peer"), QStringLiteral("reviewer")}}));
    const QDateTime nine(QDate(2026, 6, 1), QTime(9, 0), QTimeZone::utc());
    QCOMPARE(task[QStringLiteral("state")][QStringLiteral("nextRunAt")].toDouble(),
             double(nine.toMSecsSinceEpoch()));

    advanceTo(nine.addSecs(-1));
    QCOMPARE(messagesTo(reviewer).size(), 0);
    advanceTo(nine);
    const QJsonArray received = messagesTo(reviewer);
    QCOMPARE(received.size(), 1);
    const QJsonObject message = received.first().toObject();
    QCOMPARE(message[QStringLiteral("from_id")].toString(), PeerTarget::sender);
    QCOMPARE(message[QStringLiteral("text")].toString(), QStringLiteral("please review yesterday's commits"));
    QCOMPARE(message[QStringLiteral("type")].toString(), QStringLiteral("text"));
    QCOMPARE(message[QStringLiteral("metadata")].toObject()[QStringLiteral("scheduled_task_id")].toString(),
             id);
    QCOMPARE(messagesTo(other).size(), 0);

    const QJsonObject state = peerTask(id)[QStringLiteral("state")].toObject();
    QCOMPARE(state[QStringLiteral("lastStatus")].toString(), QStringLiteral("success"));
    QCOMPARE(qint64(state[QStringLiteral("lastMessageId")].toDouble()),
             message[QStringLiteral("id")].toInteger());
    QCOMPARE(state[QStringLiteral("lastPeerId")].toString(), reviewer.id);
    QCOMPARE(state[QStringLiteral("nextRunAt")].toDouble(), double(nine.addDays(1).toMSecsSinceEpoch()));

    // The same occurrence again, and ticks later that day: nothing more.
    m_broker->server().runDueJobs();
    advanceTo(nine.addSecs(3600));
    QCOMPARE(messagesTo(reviewer).size(), 0);
    advanceTo(nine.addDays(1));
    QCOMPARE(messagesTo(reviewer).size(), 1);
}

void tst_PeerSchedule::failsClearlyWhenNoPeerHasTheName()
{
    m_broker->registerPeer(QStringLiteral("/work/b"), {}, {}, QStringLiteral("writer"));
    const QString id = createFor(QStringLiteral("reviewer"))[QStringLiteral("id")].toString();
    advanceTo(QDateTime(QDate(2026, 6, 1), QTime(9, 0), QTimeZone::utc()));
    const QJsonObject state = peerTask(id)[QStringLiteral("state")].toObject();
    QCOMPARE(state[QStringLiteral("lastStatus")].toString(), QStringLiteral("error"));
    QCOMPARE(state[QStringLiteral("lastError")].toString(),
             QStringLiteral("no peer named reviewer is connected"));
    QVERIFY(!state.contains(QStringLiteral("lastMessageId")));
    // Not retried that day: the next occurrence is tomorrow's.
    QCOMPARE(state[QStringLiteral("nextRunAt")].toDouble(),
             double(QDateTime(QDate(2026, 6, 2), QTime(9, 0), QTimeZone::utc()).toMSecsSinceEpoch()));
}

void tst_PeerSchedule::failsClearlyWhenTheNameIsAmbiguous()
{
    const RegisteredPeer a =
        m_broker->registerPeer(QStringLiteral("/work/a"), {}, {}, QStringLiteral("reviewer"));
    const RegisteredPeer b =
        m_broker->registerPeer(QStringLiteral("/work/b"), {}, {}, QStringLiteral("reviewer"));
    const QString id = createFor(QStringLiteral("reviewer"))[QStringLiteral("id")].toString();
    advanceTo(QDateTime(QDate(2026, 6, 1), QTime(9, 0), QTimeZone::utc()));
    const QJsonObject state = peerTask(id)[QStringLiteral("state")].toObject();
    QCOMPARE(state[QStringLiteral("lastStatus")].toString(), QStringLiteral("error"));
    const QString error = state[QStringLiteral("lastError")].toString();
    QVERIFY2(error.startsWith(QStringLiteral("2 connected peers are named reviewer")), qPrintable(error));
    QVERIFY2(error.contains(a.id) && error.contains(b.id), qPrintable(error));
    QCOMPARE(messagesTo(a).size(), 0);
    QCOMPARE(messagesTo(b).size(), 0);
}

void tst_PeerSchedule::followsTheNameToANewSession()
{
    // Names survive a session's restart, ids do not: the task follows the name.
    const RegisteredPeer first =
        m_broker->registerPeer(QStringLiteral("/work/a"), {}, {}, QStringLiteral("reviewer"));
    const QString id = createFor(QStringLiteral("reviewer"))[QStringLiteral("id")].toString();
    m_broker->endSession(first.pid);
    const RegisteredPeer second =
        m_broker->registerPeer(QStringLiteral("/work/a"), {}, {}, QStringLiteral("reviewer"));
    QVERIFY(second.id != first.id || second.pid != first.pid);
    advanceTo(QDateTime(QDate(2026, 6, 1), QTime(9, 0), QTimeZone::utc()));
    QCOMPARE(messagesTo(second).size(), 1);
    QCOMPARE(peerTask(id)[QStringLiteral("state")][QStringLiteral("lastPeerId")].toString(), second.id);
}

void tst_PeerSchedule::notSentTwiceAcrossARestart()
{
    const RegisteredPeer reviewer =
        m_broker->registerPeer(QStringLiteral("/work/a"), {}, {}, QStringLiteral("reviewer"));
    const QString id = createFor(QStringLiteral("reviewer"),
                                 {{QStringLiteral("once"), QStringLiteral("2026-06-01")},
                                  {QStringLiteral("time"), QStringLiteral("09:00")}})[QStringLiteral("id")]
                           .toString();
    const QDateTime nine(QDate(2026, 6, 1), QTime(9, 0), QTimeZone::utc());
    advanceTo(nine);
    QCOMPARE(messagesTo(reviewer).size(), 1);

    m_broker->server().stop();
    startBroker();
    QCOMPARE(m_module->recovered, 0);
    advanceTo(nine.addSecs(5));
    advanceTo(nine.addDays(1));
    QCOMPARE(messagesTo(reviewer).size(), 0);
    const QJsonObject task = peerTask(id);
    QCOMPARE(task[QStringLiteral("enabled")].toBool(), false); // a once task had its one run
    QCOMPARE(task[QStringLiteral("state")][QStringLiteral("lastStatus")].toString(),
             QStringLiteral("success"));
}

void tst_PeerSchedule::interruptedRunIsNotRepeated()
{
    // A broker that stopped between the claim and the end of a run: the next start records it as
    // an error and does not send it again.
    const RegisteredPeer reviewer =
        m_broker->registerPeer(QStringLiteral("/work/a"), {}, {}, QStringLiteral("reviewer"));
    const QString id = createFor(QStringLiteral("reviewer"))[QStringLiteral("id")].toString();
    const QDateTime nine(QDate(2026, 6, 1), QTime(9, 0), QTimeZone::utc());
    m_broker->clock().advance(nine.toMSecsSinceEpoch() - m_broker->clock().msecsSinceEpoch());
    QVERIFY(*m_module->store->claimScheduled(id, nine.toMSecsSinceEpoch(),
                                             nine.addDays(1).toMSecsSinceEpoch(), nine.toMSecsSinceEpoch()));
    m_broker->server().stop();
    startBroker();
    QCOMPARE(m_module->recovered, 1);
    m_broker->server().runDueJobs();
    QCOMPARE(messagesTo(reviewer).size(), 0);
    const QJsonObject state = peerTask(id)[QStringLiteral("state")].toObject();
    QCOMPARE(state[QStringLiteral("lastStatus")].toString(), QStringLiteral("error"));
    QVERIFY(state[QStringLiteral("lastError")].toString().contains(QStringLiteral("look in the messages")));
}

void tst_PeerSchedule::runNowAnswersTheMessage()
{
    const RegisteredPeer reviewer =
        m_broker->registerPeer(QStringLiteral("/work/a"), {}, {}, QStringLiteral("reviewer"));
    const QString id = createFor(QStringLiteral("reviewer"))[QStringLiteral("id")].toString();
    // No scope at all: a peer task is found by its id (the CLI sends none, the agent tool its
    // context directory, which is not a project here).
    for (const QString &context : {QString(), QStringLiteral("/nowhere")}) {
        const auto ran =
            m_module->call(QStringLiteral("schedule.run"), {{QStringLiteral("taskId"), id}}, context);
        QVERIFY2(ran, qPrintable(ran ? QString() : ran.error().message));
        QCOMPARE(ran->value(QStringLiteral("peerId")).toString(), reviewer.id);
        QVERIFY(!ran->contains(QStringLiteral("sessionId")));
        const QJsonArray received = messagesTo(reviewer);
        QCOMPARE(received.size(), 1);
        QCOMPARE(ran->value(QStringLiteral("messageId")).toInteger(),
                 received.first()[QStringLiteral("id")].toInteger());
    }
    m_broker->endSession(reviewer.pid);
    const auto failed = m_module->call(QStringLiteral("schedule.run"), {{QStringLiteral("taskId"), id}});
    QVERIFY(!failed);
    QCOMPARE(failed.error().status, 500);
    QCOMPARE(failed.error().message, QStringLiteral("no peer named reviewer is connected"));
}

void tst_PeerSchedule::toggleDeleteAndListWithoutAProject()
{
    const QString id = createFor(QStringLiteral("reviewer"))[QStringLiteral("id")].toString();
    // Kept outside the projects: the project's list is the contract's, unchanged.
    const auto projectList = m_module->call(QStringLiteral("schedule.list"),
                                            {{QStringLiteral("projectId"), QStringLiteral("p1")}});
    QVERIFY(projectList);
    QCOMPARE(projectList->value(QStringLiteral("tasks")).toArray().size(), 0);
    const auto bothScopes = m_module->call(
        QStringLiteral("schedule.list"),
        {{QStringLiteral("peers"), true}, {QStringLiteral("projectId"), QStringLiteral("p1")}});
    QVERIFY(!bothScopes);
    QCOMPARE(bothScopes.error().message, QStringLiteral("Provide only one of projectId, directory or peers"));

    const auto off = m_module->call(QStringLiteral("schedule.toggle"),
                                    {{QStringLiteral("taskId"), id}, {QStringLiteral("disabled"), true}});
    QVERIFY(off);
    QCOMPARE(peerTask(id)[QStringLiteral("enabled")].toBool(), false);
    QVERIFY(!peerTask(id)[QStringLiteral("state")].toObject().contains(QStringLiteral("nextRunAt")));
    // A project's scope does not reach a peer task.
    const auto wrongScope =
        m_module->call(QStringLiteral("schedule.delete"),
                       {{QStringLiteral("taskId"), id}, {QStringLiteral("projectId"), QStringLiteral("p1")}});
    QVERIFY(!wrongScope);
    QCOMPARE(wrongScope.error().status, 404);
    const auto deleted = m_module->call(QStringLiteral("schedule.delete"), {{QStringLiteral("taskId"), id}});
    QVERIFY(deleted);
    QVERIFY(peerTask(id).isEmpty());
}

void tst_PeerSchedule::createRefusesWhatAPeerTaskCannotHave_data()
{
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QString>("error");
    const QJsonObject base {{QStringLiteral("peer"), QStringLiteral("reviewer")},
                            {QStringLiteral("name"), QStringLiteral("n")},
                            {QStringLiteral("prompt"), QStringLiteral("p")},
                            {QStringLiteral("daily"), QStringLiteral("09:00")}};
    const auto with = [&base](const char *key, const QJsonValue &value) {
        QJsonObject o = base;
        o.insert(QLatin1StringView(key), value);
        return o;
    };
    const auto without = [&base](const char *key) {
        QJsonObject o = base;
        o.remove(QLatin1StringView(key));
        return o;
    };
    const QString combine = QStringLiteral("peer cannot be combined with %1: a task that targets a peer "
                                           "sends it a message and starts no OpenCode session");
    QTest::newRow("model") << with("model", QStringLiteral("mock/m")) << combine.arg(QStringLiteral("model"));
    QTest::newRow("agent") << with("agent", QStringLiteral("build")) << combine.arg(QStringLiteral("agent"));
    QTest::newRow("goal") << with("goal", true) << combine.arg(QStringLiteral("goal"));
    QTest::newRow("projectId") << with("projectId", QStringLiteral("p1"))
                               << QStringLiteral(
                                      "A task that targets a peer is not kept in a project: leave out "
                                      "projectId and directory");
    QTest::newRow("peer not a string")
        << with("peer", 7) << QStringLiteral("peer must be a string: a peer's session name or id");
    QTest::newRow("no name") << without("name") << QStringLiteral("name is required");
    QTest::newRow("no prompt") << without("prompt") << QStringLiteral("prompt is required");
    QTest::newRow("no selector") << without("daily")
                                 << QStringLiteral("Provide exactly one of daily, weekly, once, or cron");
    QTest::newRow("prompt too long for a message")
        << with("prompt", QString(9001, u'x'))
        << QStringLiteral("execution.prompt is invalid: a message to a peer holds at most 9000 characters");
    QTest::newRow("peer too long") << with("peer", QString(201, u'r'))
                                   << QStringLiteral("execution.peer is invalid: 1 to 200 characters");
    QTest::newRow("bad zone") << with("timezone", QStringLiteral("Mars/Olympus"))
                              << QStringLiteral(
                                     "schedule.timezone is invalid: Mars/Olympus is not an IANA time zone");
}

void tst_PeerSchedule::createRefusesWhatAPeerTaskCannotHave()
{
    QFETCH(QJsonObject, input);
    QFETCH(QString, error);
    const auto created = m_module->call(QStringLiteral("schedule.create"), input);
    QVERIFY(!created);
    QCOMPARE(created.error().status, 400);
    QCOMPARE(created.error().message, error);
}

void tst_PeerSchedule::unknownPeerIsAllowedAtCreate()
{
    // Decided: a peer need not be connected when its task is created (names survive restarts;
    // "at 09:00 tell reviewer" is often set up before reviewer starts). The run says so if not.
    const auto created = m_module->call(QStringLiteral("schedule.create"),
                                        {{QStringLiteral("peer"), QStringLiteral("not-started-yet")},
                                         {QStringLiteral("name"), QStringLiteral("n")},
                                         {QStringLiteral("prompt"), QStringLiteral("p")},
                                         {QStringLiteral("cron"), QStringLiteral("0 9 * * 1-5")}},
                                        m_module->projects.first().path); // the agent tool's context: ignored
    QVERIFY2(created, qPrintable(created ? QString() : created.error().message));
    QCOMPARE(created->value(QStringLiteral("created")).toBool(), true);
    QVERIFY(!peerTask(created->value(QStringLiteral("task"))[QStringLiteral("id")].toString()).isEmpty());
}

void tst_PeerSchedule::contractTasksAreUnchanged()
{
    // The contract's create, with an empty or null peer (unknown keys are ignored there).
    for (const QJsonValue &ignored : {QJsonValue(QString()), QJsonValue(QJsonValue::Null)}) {
        const auto created = m_module->call(QStringLiteral("schedule.create"),
                                            {{QStringLiteral("projectId"), QStringLiteral("p1")},
                                             {QStringLiteral("name"), QStringLiteral("Nightly")},
                                             {QStringLiteral("prompt"), QStringLiteral("run the checks")},
                                             {QStringLiteral("model"), QStringLiteral("mock/mock-model")},
                                             {QStringLiteral("daily"), QStringLiteral("09:00")},
                                             {QStringLiteral("peer"), ignored}});
        QVERIFY(created);
        const QJsonObject task = created->value(QStringLiteral("task")).toObject();
        QCOMPARE(task[QStringLiteral("execution")].toObject(),
                 (QJsonObject {{QStringLiteral("prompt"), QStringLiteral("run the checks")},
                               {QStringLiteral("providerID"), QStringLiteral("mock")},
                               {QStringLiteral("modelID"), QStringLiteral("mock-model")}}));
        QCOMPARE(task.keys(),
                 (QStringList {QStringLiteral("enabled"), QStringLiteral("execution"), QStringLiteral("id"),
                               QStringLiteral("name"), QStringLiteral("schedule"), QStringLiteral("state")}));
    }
    // Still "model is required" without a peer, and a project task still needs its scope to run.
    const auto noModel = m_module->call(QStringLiteral("schedule.create"),
                                        {{QStringLiteral("projectId"), QStringLiteral("p1")},
                                         {QStringLiteral("name"), QStringLiteral("n")},
                                         {QStringLiteral("prompt"), QStringLiteral("p")},
                                         {QStringLiteral("daily"), QStringLiteral("09:00")}});
    QVERIFY(!noModel);
    QCOMPARE(noModel.error().message, QStringLiteral("model is required"));
    const auto listed = m_module->call(QStringLiteral("schedule.list"),
                                       {{QStringLiteral("projectId"), QStringLiteral("p1")}});
    const QString projectTask =
        listed->value(QStringLiteral("tasks")).toArray().first()[QStringLiteral("id")].toString();
    const auto unscoped =
        m_module->call(QStringLiteral("schedule.run"), {{QStringLiteral("taskId"), projectTask}});
    QVERIFY(!unscoped);
    QCOMPARE(unscoped.error().message, QStringLiteral("projectId or directory is required"));
}

QTEST_GUILESS_MAIN(tst_PeerSchedule)
#include "tst_peerschedule.moc"
