// The control service's input validation (openchamber/): ControlService::execute() for every
// action of the catalog and unknown ones, through the service itself or through the broker's
// two adapters (ControlModule's /control and /agent-tool handlers, on the JSON body the broker's
// pipeline hands them), with fuzzed JSON inputs; cancellation at any point. Also the helper's
// openchamber tool (ControlTool) on fuzzed tools/call arguments, up to where it would call the
// broker (its session is never registered here). The real SessionService, ScheduleService,
// Scheduler and ScheduleStore (SQLite ":memory:", emptied before every input, so an input replays
// alone), a ManualClock whose sleeps pass at once, and OpenCode nowhere: a loopback port that is
// bound but never listens, or a file: URL of nothing (World::nowhereUrl), so every OpenCode
// request fails fast as "unreachable" and nothing reaches the network.
// Invariants: every call answers exactly once (now or after the event loop ran); a failure's
// status is one of the contract's (400, 404, 409, 499, 500) with a message; a success is a JSON
// object that encodes and parses back; a cancellation before the answer answers 499 at once;
// after every input no action, OpenCode request or scheduled run is left running.
// Input: a script of up to 4 calls; each is an action byte (0xf0.. = a clock step and a scheduler
// tick instead), a flags byte (adapter, context directory, cancellation, input encoding) and the
// input: either JSON text or a structured object (keys and values from the contract's words,
// values of any JSON type). Task ids that schedule.create answered can be named by later calls.
#include "tests/fuzz/fuzzresponder.h"
#include "tests/fuzz/fuzzsupport.h"

#include "broker/clock.h"
#include "common/brokerclient.h"
#include "common/controlwire.h"
#include "mcp_stdio/session.h"
#include "mcp_stdio/toolregistry.h"
#include "openchamber/actioncatalog.h"
#include "openchamber/controlbackend.h"
#include "openchamber/controlmodule.h"
#include "openchamber/controlsettings.h"
#include "openchamber/opencodeclient.h"
#include "openchamber/peertarget.h"
#include "openchamber/scheduler.h"
#include "openchamber/scheduleservice.h"
#include "openchamber/schedulestore.h"
#include "openchamber/sessionservice.h"
#include "openchamber/tool/controltool.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkProxy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTimer>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace OpenChamber;

