// A screenshot of every page of the main window with realistic data, taken under Xvfb (ctest
// runs this test through xvfb-run when it is installed). The real TrayComposition hosts the
// broker in a temp HOME as the machine "workstation", federation on; around it:
// - Claude Code sessions on this machine (live processes; names, summaries, attention, push),
//   their conversation, and a thread whose messages were acked, pushed, and bounced when its
//   session ended; the operator's own thread;
// - a second real broker, "build-box", paired over TLS on loopback, with its own sessions (the
//   Peers page groups them by machine), and a third, "laptop", whose pairing request is pending;
// - the fake OpenCode server of tests/openchamber behind the control service: sessions (busy,
//   waiting for a permission, idle with an answer) and schedules (one ran, one failed);
// - messages flowing while the Status page is shown, so that it has rates.
// Each page is grabbed once its seeded items are in its model. The images go to
// $PEERS_SCREENSHOT_DIR, else to screenshots/ in the test's working directory. To refresh the
// ones the README and the AppStream file show:
//   PEERS_SCREENSHOT_DIR=$PWD/docs/screenshots ctest --test-dir build-test -R tst_screenshots
#include "app/tray/brokerhost.h"
#include "app/tray/mainwindow.h"
#include "app/tray/notifications/notificationlistmodel.h"
#include "app/tray/notifications/notifier.h"
#include "app/tray/operatorpeer.h"
#include "app/tray/pages/federationmodels.h"
#include "app/tray/pages/federationpage.h"
#include "app/tray/pages/federationpresenter.h"
#include "app/tray/pages/messagelog.h"
#include "app/tray/pages/messagespage.h"
#include "app/tray/pages/messagethreads.h"
#include "app/tray/pages/peerspage.h"
#include "app/tray/pages/schedulesmodel.h"
#include "app/tray/pages/schedulespage.h"
#include "app/tray/pages/schedulespresenter.h"
#include "app/tray/pages/sessionsmodel.h"
#include "app/tray/pages/sessionspage.h"
#include "app/tray/pages/sessionspresenter.h"
#include "app/tray/pages/settingspage.h"
#include "app/tray/pages/statuspage.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traycomposition.h"
#include "openchamber/opencodeclient.h"
#include "tests/federation/federationmachine.h"
#include "tests/openchamber/fakeopencode.h"
#include "tests/openchamber/servicefixture.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QPixmap>
#include <QProcess>
#include <QSet>
#include <QTest>
#include <QTimer>

#include <memory>
#include <vector>

using App::BrokerHost;
using App::TrayComposition;
using FederationTest::FederationMachine;
using TestSupport::scaled;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kPskWorkstation =
    QByteArrayLiteral("c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3");
const QByteArray kPskBuildBox =
    QByteArrayLiteral("d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4");
const QByteArray kPskLaptop =
    QByteArrayLiteral("e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5");

struct Session
{
    const char *project; // under the machine's $HOME/src
    const char *name;
    const char *summary;
    bool push;
    Broker::Attention state;
    const char *stateMessage;
};

// What a user's machine looks like on a working day.
const Session kLocalSessions[] = {
    {"shop-api", "api-refactor", "[shop-api:auth-tokens] Moving token checks into middleware; tests green",
     true, Broker::Attention::Busy, ""},
    {"shop-api", "reviewer", "[shop-api:main] Reviewing PR #212 (rate limits)", true,
     Broker::Attention::NeedsYou, "Claude needs your permission to use Bash"},
    {"shop-web", "checkout-ui", "[shop-web:checkout] Checkout form validation and error states", true,
     Broker::Attention::Idle, ""},
    {"infra", "db-migrations", "[infra:main] Postgres 16 upgrade plan, dry run on staging", false,
     Broker::Attention::Unknown, ""},
};
enum LocalPeer { ApiRefactor, Reviewer, CheckoutUi, DbMigrations };

// The build machine in the next room, paired with this one.
const Session kRemoteSessions[] = {
    {"shop-api", "ci-flakes", "[shop-api:ci] Chasing the flaky checkout test (3 of 50 runs fail)", true,
     Broker::Attention::Busy, ""},
    {"shop-web", "e2e-runner", "[shop-web:main] Playwright suite against staging, 212/240 passed", true,
     Broker::Attention::Idle, ""},
};

// A session that ends while a message to it is still unread: the broker bounces it.
const Session kEndingSession = {"shop-web", "docs-writer",           "[shop-web:docs] Updating the API guide",
                                false,      Broker::Attention::Idle, ""};

struct Peer
{
    QString id;
    QByteArray secret;
    QString name;
    quint16 port = 0; // of its broker
};

