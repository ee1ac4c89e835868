// session.create with a worktree (docs/spec/control-service.md §5.1 step 7, §12): OpenCode
// creates the worktree, the session and its prompt go there once /global/event says it is ready.
#include "tests/openchamber/servicefixture.h"

#include "tests/support/testsupport.h"

#include <QtTest>

using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

// Where the n-th request with this method and path is in the fake's log; -1 when none.
qsizetype indexOf(const FakeOpenCode &fake, const QByteArray &method, const QString &path)
{
    for (qsizetype i = 0; i < fake.requests.size(); ++i) {
        if (fake.requests[i].method == method && fake.requests[i].path == path)
            return i;
    }
    return -1;
}

// The fixture's manual clock, with a hook that runs before each sleep passes; the sleep moves the
// clock only when the hook says so. (Sleeps pass at once: a bootstrap poll, which sends no
// request, would run out its 60 s before an event sent now crossed the loopback.)
void hookSleeps(ServiceFixture &f, std::function<bool(int sleeps)> hook)
{
    auto c = f.clock;
    auto count = std::make_shared<int>(0);
    f.service->setTimers({c, [c, count, hook](int ms, QObject *context, std::function<void()> done) {
                              QTimer::singleShot(0, context, [c, ms, count, hook, done = std::move(done)] {
                                  if (hook(++*count))
                                      c->advance(ms);
                                  done();
                              });
                          }});
}

QJsonObject createInput(const ServiceFixture &f, std::initializer_list<std::pair<const char *, V>> extra = {})
{
    QJsonObject input = obj({{"directory", f.repo()}, {"worktree", " feat-x "}});
    for (const auto &field : extra)
        input.insert(QString::fromUtf8(field.first), field.second.v);
    return input;
}

} // namespace

class tst_WorktreeCreate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void worktreeIsCreatedBeforeTheSession();
    void sessionAndPromptRunInTheWorktree();
    void waitsThroughTheBootstrap();
    void failedBootstrapIsAnErrorWithNoSessionOrPrompt();
    void bootstrapTimeoutIsAnError();
    void unknownAgentCreatesNoWorktree();
    void cancelStopsTheBootstrapWait();
    void worktreeInputsAreCheckedUpFront_data();
    void worktreeInputsAreCheckedUpFront();
    void refusedWorktreeIsAUsageError();
    void withoutTheGlobalStreamNoWorktreeIsCreated();
};

void tst_WorktreeCreate::worktreeIsCreatedBeforeTheSession()
{
    ServiceFixture f(true); // real time: the news comes over loopback, as in life
    const ControlResult r =
        f.run(QStringLiteral("session.create"), createInput(f, {{"title", "Fix"}, {"setUpstream", false}}));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    const QString path = f.fake.worktreeRoot + QStringLiteral("/feat-x");
    const QList<FakeRequest> creates = f.fake.find("POST", QStringLiteral("/experimental/worktree"));
    QCOMPARE(creates.size(), 1);
    QCOMPARE(creates.first().directory(), f.repo()); // in the base directory's project
    QCOMPARE(creates.first().json(), obj({{"name", "feat-x"}}));
    // The global stream was listening before the worktree was asked for, the session came after.
    const qsizetype stream = indexOf(f.fake, "GET", QStringLiteral("/global/event"));
    const qsizetype worktree = indexOf(f.fake, "POST", QStringLiteral("/experimental/worktree"));
    const qsizetype session = indexOf(f.fake, "POST", QStringLiteral("/session"));
    QVERIFY(stream >= 0 && stream < worktree);
    QVERIFY(worktree < session);
    QCOMPARE(f.fake.find("POST", QStringLiteral("/session")).first().directory(), path);
    QCOMPARE(r->value(QStringLiteral("directory")).toString(), path);
    QCOMPARE(r->value(QStringLiteral("worktree")).toObject(),
             obj({{"name", "feat-x"}, {"branch", "opencode/feat-x"}, {"path", path}}));
    QCOMPARE(r->value(QStringLiteral("title")).toString(), QStringLiteral("Fix"));
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(false));
    QTRY_COMPARE(f.fake.globalEventStreams(), 0); // closed once the worktree was ready
}