namespace {

// Enough for create → toggle → run → delete; each call more costs as much as an input.
constexpr int kMaxCalls = 4;
constexpr int kMaxClockSteps = 3;

[[noreturn]] void broken(const char *what)
{
    fprintf(stderr, "fuzz_control: invariant broken: %s\n", what);
    abort();
}
#define CHECK(condition)                                                                                     \
    do {                                                                                                     \
        if (!(condition))                                                                                    \
            broken(#condition);                                                                              \
    } while (false)

// A loopback port bound but not listening: a connection is refused at once, and no other
// process can take the port while we hold it.
quint16 refusingPort()
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    socklen_t length = sizeof address;
    CHECK(getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0);
    return ntohs(address.sin_port); // the fd stays open for the process's life
}

// ModuleContext for ControlModule::start(): the backend below needs nothing from it.
class NoContext final : public Broker::ModuleContext
{
public:
    explicit NoContext(const Broker::Clock &clock) : m_clock(clock) { }
    Broker::BrokerServer &server() override { broken("ControlModule asked for the broker server"); }
    const Broker::Clock &clock() const override { return m_clock; }
    QSqlDatabase database() const override { return {}; }

private:
    const Broker::Clock &m_clock;
};

class FixedBackend final : public ControlBackend
{
public:
    explicit FixedBackend(ControlService &service) : m_service(service) { }
    Broker::Result<void> start(Broker::ModuleContext &) override { return {}; }
    ControlService *service() override { return &m_service; }

private:
    ControlService &m_service;
};

// Directories: all in the scratch directory or nonexistent; never the user's.
struct Paths
{
    QString root;
    QString repo; // an existing directory, project "app"
    QString other; // an existing directory, project "other"
    QString file; // a regular file, project "file"
    QString gone; // nonexistent, project "gone"
};

// Everything the service needs, built once (LLVMFuzzerInitialize); only the store's rows change
// between inputs, and they are deleted before each one.
struct World
{
    Paths paths;
    std::shared_ptr<Broker::ManualClock> clock;
    ControlSettings settings;
    QSqlDatabase db;
    std::unique_ptr<ScheduleStore> store;
    // Where OpenCode is not: a loopback port that refuses (a real socket, through the network
    // manager's thread), or a file: URL of nothing (no socket, no thread: about twice as fast). Both
    // fail a request the same way (no HTTP status: "unreachable"), so the service takes the same
    // paths; an input uses the port when its size is a multiple of 8.
    QUrl refusingUrl;
    QUrl nowhereUrl;
    std::unique_ptr<OpenCodeClient> client;
    std::unique_ptr<SessionService> sessions;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<ScheduleService> schedules;
    std::unique_ptr<ControlModule> module;
    QList<Broker::Route> routes;
    // The helper's openchamber tool, in a registry as the helper has it; its session never
    // registers (no broker), so a call ends at the tool's own checks or at "not registered".
    std::unique_ptr<Broker::BrokerClient> brokerClient;
    std::unique_ptr<Mcp::Session> helperSession;
    std::unique_ptr<Mcp::ToolRegistry> tools;
};
World *g_world = nullptr;
bool g_trace = false; // FUZZ_CONTROL_TRACE=1: each call and its answer on stderr (to read a seed)
QStringList *g_taskIds = nullptr; // schedule.create's answers of the current input (outlives late answers)

QList<Broker::Peer> livePeers()
{
    auto peer = [](const char *id, const char *name) {
        Broker::Peer p;
        p.id = QString::fromLatin1(id);
        p.sessionName = QString::fromLatin1(name);
        return p;
    };
    // A unique name, two peers with one name, and one that is known by id only.
    return {peer("p1abcd", "alpha"), peer("p2abcd", "twin"), peer("p3abcd", "twin"), peer("p4abcd", "")};
}

void buildWorld()
{
    auto *w = new World;
    g_world = w;
    w->paths.root = QDir(Fuzz::scratchDir()).canonicalPath();
    QDir root(w->paths.root);
    root.mkpath(QStringLiteral("repo/app"));
    root.mkpath(QStringLiteral("other"));
    w->paths.repo = root.filePath(QStringLiteral("repo/app"));
    w->paths.other = root.filePath(QStringLiteral("other"));
    w->paths.file = root.filePath(QStringLiteral("file.txt"));
    w->paths.gone = root.filePath(QStringLiteral("gone"));
    QFile file(w->paths.file);
    CHECK(file.open(QIODevice::WriteOnly));
    file.write("not a directory\n");
    file.close();

    w->clock = std::make_shared<Broker::ManualClock>(QDateTime(QDate(2026, 12, 1), QTime(9, 0), Qt::UTC));
    const QJsonObject config {
        {QStringLiteral("openchamber"),
         QJsonObject {
             {QStringLiteral("projects"),
              QJsonArray {
                  QJsonObject {{QStringLiteral("id"), QStringLiteral("app")},
                               {QStringLiteral("path"), w->paths.repo}},
                  QJsonObject {{QStringLiteral("id"), QStringLiteral("other")},
                               {QStringLiteral("path"), w->paths.other},
                               {QStringLiteral("label"), QStringLiteral("Other")}},
                  QJsonObject {{QStringLiteral("id"), QStringLiteral("file")},
                               {QStringLiteral("path"), w->paths.file}},
                  QJsonObject {{QStringLiteral("id"), QStringLiteral("gone")},
                               {QStringLiteral("path"), w->paths.gone}},
              }},
             {QStringLiteral("default_model"), QStringLiteral("openai/gpt-5")},
             {QStringLiteral("default_agent"), QStringLiteral("build")},
             {QStringLiteral("favorite_models"), QJsonArray {QStringLiteral("mock/mock-model")}},
         }}};
    w->settings = ControlSettings::fromConfig(config);
    CHECK(w->settings.projects.size() == 4);

    w->db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fuzz_control"));
    w->db.setDatabaseName(QStringLiteral(":memory:"));
    CHECK(w->db.open());
    for (const Broker::ModuleMigration &migration : ScheduleStore::migrations())
        CHECK(migration.apply(w->db).has_value());
    w->store = std::make_unique<ScheduleStore>(w->db);

    OpenCodeClient::Options options;
    w->refusingUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(refusingPort()));
    w->nowhereUrl = QUrl::fromLocalFile(root.filePath(QStringLiteral("no-opencode")));
    options.baseUrl = w->refusingUrl;
    options.timeoutMs = 5000; // a request that somehow hangs still ends (libFuzzer's timeout is 10 s)
    w->client = std::make_unique<OpenCodeClient>(options);
    w->sessions = std::make_unique<SessionService>(
        *w->client, [w] { return w->settings; }, nullptr);
    // Sleeps pass at once on the manual clock (the test fixture's way); two health checks at most.
    const auto clock = w->clock;
    w->sessions->setTimers({clock, [clock](int ms, QObject *context, std::function<void()> done) {
                                QTimer::singleShot(0, context, [clock, ms, done = std::move(done)] {
                                    clock->advance(ms);
                                    done();
                                });
                            }});
    SessionService::Options sessionOptions = w->sessions->options();
    sessionOptions.readyTimeoutMs = sessionOptions.readyIntervalMs;
    w->sessions->setOptions(sessionOptions);

