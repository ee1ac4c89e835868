// The broker side of the control service: ControlModule's /control and /agent-tool in a real
// BrokerServer on a loopback port, over real HTTP, in front of a fake service: status codes and
// bodies, partial-result fields, the envelope, which actions an AI session may run, and
// cancellation when the client leaves (QNAM's abort and BrokerClient::abort).
#include "common/brokerapi.h"
#include "common/brokerclient.h"
#include "openchamber/controlmodule.h"
#include "tests/broker/brokerharness.h"
#include "tests/openchamber/adapters/fakecontrolservice.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

struct Fixture
{
    BrokerHarness harness;
    FakeControlService *service = nullptr;
    std::shared_ptr<ControlModule> module;

    Fixture()
    {
        auto fake = std::make_unique<FakeControlService>();
        service = fake.get();
        module = std::make_shared<ControlModule>(std::make_unique<FakeBackend>(std::move(fake)));
        harness.server().addModule(module);
    }
};

QJsonObject control(const QString &action, const QJsonObject &input = {})
{
    return {{QStringLiteral("action"), action}, {QStringLiteral("input"), input}};
}

QJsonObject agentTool(const QJsonObject &input, const QString &context = QStringLiteral("/work/a"))
{
    return {{QStringLiteral("input"), input},
            {QStringLiteral("contextDirectory"), context},
            {QStringLiteral("tool"), QStringLiteral("openchamber")}};
}

const QJsonObject kForkDetails {{QStringLiteral("partial"), true},
                                {QStringLiteral("partialAction"), QStringLiteral("fork-created")},
                                {QStringLiteral("sessionId"), QStringLiteral("ses_fork")},
                                {QStringLiteral("directory"), QStringLiteral("/repo")},
                                {QStringLiteral("internal"), QStringLiteral("not for the client")}};

} // namespace

