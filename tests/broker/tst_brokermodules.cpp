// The broker's extension points (brokermodule.h) through a test module plugged into a real
// BrokerServer on a loopback port: its routes go through the whole pipeline (each auth kind and
// its refusals, body limits, JSON validation, rate limit, asynchronous answers), its migrations
// run on the broker's database (fresh, reopened, failing, newer, a 0.7 file) and its jobs run
// by the broker's clock.
#include "broker/brokermodule.h"
#include "tests/broker/brokerharness.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <sqlite3.h>

using namespace Broker;

namespace {

class TestModule final : public BrokerModule
{
public:
    QString moduleName = QStringLiteral("test-module");
    QList<ModuleMigration> steps;
    QList<Route> extraRoutes;
    qint64 jobIntervalMs = 60000;
    int jobRuns = 0;
    int started = 0;
    int stopped = 0;
    int reloads = 0;
    QSqlDatabase db;

    QString name() const override { return moduleName; }
    QList<ModuleMigration> migrations() const override { return steps; }

    Result<void> start(ModuleContext &context) override
    {
        ++started;
        db = context.database();
        return {};
    }
    void reload() override { ++reloads; }
    void stop() override
    {
        ++stopped;
        db = QSqlDatabase(); // the connection closes after stop()
    }

    QList<ModuleJob> jobs() override
    {
        return {{QStringLiteral("count"), jobIntervalMs, [this] { ++jobRuns; }}};
    }

    QList<Route> routes() override
    {
        auto echo = [](RouteCall &call) {
            static const char *const kinds[] = {"none", "main", "session", "federation"};
            RouteAnswer::json(call.responder,
                              {{QStringLiteral("caller"), QLatin1String(kinds[int(call.credential.kind)])},
                               {QStringLiteral("peer"), call.credential.peerId},
                               {QStringLiteral("got"), call.body.value(QStringLiteral("text"))}});
        };
        QList<Route> routes {
            {"POST", "/test/main", RouteAuth::MainToken, false, -1, echo},
            {"POST", "/test/session", RouteAuth::Session, false, -1, echo},
            {"POST", "/test/open", RouteAuth::None, false, -1, echo},
            {"POST", "/test/federation", RouteAuth::FederationPsk, false, -1, echo},
            {"GET", "/test/status", RouteAuth::MainToken, false, -1, echo},
            {"POST", "/test/small", RouteAuth::Session, false, 64, echo},
            {"POST", "/test/limited", RouteAuth::Session, true, -1, echo},
            // Answers on a later event-loop pass, as a federation round trip would.
            {"POST", "/test/later", RouteAuth::Session, false, -1,
             [](RouteCall &call) {
                 QTimer::singleShot(20, [responder = call.responder] {
                     RouteAnswer::json(responder, {{QStringLiteral("later"), true}});
                 });
             }},
            // Writes its own table on the broker's connection.
            {"POST", "/test/note", RouteAuth::Session, false, -1,
             [this](RouteCall &call) {
                 QSqlQuery insert(db);
                 insert.prepare(QStringLiteral("INSERT INTO test_notes(text) VALUES(?)"));
                 insert.addBindValue(call.body.value(QStringLiteral("text")).toString());
                 if (!insert.exec()) {
                     RouteAnswer::error(call.responder, 500, insert.lastError().text());
                     return;
                 }
                 RouteAnswer::json(call.responder, {{QStringLiteral("ok"), true}});
             }},
        };
        return routes + extraRoutes;
    }
};

ModuleMigration sqlStep(int version, const QString &what, const QStringList &statements)
{
    return {version, what, [statements](QSqlDatabase &db) -> Result<void> {
                QSqlQuery query(db);
                for (const QString &sql : statements) {
                    if (!query.exec(sql))
                        return fail(ErrorKind::Database, query.lastError().databaseText());
                }
                return {};
            }};
}

QList<ModuleMigration> twoSteps()
{
    return {sqlStep(1, QStringLiteral("create test_notes"),
                    {QStringLiteral("CREATE TABLE test_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")}),
            sqlStep(2, QStringLiteral("index test_notes"),
                    {QStringLiteral("CREATE INDEX idx_test_notes_text ON test_notes(text)")})};
}

// A second connection to the broker's file, to look at what was written.
QVariant scalar(const QString &path, const QString &sql)
{
    const QString name = QStringLiteral("tst_brokermodules.look");
    QVariant value;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery query(db);
            if (query.exec(sql) && query.next())
                value = query.value(0);
        }
    }
    QSqlDatabase::removeDatabase(name);
    return value;
}