    ScheduleProjects projects = [w] {
        QList<ScheduleProject> list;
        for (const ControlSettings::Project &project : w->settings.projects)
            list.append({project.id, project.path});
        return list;
    };
    // As OpenCodeBackend: a scheduled run is the session service's startScheduledRun.
    ScheduledSessionStarter starter = [w](const ScheduledRunRequest &run, CancelToken cancel,
                                          std::function<void(ScheduledRunResult)> done) {
        if (run.goalEnabled)
            return done(std::unexpected(ControlError {400, QStringLiteral("goal is not supported"), {}}));
        w->sessions->startScheduledRun(
            {run.directory, run.title, run.prompt, run.providerID, run.modelID, run.agent, run.variant},
            std::move(cancel), std::move(done));
    };
    ScheduledPeerSender peerSender =
        [](const ScheduledPeerMessage &message) -> std::expected<PeerDelivery, ControlError> {
        const auto peer = PeerTarget::resolve(message.target, livePeers());
        if (!peer)
            return std::unexpected(ControlError {500, peer.error(), {}});
        return PeerDelivery {42, peer->id};
    };
    w->scheduler = std::make_unique<Scheduler>(*w->store, *w->clock, std::move(starter), projects,
                                               Scheduler::Limits {}, std::move(peerSender));
    CHECK(w->scheduler->recoverInterrupted().has_value());
    w->schedules = std::make_unique<ScheduleService>(*w->store, *w->scheduler, *w->clock, projects);
    w->sessions->setScheduleService(w->schedules.get());

    w->module = std::make_unique<ControlModule>(std::make_unique<FixedBackend>(*w->sessions));
    NoContext context(*w->clock);
    CHECK(w->module->start(context).has_value());
    w->routes = w->module->routes();
    CHECK(w->routes.size() == 2);