void tst_WorktreeCreate::sessionAndPromptRunInTheWorktree()
{
    ServiceFixture f(true); // real time: the news comes over loopback, as in life
    f.offerTypicalInstance();
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  createInput(f,
                                              {{"prompt", "build it"},
                                               {"model", "mock/mock-model"},
                                               {"agent", "build"},
                                               {"wait", true},
                                               {"lastAssistant", true}}));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    const QString path = f.fake.worktreeRoot + QStringLiteral("/feat-x");
    const QString id = r->value(QStringLiteral("sessionId")).toString();
    const QList<FakeRequest> prompts =
        f.fake.find("POST", QStringLiteral("/session/%1/prompt_async").arg(id));
    QCOMPARE(prompts.size(), 1);
    QCOMPARE(prompts.first().directory(), path);
    QCOMPARE(QUrl::fromPercentEncoding(prompts.first().headers.value("x-opencode-directory")), path);
    QCOMPARE(r->value(QStringLiteral("promptDispatched")), QJsonValue(true));
    QCOMPARE(r->value(QStringLiteral("lastAssistantMessage")).toObject().value(QStringLiteral("text")),
             QJsonValue(QStringLiteral("done")));
    // The selection was checked against the base directory
    // (docs/spec/control-service.md §5.1 step 6), before the worktree.
    const QList<FakeRequest> agents = f.fake.find("GET", QStringLiteral("/agent"));
    QVERIFY(!agents.isEmpty());
    QCOMPARE(agents.first().directory(), f.repo());
    QVERIFY(indexOf(f.fake, "GET", QStringLiteral("/agent")) <
            indexOf(f.fake, "POST", QStringLiteral("/experimental/worktree")));
    // Status polls of the wait went to the worktree's instance.
    for (const FakeRequest &status : f.fake.find("GET", QStringLiteral("/session/status")))
        QCOMPARE(status.directory(), path);
}

void tst_WorktreeCreate::waitsThroughTheBootstrap()
{
    ServiceFixture f;
    f.fake.worktreeBootstrap = std::nullopt; // the test says when it is ready
    const QString path = f.fake.worktreeRoot + QStringLiteral("/feat-x");
    int sessionsWhileBootstrapping = -1;
    hookSleeps(f, [&](int sleeps) {
        if (sleeps == 5) {
            // News of another worktree and other events are not ours.
            f.fake.emitWorktreeNews(f.fake.worktreeRoot + QStringLiteral("/other"), true);
            f.fake.emitGlobalEvent(QStringLiteral("global"),
                                   obj({{"type", "project.updated"}, {"properties", obj({{"id", "p"}})}}));
        }
        if (sleeps == 20) {
            sessionsWhileBootstrapping = f.fake.count("POST", QStringLiteral("/session"));
            f.fake.emitWorktreeNews(path, true);
        }
        return sleeps < 20; // then time stands still until the news arrives
    });
    const ControlResult r = f.run(QStringLiteral("session.create"), createInput(f));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(sessionsWhileBootstrapping, 0);
    QCOMPARE(r->value(QStringLiteral("directory")).toString(), path);
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 1);
    QVERIFY2(f.elapsedMs() >= 19 * 150, qPrintable(QString::number(f.elapsedMs()))); // 19 polls passed
    QVERIFY(f.elapsedMs() < 60000);
}

void tst_WorktreeCreate::failedBootstrapIsAnErrorWithNoSessionOrPrompt()
{
    ServiceFixture f(true); // real time: the news comes over loopback, as in life
    f.offerTypicalInstance();
    f.fake.worktreeBootstrap = false;
    const ControlResult r = f.run(QStringLiteral("session.create"),
                                  createInput(f, {{"prompt", "x"}, {"model", "mock/mock-model"}}));
    QVERIFY(!r);
    QCOMPARE(r.error().status, 500);
    QCOMPARE(r.error().message, QStringLiteral("Worktree bootstrap failed: branch already exists"));
    QCOMPARE(r.error().details.value(QStringLiteral("partialAction")).toString(),
             QStringLiteral("worktree-created"));
    QCOMPARE(r.error().details.value(QStringLiteral("directory")).toString(),
             f.fake.worktreeRoot + QStringLiteral("/feat-x"));
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 0);
    QCOMPARE(f.fake.countPrefix("POST", QStringLiteral("/session/")), 0);
    QCOMPARE(f.fake.sessions().size(), 0);
}

void tst_WorktreeCreate::bootstrapTimeoutIsAnError()
{
    ServiceFixture f;
    f.fake.worktreeBootstrap = std::nullopt;
    QElapsedTimer real;
    real.start();
    const ControlResult r = f.run(QStringLiteral("session.create"), createInput(f, {{"prompt", "x"}}));
    QVERIFY(!r);
    QCOMPARE(r.error().status, 500);
    QCOMPARE(r.error().message, QStringLiteral("Timed out waiting for the worktree bootstrap"));
    QVERIFY2(f.elapsedMs() >= 60000, qPrintable(QString::number(f.elapsedMs()))); // on the service's clock
    QVERIFY2(real.elapsed() < 30000, qPrintable(QString::number(real.elapsed())));
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 0);
}

void tst_WorktreeCreate::unknownAgentCreatesNoWorktree()
{
    ServiceFixture f;
    f.offerTypicalInstance();
    const ControlResult r =
        f.run(QStringLiteral("session.create"), createInput(f, {{"prompt", "x"}, {"agent", "not-an-agent"}}));
    QVERIFY(!r);
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().message, QStringLiteral("Unknown agent 'not-an-agent' for %1").arg(f.repo()));
    QCOMPARE(f.fake.count("POST", QStringLiteral("/experimental/worktree")), 0);
    QCOMPARE(f.fake.count("GET", QStringLiteral("/global/event")), 0);
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 0);
    QCOMPARE(f.fake.countPrefix("POST", QStringLiteral("/session/")), 0);
    QVERIFY(f.fake.worktrees.isEmpty());
}