bool tableExists(const QString &path, const QString &table)
{
    return scalar(path,
                  QStringLiteral("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%1'")
                      .arg(table))
               .toInt() == 1;
}

QByteArray rawRequest(const QByteArray &method, const QByteArray &path, const QByteArray &headers,
                      const QByteArray &body = {})
{
    return method + ' ' + path +
        " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
        "application/json\r\nContent-Length: " +
        QByteArray::number(body.size()) + "\r\n" + headers + "\r\n" + body;
}

int statusOf(const QByteArray &rawAnswer)
{
    return rawAnswer.mid(9, 3).toInt(); // "HTTP/1.1 200 OK"
}

// start() was refused with this error kind, in a message that names the module.
bool refusedNamingModule(const Result<void> &started, ErrorKind kind)
{
    if (started)
        return false;
    if (started.error().kind == kind &&
        started.error().message.contains(QStringLiteral("Module \"test-module\"")))
        return true;
    qWarning().noquote() << "refused with" << started.error().code() << started.error().message;
    return false;
}

// A broker's settings in a private HOME, on a port the OS picks.
Settings settingsIn(const TestSupport::TestHome &home)
{
    Settings settings;
    settings.location = Location::fromEnvironment(home.environment());
    settings.location.port = 0;
    return settings;
}

} // namespace

class tst_BrokerModules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void routeAuthKinds_data();
    void routeAuthKinds();
    void routeOnGetNeedsItsCredential();
    void federationRouteChecksThePsk();
    void rejectsOversizedBodies();
    void rejectsBadJson();
    void rateLimitsModuleRoutes();
    void answersAsynchronously();
    void builtInRoutesUnchanged();
    void refusesRouteTakenByTheBroker();

    void migratesFreshDatabase();
    void reopenedDatabaseRunsOnlyNewSteps();
    void failingMigrationRefusesStart();
    void newerModuleTablesRefuseStart();
    void referenceDatabaseStillOpens();

    void jobRunsByManualClock();
    void jobRunsOnSystemClock();
    void jobWithoutIntervalRefusesStart();

    void reloadReachesTheModules();
};

void tst_BrokerModules::routeAuthKinds_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("who"); // main, session, other-session, wrong, nobody
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("caller");

    struct Row
    {
        const char *name, *path, *who;
        int status;
        const char *caller;
    };
    const Row rows[] = {
        {"main token on main route", "/test/main", "main", 200, "main"},
        {"session secret on main route", "/test/main", "session", 403, ""},
        {"wrong token on main route", "/test/main", "wrong", 401, ""},
        {"nothing on main route", "/test/main", "nobody", 401, ""},
        {"session secret on session route", "/test/session", "session", 200, "session"},
        {"main token on session route", "/test/session", "main", 200, "main"},
        {"session acting as another peer", "/test/session", "other-session", 403, ""},
        {"wrong secret on session route", "/test/session", "wrong", 401, ""},
        {"nothing on open route", "/test/open", "nobody", 200, "none"},
        {"wrong token on open route", "/test/open", "wrong", 200, "none"},
    };
    for (const Row &row : rows)
        QTest::newRow(row.name) << QString::fromLatin1(row.path) << QString::fromLatin1(row.who) << row.status
                                << QString::fromLatin1(row.caller);
}