    Broker::Location location;
    location.port = refusingPort();
    location.tokenPath = w->paths.root + QStringLiteral("/token");
    location.databasePath = w->paths.root + QStringLiteral("/peers.db");
    location.configPath = w->paths.root + QStringLiteral("/config.json");
    w->brokerClient = std::make_unique<Broker::BrokerClient>(location);
    Mcp::Session::Options sessionOptions2;
    sessionOptions2.spawnBroker = false;
    w->helperSession = std::make_unique<Mcp::Session>(w->brokerClient.get(), sessionOptions2);
    w->tools = std::make_unique<Mcp::ToolRegistry>();
    CHECK(w->tools->add(std::make_unique<ControlTool>(*w->brokerClient, *w->helperSession, 0)).has_value());
}

// ---- the input's words

const char *const kActions[] = {
    "projects.list",   "models.list",     "session.list",     "session.create",  "session.send",
    "session.fork",    "session.status",  "session.messages", "schedule.status", "schedule.list",
    "schedule.create", "schedule.run",    "schedule.delete",  "schedule.toggle", "",
    " session.list ",  "SESSION.LIST",    "session",          "toggle",          "status",
    "create",          "schedule.update", "schedule.bogus",   "session.wait",    "nope",
};

const char *const kKeys[] = {
    "directory",
    "projectId",
    "sessionId",
    "messageId",
    "prompt",
    "title",
    "model",
    "agent",
    "variant",
    "wait",
    "timeout",
    "lastAssistant",
    "goal",
    "goalTokenBudget",
    "worktree",
    "branch",
    "startRef",
    "setUpstream",
    "limit",
    "all",
    "withStatus",
    "role",
    "last",
    "name",
    "daily",
    "weekly",
    "once",
    "cron",
    "time",
    "timezone",
    "disabled",
    "taskId",
    "peer",
    "peers",
    "parameters",
    "action",
    "input",
    "tool",
    "contextDirectory",
};

const char *const kStrings[] = {
    "",
    "  ",
    "~",
    "~/nowhere-fuzz",
    "/",
    ".",
    "..",
    "relative/dir",
    "/nonexistent/fuzz",
    "app",
    "other",
    "gone",
    "file",
    "openai/gpt-5",
    "mock/mock-model",
    "a/",
    "/b",
    "a/b/c",
    " openai / gpt-5 ",
    "build",
    "plan",
    "high",
    "ses_1",
    "ses_%2F..%2F",
    "msg_1",
    "hello",
    "/review the code",
    "/ ",
    "user",
    "assistant",
    "all",
    "09:00",
    "09:00,18:30",
    "25:61",
    "9:5",
    "0,1,5",
    "7",
    "1,1",
    "2026-12-24",
    "2026-02-30",
    "1999-01-01",
    "*/5 * * * *",
    "0 9 * * 1-5",
    "@daily",
    "0 0 31 2 *",
    "* * * * * *",
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Asia/Kathmandu",
    "Mars/Olympus",
    "+05:30",
    "alpha",
    "twin",
    "p4abcd",
    "nobody",
    "openchamber",
    "wt-1",
    "main",
    "HEAD",
    "session.create",
    "schedule.create",
};

const double kNumbers[] = {0,
                           1,
                           -1,
                           0.5,
                           2,
                           10,
                           100,
                           600,
                           86400,
                           86401,
                           1000,
                           999,
                           1e8,
                           1e8 + 1,
                           1e300,
                           -1e300,
                           9007199254740991.0,
                           9007199254740992.0,
                           1e-300,
                           3.5,
                           6,
                           7,
                           -0.0,
                           4096,
                           2147483647.0,
                           2147483648.0,
                           -2147483649.0};

class Builder
{
public:
    Builder(Fuzz::Input &input, const Paths &paths, const QStringList &taskIds)
        : m_input(input), m_paths(paths), m_taskIds(taskIds)
    {
    }

