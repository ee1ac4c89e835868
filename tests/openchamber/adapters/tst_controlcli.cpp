// The CLI's control commands in-process (in-memory streams) against a real broker with the
// ControlModule and a fake service: what reaches the service, the exit codes of the contract
// (0 ok, 2 invalid, 1 failed), --json, -q, partial results, and Ctrl-C cancelling the wait.
#include "app/cli/command.h"
#include "app/cli/context.h"
#include "openchamber/controlmodule.h"
#include "tests/broker/brokerharness.h"
#include "tests/openchamber/adapters/fakecontrolservice.h"

#include <QBuffer>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

struct CliRun
{
    int code = -1;
    QString out;
    QString err;
};

class Fixture
{
public:
    BrokerHarness harness;
    FakeControlService *service = nullptr;

    Fixture()
    {
        auto fake = std::make_unique<FakeControlService>();
        service = fake.get();
        harness.server().addModule(
            std::make_shared<ControlModule>(std::make_unique<FakeBackend>(std::move(fake))));
    }

    QProcessEnvironment environment()
    {
        QProcessEnvironment env = harness.home().environment();
        env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(harness.port()));
        return env;
    }

    // Runs one command line; whileRunning (if given) runs once the command started.
    CliRun run(const QStringList &args, const std::function<void(Cli::Context &)> &whileRunning = {})
    {
        QBuffer out, err;
        out.open(QIODevice::WriteOnly);
        err.open(QIODevice::WriteOnly);
        Cli::Context context(environment(), &out, &err, u"/cwd"_s);
        QSignalSpy finished(&context, &Cli::Context::finished);
        Cli::dispatch(context, args);
        if (whileRunning)
            whileRunning(context);
        CliRun r;
        if (finished.isEmpty() && !finished.wait(TestSupport::scaled(10000)))
            return r;
        r.code = finished.first().first().toInt();
        r.out = QString::fromUtf8(out.data());
        r.err = QString::fromUtf8(err.data());
        return r;
    }
};

} // namespace