void tst_BrokerModules::routeAuthKinds()
{
    QFETCH(QString, path);
    QFETCH(QString, who);
    QFETCH(int, status);
    QFETCH(QString, caller);

    auto module = std::make_shared<TestModule>();
    BrokerHarness h;
    h.server().addModule(module);
    QVERIFY(h.start());
    const RegisteredPeer a = h.registerPeer(QStringLiteral("/work/a"));
    const RegisteredPeer b = h.registerPeer(QStringLiteral("/work/b"));

    QJsonObject body {{QStringLiteral("text"), QStringLiteral("hi")}};
    QByteArray bearer;
    if (who == QLatin1String("main"))
        bearer = h.token();
    else if (who == QLatin1String("session"))
        bearer = a.secret, body.insert(QStringLiteral("from_id"), a.id);
    else if (who == QLatin1String("other-session"))
        bearer = a.secret, body.insert(QStringLiteral("from_id"), b.id);
    else if (who == QLatin1String("wrong"))
        bearer = QByteArray(64, 'f');
    const auto answer = h.post(path, body, bearer);
    QCOMPARE(answer.status, status);
    if (status == 200) {
        QCOMPARE(answer.object().value(QStringLiteral("caller")).toString(), caller);
        QCOMPARE(answer.object().value(QStringLiteral("got")).toString(), QStringLiteral("hi"));
        if (who == QLatin1String("session"))
            QCOMPARE(answer.object().value(QStringLiteral("peer")).toString(), a.id);
    } else if (status == 401) {
        QCOMPARE(answer.object().value(QStringLiteral("error")).toString(), QStringLiteral("Unauthorized"));
    } else {
        QVERIFY(answer.object()
                    .value(QStringLiteral("error"))
                    .toString()
                    .startsWith(QStringLiteral("Forbidden")));
    }
}

void tst_BrokerModules::routeOnGetNeedsItsCredential()
{
    BrokerHarness h;
    h.server().addModule(std::make_shared<TestModule>());
    QVERIFY(h.start());
    const QByteArray with =
        h.rawExchange(rawRequest("GET", "/test/status", "Authorization: Bearer " + h.token() + "\r\n"));
    QCOMPARE(statusOf(with), 200);
    QVERIFY(with.contains("\"caller\":\"main\""));
    QCOMPARE(statusOf(h.rawExchange(rawRequest("GET", "/test/status", {}))), 401);
    // The same path with another method is not the module's route: a POST there is a 404.
    QCOMPARE(h.post(QStringLiteral("/test/status"), {}).status, 404);
}

void tst_BrokerModules::federationRouteChecksThePsk()
{
    BrokerHarness h;
    h.server().addModule(std::make_shared<TestModule>());
    QVERIFY(h.start());
    const QByteArray body = "{\"text\":\"hi\"}";
    // By default the PSK is the local token, as in the reference (docs/spec/peers-api.md §4).
    const QByteArray right = h.rawExchange(
        rawRequest("POST", "/test/federation", "X-Claude-Peers-PSK: " + h.token() + "\r\n", body));
    QCOMPARE(statusOf(right), 200);
    QVERIFY(right.contains("\"caller\":\"federation\""));
    for (const QByteArray &headers :
         {QByteArray("X-Claude-Peers-PSK: " + QByteArray(64, '0') + "\r\n"), QByteArray(),
          QByteArray("Authorization: Bearer " + h.token() + "\r\n")}) {
        const QByteArray refused = h.rawExchange(rawRequest("POST", "/test/federation", headers, body));
        QCOMPARE(statusOf(refused), 403);
        QVERIFY2(refused.contains("PSK mismatch"), refused.constData());
    }
}

void tst_BrokerModules::rejectsOversizedBodies()
{
    BrokerHarness h([](Settings &s) { s.maxBodyBytes = 4096; });
    h.server().addModule(std::make_shared<TestModule>());
    QVERIFY(h.start());
    const QJsonObject small {{QStringLiteral("text"), QStringLiteral("short")}};
    QCOMPARE(h.post(QStringLiteral("/test/small"), small).status, 200);
    // The route's own limit (64 bytes).
    const QJsonObject overRoute {{QStringLiteral("text"), QString(100, QLatin1Char('x'))}};
    const auto routeRefusal = h.post(QStringLiteral("/test/small"), overRoute);
    QCOMPARE(routeRefusal.status, 413);
    QVERIFY(routeRefusal.object().value(QStringLiteral("error")).toString().contains(QStringLiteral("64")));
    // The server's limit applies to every module route.
    const QJsonObject overServer {{QStringLiteral("text"), QString(5000, QLatin1Char('x'))}};
    QCOMPARE(h.post(QStringLiteral("/test/session"), overServer).status, 413);
}