    QJsonObject object(int depth)
    {
        QJsonObject o;
        const int fields = m_input.byte() % 10;
        for (int i = 0; i < fields && !m_input.atEnd(); ++i) {
            const uint8_t k = m_input.byte();
            const QString key = k == 0xff ? QString::fromUtf8(m_input.chunk())
                                          : QString::fromLatin1(kKeys[k % std::size(kKeys)]);
            o.insert(key, value(depth));
        }
        return o;
    }

    QJsonValue value(int depth)
    {
        const uint8_t type = m_input.byte();
        switch (type % 16) {
        case 0:
            return QJsonValue(QJsonValue::Null);
        case 1:
            return true;
        case 2:
            return false;
        case 3:
            return kNumbers[m_input.byte() % std::size(kNumbers)];
        case 4:
        case 5:
            return QString::fromLatin1(kStrings[m_input.byte() % std::size(kStrings)]);
        case 6:
            return QString::fromUtf8(m_input.chunk());
        case 7:
            return m_taskIds.isEmpty() ? QStringLiteral("no-task")
                                       : m_taskIds.at(m_input.byte() % m_taskIds.size());
        case 8: {
            QJsonArray array;
            const int n = depth > 2 ? 0 : m_input.byte() % 5;
            for (int i = 0; i < n; ++i)
                array.append(value(depth + 1));
            return array;
        }
        case 9:
            return depth > 2 ? QJsonValue(QJsonObject()) : QJsonValue(object(depth + 1));
        case 10: // very long strings (longer is only slower: every copy into a JSON object copies them)
            return QString(qsizetype(m_input.u16()) % 16384 + 1, QLatin1Char("a/ ~"[type >> 6]));
        case 11: {
            double d = 0;
            const QByteArray bytes = m_input.bytes(sizeof d);
            memcpy(&d, bytes.constData(), size_t(bytes.size()));
            return std::isfinite(d) ? d : 0.0; // JSON has no NaN or infinity
        }
        case 12:
            return double(int(m_input.u16()) - 32768);
        case 13:
            return directory(m_input.byte());
        case 14: // a string padded with whitespace
            return QStringLiteral(" \t%1\n").arg(
                QString::fromLatin1(kStrings[m_input.byte() % std::size(kStrings)]));
        default:
            return QString::number(int(m_input.byte()) - 8);
        }
    }

    QString directory(uint8_t choice)
    {
        switch (choice % 9) {
        case 0:
            return m_paths.repo;
        case 1:
            return m_paths.other;
        case 2:
            return m_paths.file;
        case 3:
            return m_paths.gone;
        case 4:
            return m_paths.repo + QStringLiteral("/../app/./");
        case 5:
            return m_paths.root;
        case 6:
            return QStringLiteral(" %1 ").arg(m_paths.other);
        case 7:
            return m_paths.root + QStringLiteral("/repo/app/\u00e9t\u00e9");
        default:
            return QStringLiteral("relative/fuzz");
        }
    }

private:
    Fuzz::Input &m_input;
    const Paths &m_paths;
    const QStringList &m_taskIds;
};

// ---- running a call and checking its answer

struct Answer
{
    int count = 0;
    bool ok = false;
    int status = 0;
    QString message; // only with g_trace
};

void learnTaskId(const QJsonObject &result, QStringList &taskIds)
{
    const QString id = result.value(QStringLiteral("task")).toObject().value(QStringLiteral("id")).toString();
    if (!id.isEmpty() && !taskIds.contains(id))
        taskIds.append(id);
}

bool contractStatus(int status)
{
    return status == 400 || status == 404 || status == 409 || status == 499 || status == 500;
}

void checkResult(const ControlResult &result, Answer &answer, QStringList &taskIds)
{
    if (++answer.count > 1)
        broken("an action answered twice");
    answer.ok = result.has_value();
    if (!result) {
        answer.status = result.error().status;
        if (g_trace)
            answer.message = result.error().message;
        CHECK(contractStatus(result.error().status));
        CHECK(!result.error().message.trimmed().isEmpty());
        return;
    }
    // A success is an object that survives the wire.
    const QByteArray text = QJsonDocument(*result).toJson(QJsonDocument::Compact);
    QJsonParseError error;
    const QJsonDocument back = QJsonDocument::fromJson(text, &error);
    CHECK(error.error == QJsonParseError::NoError && back.isObject());
    learnTaskId(*result, taskIds);
}