// The number of distinct colours in a sample of the image: a blank or one-colour page has 1-2.
int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    }
    return int(colours.size());
}

bool writeFile(const QString &path, const QByteArray &bytes, QFile::Permissions permissions)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return false;
    file.close();
    return file.setPermissions(permissions);
}

QString projectPath(const TestSupport::TestHome &home, const char *project)
{
    return home.path() + QStringLiteral("/src/") + QLatin1String(project);
}

} // namespace

class tst_Screenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setApplicationName(u"claude-peers-tray"_s);
        QApplication::setApplicationVersion(QStringLiteral(PEERS_VERSION));
    }

    void cleanup()
    {
        m_flow.reset();
        m_heartbeats.reset();
        m_tray.reset();
        for (const auto &process : m_processes) {
            process->kill();
            process->waitForFinished(scaled(5000));
        }
        m_processes.clear();
        m_processOf.clear();
        m_alive.clear();
        m_local.clear();
        m_remote.clear();
        m_remoteNames.clear();
        m_buildBox.reset();
        m_laptop.reset();
        m_openCode.reset();
        m_home.reset();
    }

    void everyPageWithRealisticData()
    {
        keepSessionsAlive();
        int done = 0;
        // The other machines start first: their brokers take the environment as it is then,
        // before this process's is aimed at the tray's home.
        for (auto step : {&tst_Screenshots::startOtherMachines, &tst_Screenshots::startTray,
                          &tst_Screenshots::seedLocalSessions, &tst_Screenshots::seedRemoteSessions,
                          &tst_Screenshots::pairWithBuildBox, &tst_Screenshots::seedPendingPairingRequest,
                          &tst_Screenshots::seedConversation, &tst_Screenshots::seedCrossMachineMessage,
                          &tst_Screenshots::seedBouncedThread, &tst_Screenshots::seedOperatorThread,
                          &tst_Screenshots::seedOpenCodeSessions, &tst_Screenshots::seedSchedules}) {
            QElapsedTimer took;
            took.start();
            (this->*step)();
            if (QTest::currentTestFailed())
                return;
            qInfo().noquote() << "step" << ++done << "took" << took.elapsed() << "ms";
        }
        grabEveryPage();
    }