void tst_BrokerModules::rejectsBadJson()
{
    BrokerHarness h;
    h.server().addModule(std::make_shared<TestModule>());
    QVERIFY(h.start());
    for (const QByteArray &bad : {QByteArray("{"), QByteArray("[1,2]"), QByteArray("\"text\"")}) {
        const auto answer = h.postRaw(QStringLiteral("/test/session"), bad, h.token());
        QCOMPARE(answer.status, 400);
        QVERIFY(answer.object()
                    .value(QStringLiteral("error"))
                    .toString()
                    .startsWith(QStringLiteral("Invalid JSON")));
    }
    // Authentication comes first: bad JSON with a wrong credential is a 401.
    QCOMPARE(h.postRaw(QStringLiteral("/test/session"), "{", QByteArray(64, 'f')).status, 401);
}

void tst_BrokerModules::rateLimitsModuleRoutes()
{
    BrokerHarness h([](Settings &s) { s.rateLimitPerMinute = 2; });
    h.server().addModule(std::make_shared<TestModule>());
    QVERIFY(h.start());
    const RegisteredPeer a = h.registerPeer();
    const QJsonObject body {{QStringLiteral("from_id"), a.id}};
    QCOMPARE(h.post(QStringLiteral("/test/limited"), body, a.secret).status, 200);
    QCOMPARE(h.post(QStringLiteral("/test/limited"), body, a.secret).status, 200);
    QCOMPARE(h.post(QStringLiteral("/test/limited"), body, a.secret).status, 429);
    // A route that is not rate limited is not counted.
    QCOMPARE(h.post(QStringLiteral("/test/session"), body, a.secret).status, 200);
}

void tst_BrokerModules::answersAsynchronously()
{
    BrokerHarness h;
    h.server().addModule(std::make_shared<TestModule>());
    QVERIFY(h.start());
    const auto answer = h.post(QStringLiteral("/test/later"), {});
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.object().value(QStringLiteral("later")).toBool(), true);
}

void tst_BrokerModules::builtInRoutesUnchanged()
{
    BrokerHarness h;
    h.server().addModule(std::make_shared<TestModule>());
    QVERIFY(h.start());
    const RegisteredPeer a = h.registerPeer();
    const RegisteredPeer b = h.registerPeer(QStringLiteral("/work/b"));
    QVERIFY(h.send(a.id, b.id, QStringLiteral("hello")) > 0);
    QCOMPARE(h.poll(b.id).size(), 1);
    QCOMPARE(h.post(QStringLiteral("/nowhere"), {}).status, 404);
    QCOMPARE(h.post(QStringLiteral("/nowhere"), {}, QByteArray(64, 'f')).status, 401);
    const auto text = h.get(QStringLiteral("/anything"));
    QCOMPARE(text.status, 200);
    QCOMPARE(text.body, QByteArray("claude-peers broker"));
    QCOMPARE(h.get(QStringLiteral("/federation/status")).object().value(QStringLiteral("enabled")).toBool(),
             false);
}

void tst_BrokerModules::refusesRouteTakenByTheBroker()
{
    for (const QByteArray &path :
         {QByteArray("/send-message"), QByteArray("/health"), QByteArray("/test/main")}) {
        auto module = std::make_shared<TestModule>();
        module->extraRoutes.append({"POST", path, RouteAuth::Session, false, -1, [](RouteCall &) {}});
        BrokerHarness h;
        h.server().addModule(module);
        const auto started = h.server().start();
        QVERIFY(refusedNamingModule(started, ErrorKind::Module));
        QVERIFY2(started.error().message.contains(QString::fromUtf8(path)),
                 qPrintable(started.error().message));
        QVERIFY(!h.server().isRunning());
        QCOMPARE(module->stopped, module->started); // a started module is stopped again
    }
}

void tst_BrokerModules::migratesFreshDatabase()
{
    auto module = std::make_shared<TestModule>();
    module->steps = twoSteps();
    BrokerHarness h;
    h.server().addModule(module);
    QVERIFY(h.start());
    const RegisteredPeer a = h.registerPeer();
    QCOMPARE(h.post(QStringLiteral("/test/note"), {{QStringLiteral("text"), QStringLiteral("n1")}}, a.secret)
                 .status,
             200);
    const QString path = h.settings().location.databasePath;
    h.server().stop();
    QCOMPARE(scalar(path, QStringLiteral("SELECT version FROM module_versions WHERE name = 'test-module'"))
                 .toInt(),
             2);
    QCOMPARE(scalar(path, QStringLiteral("SELECT text FROM test_notes")).toString(), QStringLiteral("n1"));
    // The core's own track is untouched.
    QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), 6);
}