class RouteResponder final : public Fuzz::ConnectionResponder
{
public:
    RouteResponder(bool agentTool, std::shared_ptr<Answer> answer, QStringList &taskIds)
        : m_agentTool(agentTool), m_answerKept(std::move(answer)), m_answer(*m_answerKept), m_taskIds(taskIds)
    {
    }

    void respond(const Broker::Http::Response &response) override
    {
        if (!accept())
            return;
        ++m_answer.count;
        CHECK(response.contentType == "application/json");
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(response.body, &error);
        CHECK(error.error == QJsonParseError::NoError && doc.isObject());
        const QJsonObject body = doc.object();
        if (m_agentTool) {
            CHECK(response.status == 200); // the envelope says how it went
            const auto envelope = Broker::AgentToolEnvelope::fromJson(body);
            CHECK(envelope.has_value());
            m_answer.ok = envelope->ok;
            if (g_trace)
                m_answer.message = envelope->errorMessage;
            if (envelope->ok)
                learnTaskId(envelope->data, m_taskIds);
            else
                CHECK(envelope->errorKind == QLatin1String("usage") ||
                      envelope->errorKind == QLatin1String("runtime"));
            return;
        }
        if (g_trace)
            m_answer.message = QString::fromUtf8(response.body.left(300));
        m_answer.ok = response.status == 200;
        m_answer.status = response.status;
        if (m_answer.ok) {
            learnTaskId(body, m_taskIds);
            return;
        }
        CHECK(contractStatus(response.status));
        CHECK(body.value(QStringLiteral("error")).isString());
    }

private:
    bool m_agentTool;
    std::shared_ptr<Answer> m_answerKept; // a late answer must find it (and fail the run)
    Answer &m_answer;
    QStringList &m_taskIds;
};

// The tool's answer: one text item holding the /agent-tool envelope; isError iff not ok.
void checkToolResult(const QJsonObject &result, Answer &answer)
{
    if (++answer.count > 1)
        broken("the tool answered twice");
    const QJsonArray content = result.value(QStringLiteral("content")).toArray();
    CHECK(content.size() == 1);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(
        content.at(0).toObject().value(QStringLiteral("text")).toString().toUtf8(), &error);
    CHECK(error.error == QJsonParseError::NoError && doc.isObject());
    const auto envelope = Broker::AgentToolEnvelope::fromJson(doc.object());
    CHECK(envelope.has_value());
    CHECK(envelope->ok != result.value(QStringLiteral("isError")).toBool());
    answer.ok = envelope->ok;
    if (g_trace)
        answer.message = envelope->errorMessage;
}

bool idle(const World &w)
{
    return w.sessions->runningCount() == 0 && w.client->pendingCount() == 0 &&
        w.scheduler->runningCount() == 0 && w.module->actionsInFlight() == 0 && w.tools->callsInFlight() == 0;
}

// One pass of the event loop.
void pass(World &w)
{
    Fuzz::processQueued();
    // Waits for the network thread's news, or the tool's zero-time timer, when one is due.
    if (w.client->pendingCount() > 0 || w.tools->callsInFlight() > 0)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    else
        QCoreApplication::processEvents();
    Fuzz::processQueued();
}

// A manual run queued for a slot starts at a tick, when nothing else is running that could end
// and start it. (A tick reads the due tasks from SQLite with a statement prepared each time:
// ticking on every pass was a third of the run time.)
void tickIfStalled(World &w)
{
    if (w.sessions->runningCount() == 0 && w.client->pendingCount() == 0 && w.tools->callsInFlight() == 0)
        w.scheduler->tick();
}