private:
    // ---- set-up ----

    void startOtherMachines()
    {
        m_buildBox = std::make_unique<FederationMachine>();
        m_laptop = std::make_unique<FederationMachine>();
        for (const auto &[machine, name, psk] : {std::tuple {m_buildBox.get(), u"build-box"_s, kPskBuildBox},
                                                 std::tuple {m_laptop.get(), u"laptop"_s, kPskLaptop}}) {
            machine->postTimeoutMs = 20000;
            QVERIFY(machine->prepare(name, psk));
            QVERIFY(machine->start(machine->federationEnvironment()));
            QVERIFY(machine->waitForFederation(
                [](const QJsonObject &status) { return status.contains(u"fingerprint"); }));
        }
    }

    // This machine: federation on in the config (as `claude-peers federation enable` leaves it),
    // two OpenCode projects, OpenCode at the fake server's address.
    void startTray()
    {
        m_home = std::make_unique<TestSupport::TestHome>();
        m_openCode = std::make_unique<OpenChamberTest::FakeOpenCode>();
        m_openCode->agents = {OpenChamberTest::agent(u"build"_s), OpenChamberTest::agent(u"review"_s)};
        m_openCode->providers = {OpenChamberTest::provider(
            u"anthropic"_s, {{u"claude-sonnet-4-5"_s, QJsonObject {{u"id"_s, u"claude-sonnet-4-5"_s}}}})};
        m_openCode->replyText = u"Audit done: 2 outdated packages, no known vulnerabilities."_s;
        m_federationPort = TestSupport::freePort();

        QJsonArray projects;
        for (const char *project : {"shop-api", "shop-web"}) {
            QVERIFY(QDir().mkpath(projectPath(*m_home, project)));
            projects.append(QJsonObject {{u"id"_s, QLatin1String(project)},
                                         {u"path"_s, projectPath(*m_home, project)},
                                         {u"label"_s, QLatin1String(project)}});
        }
        const QJsonObject config {{u"federation"_s,
                                   QJsonObject {{u"enabled"_s, true},
                                                {u"port"_s, m_federationPort},
                                                {u"subnets"_s, QJsonArray {u"127.0.0.0/8"_s}},
                                                {u"mdns"_s, QJsonObject {{u"enabled"_s, false}}}}},
                                  {u"openchamber"_s,
                                   QJsonObject {{u"projects"_s, projects},
                                                {u"default_model"_s, u"anthropic/claude-sonnet-4-5"_s},
                                                {u"default_agent"_s, u"build"_s}}}};
        QVERIFY(writeFile(m_home->configPath(), QJsonDocument(config).toJson(),
                          QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(writeFile(m_home->path() + u"/.claude-peers-federation-psk"_s, kPskWorkstation + '\n',
                          QFile::ReadOwner | QFile::WriteOwner));

        QProcessEnvironment env = m_home->environment();
        env.insert(u"CLAUDE_PEERS_FEDERATION_HOSTNAME"_s, u"workstation"_s);
        env.insert(OpenChamber::OpenCodeClient::UrlEnvironmentVariable, m_openCode->url().toString());
        for (const QString &key : env.keys())
            qputenv(key.toLocal8Bit(), env.value(key).toLocal8Bit()); // the tray's broker reads them

        m_tray = std::make_unique<TrayComposition>(TrayTestSupport::settingsFor(*m_home));
        m_tray->start();
        QTRY_COMPARE_WITH_TIMEOUT(m_tray->host()->state(), BrokerHost::State::Running, scaled(10000));
        QVERIFY(QTest::qWaitFor(
            [&] {
                return TestSupport::httpGet(m_home->port(), u"/federation/status"_s)
                    .object()
                    .contains(u"fingerprint");
            },
            scaled(15000)));
        QTRY_VERIFY_WITH_TIMEOUT(m_tray->operatorPeer()->isOnline(), scaled(10000));
    }

    // ---- the broker's side: sessions, machines, messages ----

    // A live process stands for the session (the broker prunes peers whose pid is gone).
    Peer registerSession(quint16 port, const QByteArray &token, const QString &home, const Session &session)
    {
        auto process = std::make_unique<QProcess>();
        process->start(u"sleep"_s, {u"600"_s});
        if (!process->waitForStarted())
            return {};
        const QString cwd = home + u"/src/"_s + QLatin1String(session.project);
        QDir().mkpath(cwd);
        Broker::RegisterRequest request;
        request.pid = process->processId();
        request.cwd = cwd;
        request.gitRoot = cwd;
        request.sessionName = QLatin1String(session.name);
        request.summary = QLatin1String(session.summary);
        request.client = u"claude-code"_s;
        const auto answer =
            TestSupport::httpPostJson(port, QLatin1String(request.path), request.toJson(), token);
        const auto registered = Broker::RegisterAnswer::fromJson(answer.object());
        if (answer.status != 200 || !registered)
            return {};
        const Peer peer {registered->id, registered->sessionSecret.toUtf8(), request.sessionName, port};
        m_alive.append(peer);
        m_processOf.insert(peer.id, process.get());
        m_processes.push_back(std::move(process));
        if (session.push) {
            Broker::SetChannelPushRequest push;
            push.id = peer.id;
            push.status = u"working"_s;
            if (TestSupport::httpPostJson(port, QLatin1String(push.path), push.toJson(), peer.secret)
                    .status != 200)
                return {};
        }
        if (session.state != Broker::Attention::Unknown) {
            Broker::SetAttentionRequest attention;
            attention.id = peer.id;
            attention.state = session.state;
            attention.message = QLatin1String(session.stateMessage);
            if (TestSupport::httpPostJson(port, QLatin1String(attention.path), attention.toJson(),
                                          peer.secret)
                    .status != 200)
                return {};
        }
        return peer;
    }

    void seedLocalSessions()
    {
        for (const Session &session : kLocalSessions) {
            m_local.append(registerSession(m_home->port(), m_home->token(), m_home->path(), session));
            QVERIFY2(!m_local.last().id.isEmpty(), session.name);
        }
    }

    void seedRemoteSessions()
    {
        for (const Session &session : kRemoteSessions) {
            const Peer peer = registerSession(m_buildBox->home.port(), m_buildBox->home.token(),
                                              m_buildBox->home.path(), session);
            QVERIFY2(!peer.id.isEmpty(), session.name);
            m_remote.append(peer);
            m_remoteNames.append(peer.name);
        }
    }

    // The build box pairs as `claude-peers federation join` does: it proves a code this machine
    // made, this machine accepts, the build box confirms; then this machine reaches back and
    // lists the build box's sessions.
    void pairWithBuildBox()
    {
        const QString id = askToPair(*m_buildBox);
        QVERIFY(!id.isEmpty());
        const QJsonObject accepted = post(u"/federation/accept"_s, {{u"id"_s, id}}).object();
        QVERIFY2(accepted.value(u"ok").toBool(), QJsonDocument(accepted).toJson().constData());
        const QJsonObject confirmed =
            m_buildBox->post(u"/federation/pair/confirm"_s, {{u"id"_s, id}, {u"wait_ms"_s, scaled(10000)}})
                .object();
        QVERIFY2(confirmed.value(u"ok").toBool(), QJsonDocument(confirmed).toJson().constData());
        // This machine reached back and has the build box's sessions.
        QTRY_COMPARE_WITH_TIMEOUT(TestSupport::httpGet(m_home->port(), u"/metrics"_s)
                                      .object()
                                      .value(u"federation")
                                      .toObject()
                                      .value(u"remote_peer_count")
                                      .toInt(),
                                  int(m_remoteNames.size()), scaled(20000));
    }

    // The laptop asks to pair and waits for this machine's answer: the Federation page's card.
    void seedPendingPairingRequest()
    {
        m_pendingRequestId = askToPair(*m_laptop);
        QVERIFY(!m_pendingRequestId.isEmpty());
    }

    // The local sessions talk; most messages were read (acked), some only fetched (pushed).
    void seedConversation()
    {
        const struct
        {
            LocalPeer from, to;
            const char *text;
        } conversation[] = {
            {ApiRefactor, Reviewer,
             "Token checks now live in AuthMiddleware. Can you look at the rate-limit PR against it?"},
            {Reviewer, ApiRefactor,
             "On it. The limiter reads the user id from the token: I'll rebase onto "
             "your branch."},
            {CheckoutUi, ApiRefactor,
             "Does /checkout still accept the old session cookie, or only bearer "
             "tokens now?"},
            {ApiRefactor, CheckoutUi, "Both until Friday; the cookie path logs a deprecation warning."},
            {DbMigrations, Reviewer,
             "Staging dry run done: 14 min downtime. Migration notes are in "
             "infra/PG16.md."},
        };
        for (const auto &line : conversation)
            QVERIFY(send(m_local.at(line.from), m_local.at(line.to).id, QLatin1String(line.text)) > 0);
        QVERIFY(receive(m_local.at(Reviewer), true));
        QVERIFY(receive(m_local.at(ApiRefactor), true));
        QVERIFY(receive(m_local.at(CheckoutUi), false)); // fetched, not read yet
    }

    // A session on the build box writes to one here: relayed over the federation link.
    void seedCrossMachineMessage()
    {
        const Peer &ciFlakes = m_remote.at(0);
        const Peer &apiRefactor = m_local.at(ApiRefactor);
        Broker::SendToRemoteRequest relay;
        relay.fromId = ciFlakes.id;
        relay.toId = u"workstation:"_s + apiRefactor.id;
        relay.text = u"The flaky checkout test fails only with AuthMiddleware: the fixture's token expires "
                     u"mid-run. Can the test config get a longer TTL?"_s;
        const auto answer = TestSupport::httpPostJson(ciFlakes.port, QLatin1String(relay.path),
                                                      relay.toJson(), ciFlakes.secret, scaled(20000));
        QVERIFY2(answer.status == 200 && answer.object().value(u"ok").toBool(), answer.body.constData());
        QVERIFY(receive(apiRefactor, true));
    }

    // checkout-ui and docs-writer: one message read, one fetched, and one that bounced because
    // the docs session ended before reading it.
    void seedBouncedThread()
    {
        const Peer docs = registerSession(m_home->port(), m_home->token(), m_home->path(), kEndingSession);
        QVERIFY(!docs.id.isEmpty());
        const Peer &checkout = m_local.at(CheckoutUi);
        QVERIFY(send(checkout, docs.id, u"The checkout errors changed: 422 now carries a field list."_s) > 0);
        QVERIFY(receive(docs, true));
        QVERIFY(send(docs, checkout.id, u"Thanks, documenting it under 'Validation errors'."_s) > 0);
        QVERIFY(receive(checkout, false));
        m_bouncedId =
            send(checkout, docs.id, u"Also mention the new max length of the address line (120)."_s);
        QVERIFY(m_bouncedId > 0);
        m_bouncedThread = App::threadKey(checkout.id, docs.id);
        // The page was open when it went out (it lists what it saw; the broker keeps no copy
        // of a bounced message, only the bounce).
        m_tray->mainWindow()->showPage(u"messages"_s);
        QVERIFY(QTest::qWaitForWindowExposed(m_tray->mainWindow()));
        QTRY_VERIFY_WITH_TIMEOUT(m_tray->messagesPage()->logModel()->rowOfId(m_bouncedId) >= 0,
                                 scaled(10000));

        m_alive.removeIf([&docs](const Peer &peer) { return peer.id == docs.id; });
        QProcess *process = m_processOf.value(docs.id);
        process->kill();
        QVERIFY(process->waitForFinished(scaled(5000)));
        Broker::ListPeersRequest list; // a listing finds the session gone and bounces its mail
        list.scope = u"machine"_s;
        list.cwd = m_home->path();
        QCOMPARE(TestSupport::httpPostJson(m_home->port(), QLatin1String(list.path), list.toJson(),
                                           checkout.secret)
                     .status,
                 200);
    }

    // A question to the human at the tray; the operator answers in the thread.
    void seedOperatorThread()
    {
        App::OperatorPeer *op = m_tray->operatorPeer();
        const Peer &reviewer = m_local.at(Reviewer);
        QVERIFY(send(reviewer, op->id(),
                     u"PR #212 changes the public rate-limit headers. OK to ship before Friday?"_s,
                     u"query"_s) > 0);
        bool answered = false;
        op->send(reviewer.id, u"Yes, but keep X-RateLimit-Remaining for the old mobile clients."_s,
                 [&answered](Broker::Result<qint64> id) { answered = id.has_value(); });
        QTRY_VERIFY_WITH_TIMEOUT(answered, scaled(10000));
        QVERIFY(receive(reviewer, true));
    }

    // ---- OpenCode, behind the control service ----

    void seedOpenCodeSessions()
    {
        const QString api = projectPath(*m_home, "shop-api");
        const QString web = projectPath(*m_home, "shop-web");
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto session = [&](const QString &dir, const QString &title, const QString &prompt,
                                 const QString &answer, qint64 agoMs) {
            const QString id = m_openCode->addSession(dir, {}, title).value(u"id").toString();
            m_openCode->addMessage(id, u"user"_s, prompt, now - agoMs);
            if (!answer.isEmpty())
                m_openCode->addMessage(id, u"assistant"_s, answer, now - agoMs + 5000, now - agoMs + 60000);
            m_openCodeTitles.append(title);
            return id;
        };
        m_answered =
            session(api, u"Rate-limit headers"_s, u"Add X-RateLimit-* headers to every 429 answer"_s,
                    u"Added the headers in RateLimiter::reject and a test per route; all 184 tests pass."_s,
                    40 * 60 * 1000);
        const QString busy =
            session(web, u"Checkout a11y pass"_s,
                    u"Check the checkout form against WCAG 2.2 and fix what fails"_s, {}, 3 * 60 * 1000);
        const QString waiting =
            session(api, u"Flaky payment test"_s, u"Find why test_refund_partial fails one run in twenty"_s,
                    {}, 8 * 60 * 1000);
        m_openCode->setStatus(busy, u"busy"_s);
        m_openCode->setStatus(waiting, u"busy"_s);
        // The control service follows both projects' events: a permission request makes the
        // session wait for the human.
        QTRY_VERIFY_WITH_TIMEOUT(m_openCode->eventStreams() >= 2, scaled(15000));
        m_openCode->emitEvent(api,
                              {{u"type"_s, u"permission.asked"_s},
                               {u"properties"_s,
                                QJsonObject {{u"id"_s, u"per_1"_s},
                                             {u"sessionID"_s, waiting},
                                             {u"permission"_s, u"bash"_s},
                                             {u"patterns"_s, QJsonArray {u"pytest -x"_s}}}}});
    }

    // A nightly audit that ran (its session is in OpenCode) and a weekly report whose agent was
    // removed from OpenCode's config since: its run failed.
    void seedSchedules()
    {
        const auto create = [&](const QJsonObject &input) {
            return control(u"schedule.create"_s, input)
                .object()
                .value(u"task")
                .toObject()
                .value(u"id")
                .toString();
        };
        const QString nightly =
            create({{u"projectId"_s, u"shop-api"_s},
                    {u"name"_s, u"Nightly dependency audit"_s},
                    {u"prompt"_s, u"Check the lockfile for outdated or vulnerable packages"_s},
                    {u"model"_s, u"anthropic/claude-sonnet-4-5"_s},
                    {u"daily"_s, u"02:30"_s},
                    {u"timezone"_s, u"Europe/Berlin"_s}});
        const QString weekly = create({{u"projectId"_s, u"shop-web"_s},
                                       {u"name"_s, u"Weekly bundle-size report"_s},
                                       {u"prompt"_s, u"Compare the bundle sizes with last week's build"_s},
                                       {u"model"_s, u"anthropic/claude-sonnet-4-5"_s},
                                       {u"agent"_s, u"review"_s},
                                       {u"weekly"_s, QJsonArray {1}}, // Monday
                                       {u"time"_s, u"08:00"_s},
                                       {u"timezone"_s, u"Europe/Berlin"_s}});
        const QString standup = create({{u"projectId"_s, u"shop-api"_s},
                                        {u"name"_s, u"Stand-up summary"_s},
                                        {u"prompt"_s, u"Summarise yesterday's merged PRs for the stand-up"_s},
                                        {u"model"_s, u"anthropic/claude-sonnet-4-5"_s},
                                        {u"cron"_s, u"45 8 * * 1-5"_s},
                                        {u"timezone"_s, u"Europe/Berlin"_s}});
        QVERIFY(!nightly.isEmpty());
        QVERIFY(!weekly.isEmpty());
        QVERIFY(!standup.isEmpty());
        m_scheduleNames = {u"Nightly dependency audit"_s, u"Weekly bundle-size report"_s,
                           u"Stand-up summary"_s};

        QCOMPARE(control(u"schedule.run"_s, {{u"projectId"_s, u"shop-api"_s}, {u"taskId"_s, nightly}}).status,
                 200);
        m_openCode->agents = {OpenChamberTest::agent(u"build"_s)}; // "review" is gone
        QCOMPARE(control(u"schedule.run"_s, {{u"projectId"_s, u"shop-web"_s}, {u"taskId"_s, weekly}}).status,
                 400);
        QTRY_VERIFY_WITH_TIMEOUT(lastStatusOf(u"shop-api"_s, nightly) == u"success"_s &&
                                     lastStatusOf(u"shop-web"_s, weekly) == u"error"_s,
                                 scaled(20000));
    }

    // ---- the pictures ----

    void grabEveryPage()
    {
        const QString dir = qEnvironmentVariableIsSet("PEERS_SCREENSHOT_DIR")
            ? qEnvironmentVariable("PEERS_SCREENSHOT_DIR")
            : QDir::currentPath() + u"/screenshots"_s;
        QVERIFY(QDir().mkpath(dir));
        App::MainWindow *window = m_tray->mainWindow();
        window->resize(1100, 700);
        const QStringList pages = window->pageIds();
        QVERIFY(pages.contains(u"peers"_s));
        for (const QString &page : pages) {
            window->showPage(page);
            QVERIFY(QTest::qWaitForWindowExposed(window));
            QElapsedTimer took;
            took.start();
            waitUntilShown(page);
            if (QTest::currentTestFailed())
                return;
            // Not a check that something happened (waitUntilShown is): time for the last
            // answers to be painted before the picture.
            QTest::qWait(scaled(200));
            const QImage image = window->grab().toImage();
            QVERIFY2(distinctColours(image) > 16, qPrintable(page + u": the page looks blank"_s));
            const QString file = dir + u"/"_s + page + u".png"_s;
            QVERIFY2(image.save(file), qPrintable(file));
            qInfo().noquote() << "wrote" << file << "after" << took.elapsed() << "ms";
        }
        m_flow.reset();
    }

    // What each page must show of the seeded data before its picture is taken.
    void waitUntilShown(const QString &page)
    {
        const int wait = scaled(20000);
        App::MainWindow *window = m_tray->mainWindow();
        if (page == u"peers") {
            const int local = int(std::size(kLocalSessions)) + 1; // and the operator
            QTRY_VERIFY_WITH_TIMEOUT(m_tray->peersModel()->rowCount() >= local + m_remoteNames.size(), wait);
            QCOMPARE(remotePeerNames(), QSet<QString>(m_remoteNames.cbegin(), m_remoteNames.cend()));
            m_tray->peersPage()->selectPeer(m_local.at(Reviewer).id); // what a notification's Open does
        } else if (page == u"messages") {
            App::MessagesPage *messages = m_tray->messagesPage();
            QTRY_VERIFY_WITH_TIMEOUT(messages->threadsModel()->rowOfKey(m_bouncedThread) >= 0, wait);
            selectThread(messages, m_bouncedThread);
            const auto *log = messages->logModel();
            QTRY_VERIFY_WITH_TIMEOUT(
                log->rowOfId(m_bouncedId) >= 0 && log->ticksAt(log->rowOfId(m_bouncedId)).bounced, wait);
        } else if (page == u"federation") {
            auto *federation = qobject_cast<App::FederationPage *>(window->page(page));
            QVERIFY(federation);
            QTRY_VERIFY_WITH_TIMEOUT(federation->cardOf(m_pendingRequestId) != nullptr, wait);
            App::PairedBrokersModel *paired = federation->presenter()->paired();
            QTRY_VERIFY_WITH_TIMEOUT(paired->rowCount() == 1 && paired->rowAt(0).hostname == u"build-box"_s &&
                                         paired->rowAt(0).state == u"connected"_s,
                                     wait);
        } else if (page == u"sessions") {
            App::SessionsModel *sessions = m_tray->sessionsPage()->presenter()->model();
            const QSet<QString> seeded(m_openCodeTitles.cbegin(), m_openCodeTitles.cend());
            // (and the session the nightly schedule's run started)
            QTRY_VERIFY_WITH_TIMEOUT(columnTexts(sessions, App::SessionsModel::TitleColumn).contains(seeded),
                                     wait);
            QTRY_VERIFY_WITH_TIMEOUT(hasValue(sessions, App::SessionsModel::WaitingForRole, u"permission"_s),
                                     wait);
            m_tray->sessionsPage()->selectSession(projectPath(*m_home, "shop-api"), m_answered); // its answer
            QTRY_COMPARE_WITH_TIMEOUT(m_tray->sessionsPage()->selectedSessionId(), m_answered, wait);
        } else if (page == u"schedules") {
            App::SchedulesModel *schedules = m_tray->schedulesPage()->presenter()->model();
            QTRY_COMPARE_WITH_TIMEOUT(columnTexts(schedules, App::SchedulesModel::NameColumn),
                                      QSet<QString>(m_scheduleNames.cbegin(), m_scheduleNames.cend()), wait);
            QTRY_VERIFY_WITH_TIMEOUT(hasValue(schedules, App::SchedulesModel::LastStatusRole, u"success"_s) &&
                                         hasValue(schedules, App::SchedulesModel::LastStatusRole, u"error"_s),
                                     wait);
        } else if (page == u"settings") {
            // The page read the seeded config: the federation port the fixture set.
            App::SettingsPage *settings = m_tray->settingsPage();
            QTRY_COMPARE_WITH_TIMEOUT(settings->federationPortEdit()->text(),
                                      QString::number(m_federationPort), wait);
        } else if (page == u"notifications") {
            const App::NotificationListModel *list = m_tray->notifier()->list();
            QTRY_VERIFY_WITH_TIMEOUT(hasKind(list, App::NotificationKind::NeedsYou), wait);
        } else if (page == u"status") {
            keepMessagesFlowing();
            auto *status = qobject_cast<App::StatusPage *>(window->page(page));
            QVERIFY(status);
            const QString still = QLocale().toString(0.0, 'f', 1) + u' ';
            QTRY_VERIFY_WITH_TIMEOUT(!status->field(u"rates"_s)->text().startsWith(still) &&
                                         status->field(u"rates"_s)->text().contains(u"messages/s"_s),
                                     wait);
            QTRY_VERIFY_WITH_TIMEOUT(status->field(u"federation"_s)->text().contains(u"1 machine"_s), wait);
        }
    }

    // ---- small helpers ----

    TestSupport::HttpResult post(const QString &path, const QJsonObject &body = {})
    {
        return TestSupport::httpPostJson(m_home->port(), path, body, m_home->token(), scaled(20000));
    }

    // The machine proves a fresh code of this machine's (`claude-peers federation join`): the
    // request's id, empty when it was refused.
    QString askToPair(FederationMachine &machine)
    {
        const QString code = post(u"/federation/pair-code"_s).object().value(u"code").toString();
        const QJsonObject started =
            machine
                .post(u"/federation/pair"_s,
                      {{u"host"_s, u"127.0.0.1"_s}, {u"port"_s, m_federationPort}, {u"code"_s, code}})
                .object();
        if (!started.value(u"ok").toBool())
            qWarning().noquote() << machine.hostname
                                 << "could not ask to pair:" << QJsonDocument(started).toJson();
        return started.value(u"id").toString();
    }

    TestSupport::HttpResult control(const QString &action, const QJsonObject &input)
    {
        return post(u"/control"_s, {{u"action"_s, action}, {u"input"_s, input}});
    }

    // The message's id, 0 when the broker refused it.
    qint64 send(const Peer &from, const QString &to, const QString &text, const QString &type = {})
    {
        Broker::SendMessageRequest request;
        request.fromId = from.id;
        request.toId = to;
        request.text = text;
        if (!type.isEmpty())
            request.type = type;
        const auto answer = TestSupport::httpPostJson(m_home->port(), QLatin1String(request.path),
                                                      request.toJson(), from.secret);
        const auto sent = Broker::SendMessageAnswer::fromJson(answer.object());
        return answer.status == 200 && sent && sent->ok ? sent->messageId : 0;
    }

    // The session fetches its messages (the "pushed" tick) and, when it read them, acks them.
    bool receive(const Peer &peer, bool read)
    {
        Broker::PollMessagesRequest poll;
        poll.id = peer.id;
        const auto answer =
            TestSupport::httpPostJson(m_home->port(), QLatin1String(poll.path), poll.toJson(), peer.secret);
        const auto messages = Broker::MessagesAnswer::fromJson(answer.object());
        if (answer.status != 200 || !messages)
            return false;
        if (!read || messages->messages.isEmpty())
            return true;
        Broker::AckMessagesRequest ack;
        ack.id = peer.id;
        for (const Broker::Message &message : messages->messages)
            ack.messageIds.append(message.id);
        return TestSupport::httpPostJson(m_home->port(), QLatin1String(ack.path), ack.toJson(), peer.secret)
                   .status == 200;
    }

    // Their helpers' heartbeats (the brokers drop a session silent for 60 s).
    void keepSessionsAlive()
    {
        m_heartbeats = std::make_unique<QTimer>();
        connect(m_heartbeats.get(), &QTimer::timeout, this, [this] {
            for (const Peer &peer : std::as_const(m_alive)) {
                Broker::HeartbeatRequest beat;
                beat.id = peer.id;
                TestSupport::httpPostJson(peer.port, QLatin1String(beat.path), beat.toJson(), peer.secret);
            }
        });
        m_heartbeats->start(10000);
    }

    // Two sessions keep talking while the Status page measures its rates.
    void keepMessagesFlowing()
    {
        m_flow = std::make_unique<QTimer>();
        int n = 0;
        connect(m_flow.get(), &QTimer::timeout, this, [this, n]() mutable {
            send(m_local.at(ApiRefactor), m_local.at(Reviewer).id,
                 u"CI run %1 of the middleware branch: green"_s.arg(++n));
            receive(m_local.at(Reviewer), true);
        });
        m_flow->start(150);
    }

    QString lastStatusOf(const QString &projectId, const QString &taskId)
    {
        const QJsonArray tasks =
            control(u"schedule.list"_s, {{u"projectId"_s, projectId}}).object().value(u"tasks").toArray();
        for (const QJsonValue &task : tasks) {
            const QJsonObject object = task.toObject();
            if (object.value(u"id").toString() == taskId)
                return object.value(u"state").toObject().value(u"lastStatus").toString();
        }
        return {};
    }

    // The names of the peers this machine lists from other machines.
    QSet<QString> remotePeerNames() const
    {
        QSet<QString> names;
        const App::PeersModel *model = m_tray->peersModel();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, App::PeersModel::NameColumn);
            if (index.data(App::PeersModel::MachineRole).toString() == u"build-box"_s)
                names.insert(index.data().toString());
        }
        return names;
    }

    static QSet<QString> columnTexts(const QAbstractItemModel *model, int column)
    {
        QSet<QString> texts;
        for (int row = 0; row < model->rowCount(); ++row)
            texts.insert(model->index(row, column).data().toString());
        return texts;
    }

    static bool hasValue(const QAbstractItemModel *model, int role, const QVariant &value)
    {
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, 0).data(role) == value)
                return true;
        }
        return false;
    }

    static bool hasKind(const App::NotificationListModel *list, App::NotificationKind kind)
    {
        for (int row = 0; row < list->rowCount(); ++row) {
            if (list->index(row).data(App::NotificationListModel::KindRole).value<App::NotificationKind>() ==
                kind)
                return true;
        }
        return false;
    }

    static void selectThread(App::MessagesPage *page, const QString &key)
    {
        QAbstractItemModel *threads = page->threadsView()->model();
        for (int row = 0; row < threads->rowCount(); ++row) {
            const QModelIndex index = threads->index(row, 0);
            if (index.data(App::MessageThreadsModel::ThreadKeyRole).toString() == key)
                page->threadsView()->setCurrentIndex(index);
        }
    }

    std::unique_ptr<FederationMachine> m_buildBox;
    std::unique_ptr<FederationMachine> m_laptop;
    std::unique_ptr<TestSupport::TestHome> m_home;
    std::unique_ptr<OpenChamberTest::FakeOpenCode> m_openCode;
    std::unique_ptr<TrayComposition> m_tray;
    std::unique_ptr<QTimer> m_flow;
    std::unique_ptr<QTimer> m_heartbeats;
    QList<Peer> m_alive; // sessions whose helper heartbeats
    std::vector<std::unique_ptr<QProcess>> m_processes;
    QHash<QString, QProcess *> m_processOf;
    quint16 m_federationPort = 0;
    QList<Peer> m_local;
    QList<Peer> m_remote; // on the build box
    QStringList m_remoteNames;
    QString m_pendingRequestId;
    QString m_bouncedThread;
    qint64 m_bouncedId = 0;
    QStringList m_openCodeTitles;
    QString m_answered; // the OpenCode session shown selected, with its last answer
    QStringList m_scheduleNames;
};

QTEST_MAIN(tst_Screenshots)
#include "tst_screenshots.moc"