void tst_BrokerModules::reopenedDatabaseRunsOnlyNewSteps()
{
    TestSupport::TestHome home;
    const Settings settings = settingsIn(home);
    int firstRuns = 0;
    int secondRuns = 0;
    auto counted = [](int version, const QString &sql, int &runs) {
        ModuleMigration step = sqlStep(version, QStringLiteral("step %1").arg(version), {sql});
        step.apply = [inner = step.apply, &runs](QSqlDatabase &db) {
            ++runs;
            return inner(db);
        };
        return step;
    };
    const auto step1 = counted(1, QStringLiteral("CREATE TABLE test_notes (text TEXT)"), firstRuns);
    const auto step2 = counted(2, QStringLiteral("ALTER TABLE test_notes ADD COLUMN at TEXT"), secondRuns);
    {
        auto module = std::make_shared<TestModule>();
        module->steps = {step1};
        BrokerServer server(settings);
        server.addModule(module);
        QVERIFY(server.start());
    }
    {
        auto module = std::make_shared<TestModule>();
        module->steps = {step1, step2};
        BrokerServer server(settings);
        server.addModule(module);
        QVERIFY(server.start());
    }
    {
        auto module = std::make_shared<TestModule>();
        module->steps = {step1, step2};
        BrokerServer server(settings);
        server.addModule(module);
        QVERIFY(server.start());
    }
    QCOMPARE(firstRuns, 1);
    QCOMPARE(secondRuns, 1);
    QCOMPARE(scalar(settings.location.databasePath,
                    QStringLiteral("SELECT version FROM module_versions WHERE name = 'test-module'"))
                 .toInt(),
             2);
}

void tst_BrokerModules::failingMigrationRefusesStart()
{
    auto module = std::make_shared<TestModule>();
    module->steps = twoSteps();
    // Step 2 makes a table, then fails: the whole step must roll back.
    module->steps[1] = sqlStep(
        2, QStringLiteral("add the remotes table"),
        {QStringLiteral("CREATE TABLE test_half (x)"), QStringLiteral("CREATE TABLE test_notes (y)")});
    BrokerHarness h;
    h.server().addModule(module);
    const auto started = h.server().start();
    QVERIFY(refusedNamingModule(started, ErrorKind::ModuleSchema));
    const QString message = started.error().message;
    QVERIFY2(message.contains(QStringLiteral("migration 2 (add the remotes table) failed")),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("already exists")), qPrintable(message)); // SQLite's reason
    QVERIFY2(message.contains(QStringLiteral("did not start")), qPrintable(message));
    QVERIFY(!h.server().isRunning());
    QCOMPARE(module->started, 0);
    const QString path = h.settings().location.databasePath;
    QVERIFY(!tableExists(path, QStringLiteral("test_half")));
    QVERIFY(tableExists(path, QStringLiteral("test_notes")));
    QCOMPARE(scalar(path, QStringLiteral("SELECT version FROM module_versions WHERE name = 'test-module'"))
                 .toInt(),
             1);
    // The lock was released: a broker without the broken module starts on the same file.
    BrokerServer again(h.settings());
    QVERIFY(again.start());
}

void tst_BrokerModules::newerModuleTablesRefuseStart()
{
    TestSupport::TestHome home;
    const Settings settings = settingsIn(home);
    {
        auto module = std::make_shared<TestModule>();
        module->steps = twoSteps();
        BrokerServer server(settings);
        server.addModule(module);
        QVERIFY(server.start());
    }
    auto older = std::make_shared<TestModule>();
    older->steps = twoSteps().mid(0, 1);
    BrokerServer server(settings);
    server.addModule(older);
    const auto started = server.start();
    QVERIFY(refusedNamingModule(started, ErrorKind::ModuleSchema));
    QVERIFY2(started.error().message.contains(QStringLiteral("newer claude-peers")),
             qPrintable(started.error().message));
}