void tst_WorktreeCreate::cancelStopsTheBootstrapWait()
{
    ServiceFixture f;
    f.fake.worktreeBootstrap = std::nullopt;
    CancelToken cancel;
    int sleeps = 0;
    hookSleeps(f, [&](int n) {
        sleeps = n;
        if (n == 3) // as Ctrl-C would: from an event of its own, between two polls
            QTimer::singleShot(0, [&cancel] { cancel.cancel(); });
        return true;
    });
    const ControlResult r = f.run(QStringLiteral("session.create"), createInput(f), {}, cancel);
    QVERIFY(!r);
    QCOMPARE(r.error().status, 499);
    QCOMPARE(r.error().message, QStringLiteral("OpenChamber action was cancelled"));
    QCOMPARE(r.error().details.value(QStringLiteral("partialAction")).toString(),
             QStringLiteral("worktree-created"));
    QTRY_COMPARE(f.fake.globalEventStreams(), 0);
    QTRY_COMPARE(f.service->runningCount(), 0);
    // A bootstrap wait left behind would go on polling (its sleeps pass at once here).
    QTest::qWait(200);
    QCOMPARE(sleeps, 3);
    f.fake.emitWorktreeNews(f.fake.worktrees.value(0), true);
    QTest::qWait(200);
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 0);
}

void tst_WorktreeCreate::worktreeInputsAreCheckedUpFront_data()
{
    QTest::addColumn<QJsonObject>("input");
    QTest::addColumn<QString>("message");
    const QString nameRequired = QStringLiteral("worktree.name is required when worktree is provided");
    QTest::newRow("empty name") << obj({{"worktree", ""}}) << nameRequired;
    QTest::newRow("blank name") << obj({{"worktree", "   "}}) << nameRequired;
    QTest::newRow("not a string") << obj({{"worktree", true}}) << nameRequired;
    QTest::newRow("branch alone") << obj({{"branch", "b"}}) << QStringLiteral("branch requires worktree");
    QTest::newRow("startRef alone") << obj({{"startRef", "main"}})
                                    << QStringLiteral("startRef requires worktree");
    QTest::newRow("setUpstream alone")
        << obj({{"setUpstream", true}}) << QStringLiteral("setUpstream requires worktree");
    QTest::newRow("branch")
        << obj({{"worktree", "w"}, {"branch", "b"}})
        << QStringLiteral(
               "branch is not supported: OpenCode names the worktree's branch opencode/<worktree>");
    QTest::newRow("startRef")
        << obj({{"worktree", "w"}, {"startRef", "main"}})
        << QStringLiteral("startRef is not supported: OpenCode starts the worktree at the repository's HEAD");
    QTest::newRow("setUpstream") << obj({{"worktree", "w"}, {"setUpstream", true}})
                                 << QStringLiteral(
                                        "setUpstream is not supported: OpenCode's worktree branch is "
                                        "local; push it with -u yourself");
}

void tst_WorktreeCreate::worktreeInputsAreCheckedUpFront()
{
    QFETCH(QJsonObject, input);
    QFETCH(QString, message);
    ServiceFixture f;
    const ControlResult r = f.run(QStringLiteral("session.create"), input, f.repo());
    QVERIFY(!r);
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().message, message);
    QCOMPARE(f.fake.requests.size(), 0);
}

void tst_WorktreeCreate::refusedWorktreeIsAUsageError()
{
    ServiceFixture f;
    const QByteArray refusal =
        R"({"name":"WorktreeNotGitError","data":{"message":"Worktrees are only supported for git projects"}})";
    f.fake.handler = [&](const FakeRequest &request) -> std::optional<FakeResponse> {
        if (request.path == QLatin1String("/experimental/worktree"))
            return FakeResponse {400, refusal, false};
        return std::nullopt;
    };
    const ControlResult r = f.run(QStringLiteral("session.create"), createInput(f));
    QVERIFY(!r);
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().message,
             QStringLiteral("worktree create failed (400): ") + QString::fromUtf8(refusal));
    QVERIFY(!r.error().details.contains(QStringLiteral("partial")));
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 0);
}

void tst_WorktreeCreate::withoutTheGlobalStreamNoWorktreeIsCreated()
{
    ServiceFixture f;
    f.fake.handler = [](const FakeRequest &request) -> std::optional<FakeResponse> {
        if (request.path == QLatin1String("/global/event"))
            return FakeResponse::json(QJsonObject {{QStringLiteral("name"), QStringLiteral("NotFoundError")}},
                                      404);
        return std::nullopt;
    };
    const ControlResult r = f.run(QStringLiteral("session.create"), createInput(f));
    QVERIFY(!r);
    QCOMPARE(r.error().status, 500);
    QVERIFY2(r.error().message.startsWith(
                 QLatin1String("OpenCode's event stream (GET /global/event) did not open")),
             qPrintable(r.error().message));
    QCOMPARE(f.fake.count("POST", QStringLiteral("/experimental/worktree")), 0);
    QCOMPARE(f.fake.count("POST", QStringLiteral("/session")), 0);
}

QTEST_GUILESS_MAIN(tst_WorktreeCreate)
#include "tst_worktreecreate.moc"
