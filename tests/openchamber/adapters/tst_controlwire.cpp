// The adapters' pure parts: the wire structs of /control and /agent-tool, the agent's action
// resolution, the CLI's command lines → actions (and their usage errors), and its texts.
#include "app/cli/command.h"
#include "app/cli/controlcommands.h"
#include "app/cli/controlformat.h"
#include "common/controlwire.h"
#include "openchamber/actioncatalog.h"
#include "openchamber/agentactions.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

Cli::Invocation parse(const QString &command, const QStringList &args)
{
    auto inv = Cli::parseInvocation(*Cli::findCommand(command), args);
    if (!inv)
        qFatal("parse failed: %s", qPrintable(inv.error().message));
    return *inv;
}

} // namespace

class tst_ControlWire : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void catalogHasThirteenAgentActions()
    {
        const auto exposed = OpenChamber::agentActions(OpenChamber::controlActions());
        QCOMPARE(OpenChamber::controlActions().size(), 14);
        QCOMPARE(exposed.size(), 13);
        for (const auto &action : OpenChamber::controlActions()) {
            QVERIFY(!action.title.isEmpty());
            QVERIFY(!action.description.isEmpty());
            QCOMPARE(action.agentExposed, action.name != u"schedule.status"_s);
        }
    }

    void envelopeRoundTrip()
    {
        const auto ok = Broker::AgentToolEnvelope::success(u"models.list"_s, {{u"defaultModel"_s, u"a/b"_s}});
        QCOMPARE(ok.toJson(),
                 (QJsonObject {{u"schemaVersion"_s, 1},
                               {u"ok"_s, true},
                               {u"action"_s, u"models.list"_s},
                               {u"data"_s, QJsonObject {{u"defaultModel"_s, u"a/b"_s}}}}));
        const auto failed = Broker::AgentToolEnvelope::failure(u"schedule.run"_s, 404, u"Task not found"_s);
        QCOMPARE(
            failed.toJson(),
            (QJsonObject {
                {u"schemaVersion"_s, 1},
                {u"ok"_s, false},
                {u"action"_s, u"schedule.run"_s},
                {u"error"_s, QJsonObject {{u"message"_s, u"Task not found"_s}, {u"kind"_s, u"usage"_s}}}}));
        const auto read = Broker::AgentToolEnvelope::fromJson(failed.toJson());
        QVERIFY(read);
        QCOMPARE(read->errorMessage, u"Task not found"_s);
        QVERIFY(!Broker::AgentToolEnvelope::fromJson({{u"error"_s, u"Unauthorized"_s}}));
        QVERIFY(!Broker::AgentToolEnvelope::fromJson({{u"schemaVersion"_s, 2}, {u"ok"_s, true}}));
        QCOMPARE(Broker::AgentToolEnvelope::kindForStatus(499), u"runtime"_s);
        QCOMPARE(Broker::AgentToolEnvelope::kindForStatus(400), u"usage"_s);
    }

    void controlFailureFromClientErrors()
    {
        Broker::Error http {Broker::ErrorKind::Http, u"Broker error (/control): 500 …"_s, 500,
                            QJsonObject {{u"error"_s, u"prompt_async failed (500)"_s},
                                         {u"partial"_s, true},
                                         {u"partialAction"_s, u"fork-created"_s},
                                         {u"sessionId"_s, u"ses_f"_s},
                                         {u"directory"_s, u"/repo"_s}}};
        const auto failure = Broker::ControlFailure::fromError(http, u"session.fork"_s);
        QCOMPARE(failure.status, 500);
        QCOMPARE(failure.message, u"prompt_async failed (500)"_s);
        QVERIFY(!failure.isValidation());
        QCOMPARE(Cli::ControlFormat::failure(failure),
                 u"prompt_async failed (500) Forked session ses_f remains available in /repo."_s);
        const auto down = Broker::ControlFailure::fromError(
            Broker::Error {Broker::ErrorKind::Unreachable, u"Broker not reachable"_s}, u"x"_s);
        QCOMPARE(down.status, 0);
        QCOMPARE(down.message, u"Broker not reachable"_s);
        const auto empty = Broker::ControlFailure::fromJson(404, {}, u"schedule.run"_s);
        QCOMPARE(empty.message, u"Failed to execute schedule.run"_s);
        QVERIFY(empty.isValidation());
    }

    void commandLinesBecomeActions_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("action");
        QTest::addColumn<QJsonObject>("input");
        QTest::newRow("projects") << u"projects"_s << QStringList {} << u"projects.list"_s << QJsonObject {};
        QTest::newRow("models -q") << u"models"_s << QStringList {u"-q"_s} << u"models.list"_s
                                   << QJsonObject {};
        QTest::newRow("list") << u"session"_s << QStringList {u"list"_s,    u"--dir"_s, u"sub"_s,
                                                              u"--limit"_s, u"3"_s,     u"--with-status"_s}
                              << u"session.list"_s
                              << QJsonObject {{u"directory"_s, u"/cwd/sub"_s},
                                              {u"limit"_s, 3},
                                              {u"withStatus"_s, true}};
        QTest::newRow("create wait")
            << u"session"_s << QStringList {u"create"_s,           u"--dir"_s,     u"/repo"_s,
                                            u"--prompt"_s,         u"hi"_s,        u"--model"_s,
                                            u"mock/m"_s,           u"--variant"_s, u"high"_s,
                                            u"--wait"_s,           u"--timeout"_s, u"30"_s,
                                            u"--last-assistant"_s, u"--title"_s,   u"T"_s}
            << u"session.create"_s
            << QJsonObject {{u"directory"_s, u"/repo"_s}, {u"prompt"_s, u"hi"_s}, {u"model"_s, u"mock/m"_s},
                            {u"variant"_s, u"high"_s},    {u"wait"_s, true},      {u"timeout"_s, 30},
                            {u"lastAssistant"_s, true},   {u"title"_s, u"T"_s}};
        QTest::newRow("create worktree")
            << u"session"_s << QStringList {u"create"_s,     u"--dir"_s, u"/repo"_s,
                                            u"--worktree"_s, u"feat"_s,  u"--no-upstream"_s}
            << u"session.create"_s
            << QJsonObject {
                   {u"directory"_s, u"/repo"_s}, {u"worktree"_s, u"feat"_s}, {u"setUpstream"_s, false}};
        // Passed on as the contract says; the service refuses what OpenCode cannot do.
        QTest::newRow("create worktree options")
            << u"session"_s
            << QStringList {u"create"_s,   u"--dir"_s, u"/repo"_s,  u"--worktree"_s, u"feat"_s,
                            u"--branch"_s, u"b"_s,     u"--base"_s, u"main"_s,       u"--upstream"_s}
            << u"session.create"_s
            << QJsonObject {{u"directory"_s, u"/repo"_s},
                            {u"worktree"_s, u"feat"_s},
                            {u"branch"_s, u"b"_s},
                            {u"startRef"_s, u"main"_s},
                            {u"setUpstream"_s, true}};
        QTest::newRow("create project") << u"session"_s << QStringList {u"create"_s, u"--project"_s, u"p1"_s}
                                        << u"session.create"_s << QJsonObject {{u"projectId"_s, u"p1"_s}};
        QTest::newRow("fork") << u"session"_s << QStringList {u"fork"_s,  u"--session"_s, u"ses_1"_s,
                                                              u"--dir"_s, u"/r"_s,        u"--prompt"_s,
                                                              u"go"_s,    u"--message"_s, u"msg_1"_s}
                              << u"session.fork"_s
                              << QJsonObject {{u"sessionId"_s, u"ses_1"_s},
                                              {u"directory"_s, u"/r"_s},
                                              {u"prompt"_s, u"go"_s},
                                              {u"messageId"_s, u"msg_1"_s}};
        QTest::newRow("messages") << u"session"_s
                                  << QStringList {u"messages"_s, u"--session"_s, u"s"_s,         u"--dir"_s,
                                                  u"/r"_s,       u"--role"_s,    u"assistant"_s, u"--last"_s}
                                  << u"session.messages"_s
                                  << QJsonObject {{u"sessionId"_s, u"s"_s},
                                                  {u"directory"_s, u"/r"_s},
                                                  {u"role"_s, u"assistant"_s},
                                                  {u"last"_s, true}};
        QTest::newRow("schedule create")
            << u"schedule"_s
            << QStringList {u"create"_s,     u"--dir"_s,  u"/r"_s,      u"--name"_s,     u"n"_s,
                            u"--prompt"_s,   u"p"_s,      u"--model"_s, u"a/b"_s,        u"--once"_s,
                            u"2026-12-01"_s, u"--time"_s, u"09:00"_s,   u"--timezone"_s, u"UTC"_s}
            << u"schedule.create"_s
            << QJsonObject {{u"directory"_s, u"/r"_s}, {u"name"_s, u"n"_s},          {u"prompt"_s, u"p"_s},
                            {u"model"_s, u"a/b"_s},    {u"once"_s, u"2026-12-01"_s}, {u"time"_s, u"09:00"_s},
                            {u"timezone"_s, u"UTC"_s}};
        QTest::newRow("disable") << u"schedule"_s
                                 << QStringList {u"disable"_s, u"--project"_s, u"p"_s, u"--task"_s, u"t"_s}
                                 << u"schedule.toggle"_s
                                 << QJsonObject {{u"projectId"_s, u"p"_s},
                                                 {u"taskId"_s, u"t"_s},
                                                 {u"disabled"_s, true}};
        QTest::newRow("enable") << u"schedule"_s
                                << QStringList {u"enable"_s, u"--project"_s, u"p"_s, u"--task"_s, u"t"_s}
                                << u"schedule.toggle"_s
                                << QJsonObject {{u"projectId"_s, u"p"_s},
                                                {u"taskId"_s, u"t"_s},
                                                {u"disabled"_s, false}};
        QTest::newRow("schedule status")
            << u"schedule"_s << QStringList {u"status"_s} << u"schedule.status"_s << QJsonObject {};
        // Our extension: tasks that message a peer (docs/divergences.md).
        QTest::newRow("schedule create --peer")
            << u"schedule"_s << QStringList {u"create"_s,   u"--peer"_s, u"reviewer"_s, u"--name"_s, u"n"_s,
                                             u"--prompt"_s, u"p"_s,      u"--daily"_s,  u"09:00"_s}
            << u"schedule.create"_s
            << QJsonObject {{u"peer"_s, u"reviewer"_s},
                            {u"name"_s, u"n"_s},
                            {u"prompt"_s, u"p"_s},
                            {u"daily"_s, u"09:00"_s}};
        QTest::newRow("schedule list --peers") << u"schedule"_s << QStringList {u"list"_s, u"--peers"_s}
                                               << u"schedule.list"_s << QJsonObject {{u"peers"_s, true}};
        QTest::newRow("run without a project") << u"schedule"_s << QStringList {u"run"_s, u"--task"_s, u"t"_s}
                                               << u"schedule.run"_s << QJsonObject {{u"taskId"_s, u"t"_s}};
    }
    void commandLinesBecomeActions()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        QFETCH(QString, action);
        QFETCH(QJsonObject, input);
        const Cli::Invocation inv = parse(command, args);
        const auto call = Cli::Control::buildCall(command, inv.positional.value(0), inv, u"/cwd"_s);
        QVERIFY2(call, call ? "" : qPrintable(call.error()));
        QCOMPARE(call->action, action);
        QCOMPARE(call->input, input);
    }

    void waitTimeoutCoversTheWait()
    {
        const Cli::Invocation inv = parse(u"session"_s,
                                          {u"messages"_s, u"--session"_s, u"s"_s, u"--dir"_s, u"/r"_s,
                                           u"--wait"_s, u"--timeout"_s, u"30"_s});
        const auto call = Cli::Control::buildCall(u"session"_s, u"messages"_s, inv, u"/"_s);
        QVERIFY(call);
        QVERIFY(call->wait);
        QCOMPARE(call->httpTimeoutMs, 60000);
    }

    // docs/spec/control-service.md §10.2: with --worktree +120000 ms, or 120000 alone.
    void worktreeTimeoutCoversTheBootstrap_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("timeoutMs");
        QTest::newRow("alone") << QStringList {} << 120000;
        QTest::newRow("wait 30") << QStringList {u"--wait"_s, u"--timeout"_s, u"30"_s} << 180000;
        QTest::newRow("wait") << QStringList {u"--wait"_s} << 750000;
    }

    void worktreeTimeoutCoversTheBootstrap()
    {
        QFETCH(QStringList, flags);
        QFETCH(int, timeoutMs);
        const Cli::Invocation inv = parse(
            u"session"_s, QStringList {u"create"_s, u"--dir"_s, u"/r"_s, u"--worktree"_s, u"w"_s} + flags);
        const auto call = Cli::Control::buildCall(u"session"_s, u"create"_s, inv, u"/"_s);
        QVERIFY(call);
        QCOMPARE(call->httpTimeoutMs, timeoutMs);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("no scope") << u"session"_s << QStringList {u"create"_s}
                                  << u"Missing required --dir or --project."_s;
        QTest::newRow("both scopes") << u"session"_s
                                     << QStringList {u"create"_s, u"--dir"_s, u"a"_s, u"--project"_s, u"b"_s}
                                     << u"Provide only one of --dir or --project."_s;
        QTest::newRow("model format")
            << u"session"_s << QStringList {u"create"_s, u"--dir"_s, u"a"_s, u"--model"_s, u"gpt"_s}
            << u"--model must be in provider/model format."_s;
        QTest::newRow("timeout") << u"session"_s
                                 << QStringList {u"create"_s, u"--dir"_s, u"a"_s, u"--timeout"_s, u"3"_s}
                                 << u"--timeout requires --wait."_s;
        QTest::newRow("last-assistant")
            << u"session"_s << QStringList {u"send"_s, u"--session"_s, u"s"_s, u"--dir"_s,
                                            u"a"_s,    u"--prompt"_s,  u"p"_s, u"--last-assistant"_s}
            << u"--last-assistant requires --wait for session send."_s;
        QTest::newRow("no session") << u"session"_s << QStringList {u"send"_s, u"--dir"_s, u"a"_s}
                                    << u"Missing required --session."_s;
        QTest::newRow("no dir") << u"session"_s << QStringList {u"status"_s, u"--session"_s, u"s"_s}
                                << u"Missing required --dir."_s;
        QTest::newRow("message not fork")
            << u"session"_s << QStringList {u"send"_s,     u"--session"_s, u"s"_s,         u"--dir"_s, u"a"_s,
                                            u"--prompt"_s, u"p"_s,         u"--message"_s, u"m"_s}
            << u"--message is only valid for session fork."_s;
        QTest::newRow("role") << u"session"_s
                              << QStringList {u"messages"_s, u"--session"_s, u"s"_s,  u"--dir"_s,
                                              u"a"_s,        u"--role"_s,    u"bot"_s}
                              << u"--role must be one of: all, user, assistant."_s;
        QTest::newRow("all+last") << u"session"_s
                                  << QStringList {u"messages"_s, u"--session"_s, u"s"_s,     u"--dir"_s,
                                                  u"a"_s,        u"--all"_s,     u"--last"_s}
                                  << u"--all cannot be combined with --last or --limit."_s;
        QTest::newRow("last+limit") << u"session"_s
                                    << QStringList {u"messages"_s, u"--session"_s, u"s"_s,       u"--dir"_s,
                                                    u"a"_s,        u"--last"_s,    u"--limit"_s, u"2"_s}
                                    << u"--last cannot be combined with --limit."_s;
        QTest::newRow("limit 0") << u"session"_s << QStringList {u"list"_s, u"--limit"_s, u"0"_s}
                                 << u"Invalid limit value. Provide a positive integer."_s;
        QTest::newRow("goal") << u"session"_s << QStringList {u"create"_s, u"--dir"_s, u"a"_s, u"--goal"_s}
                              << u"--goal requires --prompt."_s;
        QTest::newRow("no task") << u"schedule"_s << QStringList {u"run"_s, u"--dir"_s, u"a"_s}
                                 << u"Missing required --task."_s;
        QTest::newRow("two selectors")
            << u"schedule"_s
            << QStringList {u"create"_s,   u"--dir"_s,  u"a"_s,        u"--name"_s, u"n"_s,
                            u"--prompt"_s, u"p"_s,      u"--model"_s,  u"a/b"_s,    u"--daily"_s,
                            u"09:00"_s,    u"--cron"_s, u"* * * * *"_s}
            << u"Provide exactly one of --daily, --weekly, --once, or --cron."_s;
        QTest::newRow("unknown sub")
            << u"session"_s << QStringList {u"delete"_s}
            << u"Unknown session command: delete. Use list, create, send, fork, status or messages."_s;
    }
    void usageErrors()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        const Cli::Invocation inv = parse(command, args);
        const auto call = Cli::Control::buildCall(command, inv.positional.value(0), inv, u"/cwd"_s);
        QVERIFY(!call);
        QCOMPARE(call.error(), error);
    }

    void texts()
    {
        const QJsonObject created {
            {u"sessionId"_s, u"ses_1"_s},
            {u"directory"_s, u"/repo"_s},
            {u"model"_s, QJsonObject {{u"providerID"_s, u"mock"_s}, {u"modelID"_s, u"m"_s}}},
            {u"promptDispatched"_s, true},
            {u"dispatchedAsCommand"_s, false},
            {u"sessionStatus"_s, QJsonObject {{u"type"_s, u"idle"_s}}},
            {u"lastAssistantMessage"_s, QJsonObject {{u"text"_s, u"Hello from the mock"_s}}}};
        QCOMPARE(
            Cli::ControlFormat::result(u"session.create"_s, created, false),
            (QStringList {u"Created session ses_1 (/repo)"_s, u"Model: mock/m"_s, u"Prompt dispatched."_s,
                          u"Status: idle"_s, QString(), u"Hello from the mock"_s}));
        QCOMPARE(Cli::ControlFormat::result(u"session.create"_s, created, true),
                 QStringList {u"Hello from the mock"_s});
        QJsonObject noLanding = created;
        noLanding.remove(u"lastAssistantMessage"_s);
        noLanding.remove(u"sessionStatus"_s);
        noLanding[u"promptDispatched"_s] = false;
        noLanding[u"promptError"_s] = u"OpenCode accepted the prompt but it never appeared in the session"_s;
        QCOMPARE(Cli::ControlFormat::result(u"session.create"_s, noLanding, true), QStringList {u"ses_1"_s});
        QVERIFY(
            Cli::ControlFormat::result(u"session.create"_s, noLanding, false)
                .contains(
                    u"Prompt not dispatched: OpenCode accepted the prompt but it never appeared in the session"_s));
        QJsonObject inWorktree = noLanding;
        inWorktree[u"worktree"_s] =
            QJsonObject {{u"name"_s, u"w"_s}, {u"branch"_s, u"opencode/w"_s}, {u"path"_s, u"/wt/w"_s}};
        QCOMPARE(Cli::ControlFormat::result(u"session.create"_s, inWorktree, false).value(1),
                 u"Worktree: /wt/w (branch opencode/w)"_s);
        const auto bootstrap =
            Broker::ControlFailure::fromJson(500,
                                             {{u"error"_s, u"Worktree bootstrap failed: boom"_s},
                                              {u"partial"_s, true},
                                              {u"partialAction"_s, u"worktree-created"_s},
                                              {u"directory"_s, u"/wt/w"_s}},
                                             u"session.create"_s);
        QCOMPARE(Cli::ControlFormat::failure(bootstrap),
                 u"Worktree bootstrap failed: boom Worktree /wt/w remains."_s);
        const auto dispatch = Broker::ControlFailure::fromJson(500,
                                                               {{u"error"_s, u"prompt_async failed (500)"_s},
                                                                {u"partial"_s, true},
                                                                {u"partialAction"_s, u"session-created"_s},
                                                                {u"sessionId"_s, u"ses_1"_s},
                                                                {u"directory"_s, u"/wt/w"_s}},
                                                               u"session.create"_s);
        QCOMPARE(Cli::ControlFormat::failure(dispatch),
                 u"prompt_async failed (500) Session ses_1 remains available in /wt/w."_s);
        QCOMPARE(Cli::ControlFormat::result(u"projects.list"_s, {{u"projects"_s, QJsonArray {}}}, false),
                 QStringList {u"No projects configured."_s});
    }
};

QTEST_GUILESS_MAIN(tst_ControlWire)
#include "tst_controlwire.moc"