void tst_BrokerModules::referenceDatabaseStillOpens()
{
    TestSupport::TestHome home;
    const Settings settings = settingsIn(home);
    QFile fixture(QStringLiteral(PEERS_SOURCE_DIR "/tests/broker/fixtures/reference-0.7.0.sql"));
    QVERIFY(fixture.open(QIODevice::ReadOnly));
    sqlite3 *raw = nullptr;
    QCOMPARE(sqlite3_open(settings.location.databasePath.toUtf8().constData(), &raw), SQLITE_OK);
    QCOMPARE(sqlite3_exec(raw, fixture.readAll().constData(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
    const int referencePeers =
        scalar(settings.location.databasePath, QStringLiteral("SELECT count(*) FROM peers")).toInt();

    auto module = std::make_shared<TestModule>();
    module->steps = twoSteps();
    {
        BrokerServer server(settings);
        server.addModule(module);
        QVERIFY(server.start());
    }
    const QString path = settings.location.databasePath;
    QCOMPARE(scalar(path, QStringLiteral("PRAGMA user_version")).toInt(), 6); // the core's track alone
    QCOMPARE(scalar(path, QStringLiteral("SELECT version FROM module_versions WHERE name = 'test-module'"))
                 .toInt(),
             2);
    QVERIFY(tableExists(path, QStringLiteral("messages")));
    Q_UNUSED(referencePeers); // the startup sweep may prune the fixture's dead peers
}

void tst_BrokerModules::jobRunsByManualClock()
{
    auto module = std::make_shared<TestModule>();
    module->jobIntervalMs = 60000;
    BrokerHarness h({}, true);
    h.server().addModule(module);
    QVERIFY(h.start());
    h.server().runDueJobs();
    QCOMPARE(module->jobRuns, 0);
    h.clock().advance(59999);
    h.server().runDueJobs();
    QCOMPARE(module->jobRuns, 0);
    h.clock().advance(1);
    h.server().runDueJobs();
    QCOMPARE(module->jobRuns, 1);
    h.server().runDueJobs();
    QCOMPARE(module->jobRuns, 1);
    // Three intervals late: one run, no catching up.
    h.clock().advance(180000);
    h.server().runDueJobs();
    QCOMPARE(module->jobRuns, 2);
    // The real timer alone does not run a job the manual clock says is not due.
    QTest::qWait(TestSupport::scaled(100));
    QCOMPARE(module->jobRuns, 2);
    h.server().stop();
    QCOMPARE(module->stopped, 1);
    h.clock().advance(60000);
    h.server().runDueJobs();
    QCOMPARE(module->jobRuns, 2);
}

void tst_BrokerModules::jobRunsOnSystemClock()
{
    auto module = std::make_shared<TestModule>();
    module->jobIntervalMs = 20;
    BrokerHarness h;
    h.server().addModule(module);
    QVERIFY(h.start());
    QTRY_VERIFY_WITH_TIMEOUT(module->jobRuns >= 3, TestSupport::scaled(5000));
    h.server().stop();
    const int runs = module->jobRuns;
    QTest::qWait(TestSupport::scaled(200)); // ten intervals: a job still scheduled would have run
    QCOMPARE(module->jobRuns, runs);
}

void tst_BrokerModules::jobWithoutIntervalRefusesStart()
{
    auto module = std::make_shared<TestModule>();
    module->jobIntervalMs = 0;
    BrokerHarness h;
    h.server().addModule(module);
    QVERIFY(refusedNamingModule(h.server().start(), ErrorKind::Module));
    QCOMPARE(module->stopped, 1);
}

void tst_BrokerModules::reloadReachesTheModules()
{
    auto module = std::make_shared<TestModule>();
    BrokerHarness h;
    h.server().addModule(module);
    h.server().reload(); // not running: nothing to reload
    QCOMPARE(module->reloads, 0);
    QVERIFY(h.start());
    h.server().reload();
    QCOMPARE(module->reloads, 1);
    // POST /reload (and SIGHUP in the headless broker) is the same call.
    QVERIFY(h.post(QStringLiteral("/reload"), {}).object().value(u"ok").toBool());
    QTRY_COMPARE(module->reloads, 2);
}

QTEST_GUILESS_MAIN(tst_BrokerModules)
#include "tst_brokermodules.moc"