class tst_ControlCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void createSendsOneActionAndPrintsTheResult()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        const QJsonObject result {{u"sessionId"_s, u"ses_1"_s},
                                  {u"directory"_s, u"/repo"_s},
                                  {u"promptDispatched"_s, true},
                                  {u"dispatchedAsCommand"_s, false},
                                  {u"sessionStatus"_s, QJsonObject {{u"type"_s, u"idle"_s}}},
                                  {u"lastAssistantMessage"_s, QJsonObject {{u"text"_s, u"Hi there"_s}}}};
        f.service->next = result;
        const CliRun r = f.run({u"session"_s, u"create"_s, u"--dir"_s, u"repo"_s, u"--prompt"_s, u"hello"_s,
                                u"--wait"_s, u"--last-assistant"_s});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(u"Created session ses_1 (/repo)"_s), qPrintable(r.out));
        QVERIFY(r.out.contains(u"Hi there"_s));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err)); // no progress: stderr is not a terminal
        QCOMPARE(f.service->calls->size(), 1);
        const auto &call = *f.service->calls->first();
        QCOMPARE(call.action, u"session.create"_s);
        QCOMPARE(call.input,
                 (QJsonObject {{u"directory"_s, u"/cwd/repo"_s},
                               {u"prompt"_s, u"hello"_s},
                               {u"wait"_s, true},
                               {u"lastAssistant"_s, true}}));
        QVERIFY(call.contextDirectory.isEmpty()); // the CLI never sends one

        const CliRun json = f.run({u"session"_s, u"create"_s, u"--dir"_s, u"/repo"_s, u"--json"_s});
        QCOMPARE(json.code, 0);
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object(), result);

        const CliRun quiet = f.run({u"session"_s, u"create"_s, u"--dir"_s, u"/repo"_s, u"--wait"_s, u"-q"_s});
        QCOMPARE(quiet.code, 0);
        QCOMPARE(quiet.out, u"Hi there\n"_s);
    }

    void exitCodes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("code");
        QTest::newRow("400") << 400 << 2;
        QTest::newRow("404") << 404 << 2;
        QTest::newRow("409") << 409 << 1;
        QTest::newRow("499") << 499 << 1;
        QTest::newRow("500") << 500 << 1;
    }
    void exitCodes()
    {
        QFETCH(int, status);
        QFETCH(int, code);
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->next = std::unexpected(ControlError {status, u"Unknown agent 'nope' for /repo"_s, {}});
        const CliRun r = f.run({u"session"_s, u"create"_s, u"--dir"_s, u"/repo"_s, u"--agent"_s, u"nope"_s,
                                u"--prompt"_s, u"x"_s});
        QCOMPARE(r.code, code);
        QCOMPARE(r.err, u"Error: Unknown agent 'nope' for /repo\n"_s);
        QVERIFY(r.out.isEmpty());
    }

    void usageErrorsExitTwoWithoutARequest()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        for (const QStringList &args :
             {QStringList {u"session"_s, u"create"_s}, QStringList {u"session"_s, u"create"_s, u"--bogus"_s},
              QStringList {u"session"_s}, QStringList {u"schedule"_s, u"explode"_s},
              QStringList {u"session"_s, u"create"_s, u"--dir"_s, u"a"_s, u"--model"_s, u"nope"_s}}) {
            const CliRun r = f.run(args);
            QVERIFY2(r.code == 2, qPrintable(args.join(u' ') + u" → "_s + QString::number(r.code)));
            QVERIFY(r.err.contains(u"Usage: claude-peers "_s));
        }
        QVERIFY(f.service->calls->isEmpty());
    }

    void partialResultIsReported()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->next = std::unexpected(ControlError {500, u"prompt_async failed (500)"_s,
                                                        QJsonObject {{u"partial"_s, true},
                                                                     {u"partialAction"_s, u"fork-created"_s},
                                                                     {u"sessionId"_s, u"ses_fork"_s},
                                                                     {u"directory"_s, u"/repo"_s}}});
        const CliRun r = f.run({u"session"_s, u"fork"_s, u"--session"_s, u"ses_1"_s, u"--dir"_s, u"/repo"_s,
                                u"--prompt"_s, u"go"_s, u"--json"_s});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err,
                 u"Error: prompt_async failed (500) Forked session ses_fork remains available in /repo.\n"_s);
        const QJsonObject body = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(body.value(u"sessionId"_s).toString(), u"ses_fork"_s);
        QCOMPARE(body.value(u"error"_s).toString(), u"prompt_async failed (500)"_s);
    }

    void interruptCancelsTheWait()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->hold = true;
        const CliRun r =
            f.run({u"session"_s, u"messages"_s, u"--session"_s, u"s"_s, u"--dir"_s, u"/r"_s, u"--wait"_s},
                  [&f](Cli::Context &context) {
                      QTRY_COMPARE_WITH_TIMEOUT(f.service->calls->size(), 1, TestSupport::scaled(5000));
                      context.interrupt();
                  });
        QCOMPARE(r.code, 130);
        QVERIFY2(r.err.contains(u"Interrupted: session.messages was cancelled."_s), qPrintable(r.err));
        QTRY_VERIFY_WITH_TIMEOUT(f.service->calls->first()->cancelled, TestSupport::scaled(5000));
    }

    void brokerDownExitsOne()
    {
        Fixture f; // never started
        QProcessEnvironment env = f.harness.home().environment();
        env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(TestSupport::freePort()));
        QBuffer out, err;
        out.open(QIODevice::WriteOnly);
        err.open(QIODevice::WriteOnly);
        Cli::Context context(env, &out, &err, u"/cwd"_s);
        QSignalSpy finished(&context, &Cli::Context::finished);
        Cli::dispatch(context, {u"projects"_s});
        QVERIFY(finished.wait(TestSupport::scaled(10000)));
        QCOMPARE(finished.first().first().toInt(), 1);
        QVERIFY2(QString::fromUtf8(err.data()).contains(u"Broker not reachable"_s), err.data().constData());
    }
};

QTEST_GUILESS_MAIN(tst_ControlCli)
#include "tst_controlcli.moc"