struct Call
{
    uint8_t adapter; // 0: execute(); 1: the MCP tool's arguments; 2: /control; 3: /agent-tool
    uint8_t cancelMode; // 0-3: never; 4: before; 5: right after the call; 6, 7: after `passes` passes
    int passes = 0;
    QString action;
    QJsonObject input; // execute()'s input, or the route's body
    QString context;
};

void trace(const Call &call, const Answer &answer)
{
    if (g_trace)
        fprintf(stderr, "call '%s' via %d, cancel %d: %s %d %s\n", qPrintable(call.action.left(40)),
                call.adapter, call.cancelMode,
                answer.count == 0 ? "no answer (cancelled)"
                    : answer.ok   ? "ok"
                                  : "error",
                answer.status, qPrintable(answer.message.left(160)));
}

void runCall(World &w, const Call &call, QStringList &taskIds)
{
    // Shared with the callbacks: an answer after this call's end must still be counted.
    const auto kept = std::make_shared<Answer>();
    Answer &answer = *kept;
    CancelToken cancel;
    std::shared_ptr<RouteResponder> responder;
    if (call.adapter == 1) {
        quint64 id = 0;
        bool cancelled = call.cancelMode == 4;
        id = w.tools->call(QStringLiteral("openchamber"), call.input,
                           [kept](QJsonObject result) { checkToolResult(result, *kept); });
        if (cancelled && id != 0)
            w.tools->cancel(id); // notifications/cancelled: no answer from now on
        for (int passes = 0; answer.count == 0 && !cancelled; ++passes) {
            if (call.cancelMode >= 5 && passes == call.passes && id != 0) {
                w.tools->cancel(id);
                cancelled = true;
                break;
            }
            pass(w);
        }
        CHECK(w.tools->callsInFlight() == 0);
        trace(call, answer);
        return;
    }
    if (call.adapter == 0) {
        if (call.cancelMode == 4)
            cancel.cancel();
        w.sessions->execute(call.action, call.input, call.context, cancel,
                            [kept, &taskIds](ControlResult result) { checkResult(result, *kept, taskIds); });
    } else {
        const bool agentTool = call.adapter == 3;
        responder = std::make_shared<RouteResponder>(agentTool, kept, taskIds);
        const Broker::Route &route = w.routes.at(agentTool ? 1 : 0);
        Broker::Http::Request request;
        request.method = "POST";
        request.path = route.path;
        // request.body stays empty: the handlers read the parsed body (call.body) only.
        Broker::RouteCall routeCall {
            request, responder, call.input,
            agentTool ? Broker::Credential {Broker::Credential::Kind::Session, QStringLiteral("p1abcd")}
                      : Broker::Credential {Broker::Credential::Kind::MainToken, {}}};
        route.handler(routeCall);
        if (call.cancelMode == 4)
            responder->close(); // as soon as the handler returns: the earliest a client can leave
    }
    auto cancelNow = [&] {
        const bool answered = answer.count > 0;
        if (responder)
            responder->close();
        else
            cancel.cancel();
        if (answered)
            return;
        // An action still running answers 499 at once (a route's answer goes nowhere: it is
        // closed, and the module forgets the action).
        if (!responder) {
            CHECK(answer.count == 1);
            CHECK(!answer.ok && answer.status == 499);
        }
    };
    if (call.cancelMode == 5 || (call.cancelMode >= 6 && call.passes == 0))
        cancelNow();
    int passes = 0;
    while (answer.count == 0 && !(responder && !responder->isOpen())) {
        pass(w);
        if (answer.count == 0)
            tickIfStalled(w);
        if (call.cancelMode >= 6 && ++passes == call.passes)
            cancelNow();
    }
    CHECK(answer.count <= 1);
    trace(call, answer);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy); // never an http_proxy of the environment
    buildWorld();
    g_taskIds = new QStringList;
    g_trace = qEnvironmentVariableIntValue("FUZZ_CONTROL_TRACE") == 1;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    World &w = *g_world;
    {
        QSqlQuery clear(w.db);
        CHECK(clear.exec(QStringLiteral("DELETE FROM openchamber_scheduled_tasks")));
    }
    w.clock->set(QDateTime(QDate(2026, 12, 1), QTime(9, 0), Qt::UTC));
    w.client->setBaseUrl(size % 8 == 0 ? w.refusingUrl : w.nowhereUrl);

    Fuzz::Input input(data, size);
    QStringList &taskIds = *g_taskIds;
    taskIds.clear();
    int calls = 0;
    int steps = 0;
    while (!input.atEnd() && calls < kMaxCalls) {
        const uint8_t op = input.byte();
        if (op >= 0xf0) { // time passes: due occurrences start at the tick
            const qint64 minutes = input.u16();
            // A tick reads the due tasks from SQLite (a statement prepared each time): a few per
            // input say all there is to say, while mutated inputs are full of 0xf0..0xff bytes.
            if (++steps <= kMaxClockSteps && !taskIds.isEmpty()) { // else there is nothing to run
                w.clock->advance(minutes * 60 * 1000);
                w.scheduler->tick();
                pass(w);
            }
            continue;
        }
        ++calls;
        const uint8_t flags = input.byte();
        Call call;
        call.adapter = flags & 3;
        call.cancelMode = (flags >> 4) & 7;
        if (call.cancelMode >= 6)
            call.passes = input.byte() % 8;
        call.action = op < std::size(kActions) * 8 ? QString::fromLatin1(kActions[op % std::size(kActions)])
                                                   : QString::fromUtf8(input.chunk());
        Builder builder(input, w.paths, taskIds);
        switch ((flags >> 2) & 3) {
        case 0:
            break; // no context directory (the CLI's)
        case 1:
            call.context = w.paths.repo;
            break;
        default:
            call.context = builder.directory(input.byte());
            break;
        }
        QJsonObject fields;
        if (flags & 0x80) { // JSON text: any object, any bytes
            const QJsonDocument doc = QJsonDocument::fromJson(input.bytes(input.u16() % 4096));
            fields = doc.object();
        } else {
            fields = builder.object(0);
        }
        if (call.adapter == 2) { // POST /control {action, input, contextDirectory}
            call.input = {{QStringLiteral("action"), call.action}, {QStringLiteral("input"), fields}};
            if (!call.context.isEmpty())
                call.input.insert(QStringLiteral("contextDirectory"), call.context);
            if (flags & 0x80) // the body as it came
                call.input = fields;
        } else if (call.adapter == 1) { // tools/call arguments {action, parameters?, …}
            call.input = fields;
            if (!call.input.contains(QStringLiteral("action")) && !(flags & 0x80))
                call.input.insert(QStringLiteral("action"), call.action);
        } else if (call.adapter == 3) { // POST /agent-tool {input: {action, …}, contextDirectory, tool}
            QJsonObject toolInput = fields;
            if (!toolInput.contains(QStringLiteral("action")))
                toolInput.insert(QStringLiteral("action"), call.action);
            call.input = {{QStringLiteral("input"), toolInput},
                          {QStringLiteral("contextDirectory"), call.context}};
            if (flags & 0x80)
                call.input = fields;
        } else {
            call.input = fields;
        }
        runCall(w, call, taskIds);
    }
    // Nothing stays running: cancelled or finished actions, their requests, scheduled runs.
    for (int i = 0; i < 1000 && !idle(w); ++i) {
        pass(w);
        if (!idle(w))
            tickIfStalled(w);
    }
    CHECK(idle(w));
    Fuzz::processQueued(); // objects the last answers deleted later (an input that frees all it took
                           // is not run a second time for LeakSanitizer)
    return 0;
}