class tst_ControlRoutes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void controlAnswersTheResultVerbatim()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        const QJsonObject result {{QStringLiteral("sessionId"), QStringLiteral("ses_1")},
                                  {QStringLiteral("promptDispatched"), true}};
        f.service->next = result;
        const auto r = f.harness.post(QStringLiteral("/control"),
                                      control(QStringLiteral("session.create"),
                                              {{QStringLiteral("directory"), QStringLiteral("/repo")}}));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object(), result);
        QCOMPARE(f.service->calls->size(), 1);
        const auto &call = *f.service->calls->first();
        QCOMPARE(call.action, QStringLiteral("session.create"));
        QCOMPARE(call.input.value(QStringLiteral("directory")).toString(), QStringLiteral("/repo"));
        QVERIFY(call.contextDirectory.isEmpty());
    }

    void controlReadsBadShapesLeniently()
    {
        // docs/spec/control-service.md §2.1: a non-string action is "", a non-object input is {}.
        Fixture f;
        QVERIFY(f.harness.start());
        const auto r =
            f.harness.post(QStringLiteral("/control"),
                           {{QStringLiteral("action"), 42}, {QStringLiteral("input"), QJsonArray {1}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(f.service->calls->first()->action, QString());
        QCOMPARE(f.service->calls->first()->input, QJsonObject());
    }

    void controlKeepsStatusAndPartialFields_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QJsonObject>("details");
        QTest::addColumn<QJsonObject>("expected");
        QTest::newRow("400") << 400 << QJsonObject()
                             << QJsonObject {{QStringLiteral("error"), QStringLiteral("boom")}};
        QTest::newRow("404") << 404 << QJsonObject()
                             << QJsonObject {{QStringLiteral("error"), QStringLiteral("boom")}};
        QTest::newRow("409") << 409 << QJsonObject()
                             << QJsonObject {{QStringLiteral("error"), QStringLiteral("boom")}};
        QTest::newRow("500 partial") << 500 << kForkDetails
                                     << QJsonObject {
                                            {QStringLiteral("error"), QStringLiteral("boom")},
                                            {QStringLiteral("partial"), true},
                                            {QStringLiteral("partialAction"), QStringLiteral("fork-created")},
                                            {QStringLiteral("sessionId"), QStringLiteral("ses_fork")},
                                            {QStringLiteral("directory"), QStringLiteral("/repo")}};
        // Partial fields only when partial is true (docs/spec/control-service.md §2.1).
        QTest::newRow("details without partial")
            << 500 << QJsonObject {{QStringLiteral("sessionId"), QStringLiteral("x")}}
            << QJsonObject {{QStringLiteral("error"), QStringLiteral("boom")}};
        // A status outside 4xx/5xx is a service bug; the client still reads a failure.
        QTest::newRow("bogus 200") << 200 << QJsonObject()
                                   << QJsonObject {{QStringLiteral("error"), QStringLiteral("boom")}};
    }
    void controlKeepsStatusAndPartialFields()
    {
        QFETCH(int, status);
        QFETCH(QJsonObject, details);
        QFETCH(QJsonObject, expected);
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->next = std::unexpected(ControlError {status, QStringLiteral("boom"), details});
        const auto r = f.harness.post(QStringLiteral("/control"), control(QStringLiteral("session.fork")));
        QCOMPARE(r.status, status == 200 ? 500 : status);
        QCOMPARE(r.object(), expected);
    }

    void controlNeedsTheMainToken()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        const RegisteredPeer peer = f.harness.registerPeer();
        QCOMPARE(
            f.harness.post(QStringLiteral("/control"), control(QStringLiteral("projects.list")), QByteArray())
                .status,
            401);
        QCOMPARE(
            f.harness.post(QStringLiteral("/control"), control(QStringLiteral("projects.list")), peer.secret)
                .status,
            403);
        QVERIFY(f.service->calls->isEmpty());
    }

    void bodiesOverOneMegabyteAreRefused()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        const QJsonObject big = control(QStringLiteral("session.send"),
                                        {{QStringLiteral("prompt"), QString(1024 * 1024, QLatin1Char('x'))}});
        for (const char *path : {"/control", "/agent-tool"}) {
            const auto r = f.harness.post(QLatin1String(path), big);
            QCOMPARE(r.status, 413);
        }
        QVERIFY(f.service->calls->isEmpty());
    }

    void clientLeavingCancelsTheAction()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->hold = true;
        QNetworkReply *reply = f.harness.postAsync(
            QStringLiteral("/control"),
            control(QStringLiteral("session.create"), {{QStringLiteral("wait"), true}}), f.harness.token());
        QTRY_COMPARE_WITH_TIMEOUT(f.service->calls->size(), 1, TestSupport::scaled(5000));
        QCOMPARE(f.module->actionsInFlight(), 1);
        QVERIFY(!f.service->calls->first()->cancelled);
        reply->abort();
        QTRY_VERIFY_WITH_TIMEOUT(f.service->calls->first()->cancelled, TestSupport::scaled(5000));
        QCOMPARE(f.module->actionsInFlight(), 0);
        // The broker still serves.
        f.service->hold = false;
        QCOMPARE(f.harness.post(QStringLiteral("/control"), control(QStringLiteral("models.list"))).status,
                 200);
    }

    void brokerClientAbortCancelsTheAction()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->hold = true;
        Broker::Location location = Broker::Location::fromEnvironment(f.harness.home().environment());
        location.port = f.harness.port();
        Broker::BrokerClient client(location);
        client.setToken(f.harness.token());
        bool called = false;
        const quint64 id = Broker::BrokerApi(client).callAlone(
            Broker::ControlRequest {QStringLiteral("session.send"), {}, {}},
            [&called](Broker::Result<Broker::ControlAnswer>) { called = true; }, 60000);
        // Other requests do not queue behind the held one.
        bool healthy = false;
        Broker::BrokerApi(client).health(
            [&healthy](Broker::Result<Broker::HealthAnswer> h) { healthy = bool(h); });
        QTRY_VERIFY_WITH_TIMEOUT(healthy, TestSupport::scaled(5000));
        QTRY_COMPARE_WITH_TIMEOUT(f.service->calls->size(), 1, TestSupport::scaled(5000));
        client.abort(id);
        QTRY_VERIFY_WITH_TIMEOUT(f.service->calls->first()->cancelled, TestSupport::scaled(5000));
        QCOMPARE(client.pendingCount(), 0);
        QTest::qWait(50);
        QVERIFY(!called);
    }

    void stoppingTheBrokerCancelsActionsInFlight()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->hold = true;
        f.harness.postAsync(QStringLiteral("/control"), control(QStringLiteral("session.create")),
                            f.harness.token());
        QTRY_COMPARE_WITH_TIMEOUT(f.service->calls->size(), 1, TestSupport::scaled(5000));
        const auto call = f.service->calls->first();
        f.harness.server().stop();
        QVERIFY(call->cancelled);
        QCOMPARE(f.module->service(), nullptr);
    }

    void agentToolAnswersTheEnvelope()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        const RegisteredPeer peer = f.harness.registerPeer(QStringLiteral("/work/a"));
        const QJsonObject result {{QStringLiteral("sessionId"), QStringLiteral("ses_1")}};
        f.service->next = result;
        const auto r = f.harness.post(QStringLiteral("/agent-tool"),
                                      agentTool({{QStringLiteral("action"), QStringLiteral("session.create")},
                                                 {QStringLiteral("prompt"), QStringLiteral("hi")}}),
                                      peer.secret);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.object(),
                 (QJsonObject {{QStringLiteral("schemaVersion"), 1},
                               {QStringLiteral("ok"), true},
                               {QStringLiteral("action"), QStringLiteral("session.create")},
                               {QStringLiteral("data"), result}}));
        const auto &call = *f.service->calls->first();
        QCOMPARE(call.action, QStringLiteral("session.create"));
        QCOMPARE(call.contextDirectory, QStringLiteral("/work/a"));
        QCOMPARE(call.input.value(QStringLiteral("prompt")).toString(), QStringLiteral("hi"));
        QCOMPARE(call.input.value(QStringLiteral("action")).toString(), QStringLiteral("session.create"));
    }

    void agentToolFailuresAreEnvelopes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("kind");
        QTest::newRow("400 usage") << 400 << QStringLiteral("usage");
        QTest::newRow("404 usage") << 404 << QStringLiteral("usage");
        QTest::newRow("409 usage") << 409 << QStringLiteral("usage");
        QTest::newRow("499 runtime") << 499 << QStringLiteral("runtime");
        QTest::newRow("500 runtime") << 500 << QStringLiteral("runtime");
    }
    void agentToolFailuresAreEnvelopes()
    {
        QFETCH(int, status);
        QFETCH(QString, kind);
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->next =
            std::unexpected(ControlError {status, QStringLiteral("Task not found"), kForkDetails});
        const auto r =
            f.harness.post(QStringLiteral("/agent-tool"),
                           agentTool({{QStringLiteral("action"), QStringLiteral("session.fork")}}));
        QCOMPARE(r.status, 200);
        const QJsonObject e = r.object();
        QCOMPARE(e.value(QStringLiteral("schemaVersion")).toInt(), 1);
        QCOMPARE(e.value(QStringLiteral("ok")).toBool(true), false);
        QCOMPARE(e.value(QStringLiteral("action")).toString(), QStringLiteral("session.fork"));
        QCOMPARE(e.value(QStringLiteral("error")).toObject(),
                 (QJsonObject {{QStringLiteral("message"), QStringLiteral("Task not found")},
                               {QStringLiteral("kind"), kind}}));
        QCOMPARE(e.value(QStringLiteral("data")).toObject().value(QStringLiteral("sessionId")).toString(),
                 QStringLiteral("ses_fork"));
        QVERIFY(!e.value(QStringLiteral("data")).toObject().contains(QStringLiteral("internal")));
    }

    void agentToolRunsOnlyExposedActions_data()
    {
        QTest::addColumn<QString>("requested");
        QTest::addColumn<QString>("runs"); // empty: refused
        QTest::newRow("full name") << QStringLiteral("session.messages")
                                   << QStringLiteral("session.messages");
        QTest::newRow("bare unique") << QStringLiteral("toggle") << QStringLiteral("schedule.toggle");
        QTest::newRow("bare status: schedule.status is not exposed")
            << QStringLiteral("status") << QStringLiteral("session.status");
        QTest::newRow("CLI only") << QStringLiteral("schedule.status") << QString();
        QTest::newRow("deletion") << QStringLiteral("session.delete") << QString();
        QTest::newRow("ambiguous") << QStringLiteral("list") << QString();
        QTest::newRow("missing") << QString() << QString();
    }
    void agentToolRunsOnlyExposedActions()
    {
        QFETCH(QString, requested);
        QFETCH(QString, runs);
        Fixture f;
        QVERIFY(f.harness.start());
        QJsonObject input;
        if (!requested.isEmpty())
            input.insert(QStringLiteral("action"), requested);
        const QJsonObject e = f.harness.post(QStringLiteral("/agent-tool"), agentTool(input)).object();
        if (runs.isEmpty()) {
            QVERIFY(f.service->calls->isEmpty());
            QCOMPARE(e.value(QStringLiteral("ok")).toBool(true), false);
            const QJsonObject error = e.value(QStringLiteral("error")).toObject();
            QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("usage"));
            const QString message = error.value(QStringLiteral("message")).toString();
            QVERIFY2(message.startsWith(QStringLiteral("Unsupported OpenChamber action: ") +
                                        (requested.isEmpty() ? QStringLiteral("missing") : requested)),
                     qPrintable(message));
            const QString offered = message.section(QStringLiteral(". Use one of: "), 1);
            QVERIFY2(offered.contains(QStringLiteral("session.create")) &&
                         !offered.contains(QStringLiteral("schedule.status")),
                     qPrintable(message));
        } else {
            QCOMPARE(f.service->calls->size(), 1);
            QCOMPARE(f.service->calls->first()->action, runs);
            QCOMPARE(e.value(QStringLiteral("action")).toString(), runs);
            QCOMPARE(e.value(QStringLiteral("ok")).toBool(), true);
        }
    }

    void agentToolNeedsACredential()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        const auto r = f.harness.post(
            QStringLiteral("/agent-tool"),
            agentTool({{QStringLiteral("action"), QStringLiteral("projects.list")}}), QByteArray());
        QCOMPARE(r.status, 401);
        QVERIFY(f.service->calls->isEmpty());
    }

    void agentToolClientLeavingCancels()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        const RegisteredPeer peer = f.harness.registerPeer();
        f.service->hold = true;
        QNetworkReply *reply =
            f.harness.postAsync(QStringLiteral("/agent-tool"),
                                agentTool({{QStringLiteral("action"), QStringLiteral("session.messages")},
                                           {QStringLiteral("wait"), true}}),
                                peer.secret);
        QTRY_COMPARE_WITH_TIMEOUT(f.service->calls->size(), 1, TestSupport::scaled(5000));
        reply->abort();
        QTRY_VERIFY_WITH_TIMEOUT(f.service->calls->first()->cancelled, TestSupport::scaled(5000));
    }

    void laterAnswerReachesTheClient()
    {
        Fixture f;
        QVERIFY(f.harness.start());
        f.service->hold = true;
        QNetworkReply *reply = f.harness.postAsync(
            QStringLiteral("/control"), control(QStringLiteral("session.create")), f.harness.token());
        QTRY_COMPARE_WITH_TIMEOUT(f.service->calls->size(), 1, TestSupport::scaled(5000));
        FakeControlService::answerHeld(*f.service->calls->first(),
                                       QJsonObject {{QStringLiteral("late"), true}});
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), TestSupport::scaled(5000));
        QCOMPARE(BrokerHarness::replyStatus(reply), 200);
        QCOMPARE(BrokerHarness::replyObject(reply), (QJsonObject {{QStringLiteral("late"), true}}));
        QVERIFY(!f.service->calls->first()->cancelled);
    }
};

QTEST_GUILESS_MAIN(tst_ControlRoutes)
#include "tst_controlroutes.moc"
