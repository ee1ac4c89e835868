// The notifications about OpenCode sessions, scheduled runs and pairing requests, end to end in
// process: the real TrayComposition hosting a broker whose control service watches a fake
// OpenCode server, and a fake notification server on a private D-Bus session bus. A session that
// goes busy → idle is "finished" with its last answer quoted; one that asks for a permission
// needs you; a failed scheduled run names the task and quotes its error; a pairing request only
// opens its card. Each Open shows exactly that item; each respects the preferences (kind off,
// paused) — a suppressed event still reaches the in-app list, which is what the "must not
// notify" checks wait for.
#include "app/tray/brokerhost.h"
#include "app/tray/mainwindow.h"
#include "app/tray/notifications/activitynotifications.h"
#include "app/tray/notifications/notifier.h"
#include "app/tray/pages/controlcalls.h"
#include "app/tray/pages/federationpage.h"
#include "app/tray/pages/federationpresenter.h"
#include "app/tray/pages/opencodeactivity.h"
#include "app/tray/pages/schedulespage.h"
#include "app/tray/pages/schedulespresenter.h"
#include "app/tray/pages/sessionspage.h"
#include "app/tray/traycomposition.h"
#include "tests/federation/federationmachine.h"
#include "tests/openchamber/fakeopencode.h"
#include "tests/openchamber/servicefixture.h"
#include "tests/support/privatebus.h"
#include "tests/support/testsupport.h"
#include "tests/tray/fakenotificationserver.h"
#include "tests/tray/traytestsupport.h"

#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;
using App::BrokerHost;
using App::NotificationKind;
using App::NotificationListModel;
using App::TrayComposition;
using FederationTest::FederationMachine;
using OpenChamberTest::FakeOpenCode;
using OpenChamberTest::FakeRequest;
using OpenChamberTest::FakeResponse;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

namespace {

QJsonObject statusEvent(const QString &sessionId, const QString &type)
{
    return {{u"type"_s, u"session.status"_s},
            {u"properties"_s,
             QJsonObject {{u"sessionID"_s, sessionId}, {u"status"_s, QJsonObject {{u"type"_s, type}}}}}};
}

// A home whose control service knows one project, served by the fake OpenCode.
struct Machine
{
    TestSupport::TestHome home;
    FakeOpenCode fake;
    QString repo;

    Machine()
    {
        QDir(home.path()).mkpath(u"repo/app"_s);
        repo = QFileInfo(home.path() + u"/repo/app"_s).canonicalFilePath();
        fake.agents = {OpenChamberTest::agent(u"build"_s)};
        fake.providers = {
            OpenChamberTest::provider(u"openai"_s, {{u"gpt-5.5"_s, QJsonObject {{u"id"_s, u"gpt-5.5"_s}}}})};
        const QJsonObject config {
            {u"openchamber"_s,
             QJsonObject {
                 {u"projects"_s,
                  QJsonArray {QJsonObject {{u"id"_s, u"app"_s}, {u"path"_s, repo}, {u"label"_s, u"App"_s}}}},
                 {u"opencode_url"_s, fake.url().toString()},
                 {u"default_model"_s, u"openai/gpt-5.5"_s},
                 {u"default_agent"_s, u"build"_s}}}};
        QFile file(home.configPath());
        if (file.open(QIODevice::WriteOnly))
            file.write(QJsonDocument(config).toJson());
    }
};

} // namespace

class tst_ActivityNotifications : public QObject
{
    Q_OBJECT

    PrivateBus m_bus;
    std::unique_ptr<FakeNotificationServer> m_server;
    std::unique_ptr<Machine> m_machine;
    std::unique_ptr<TrayComposition> m_composition;
    std::unique_ptr<FederationMachine> m_alpha;
    std::unique_ptr<FederationMachine> m_beta;
    std::unique_ptr<QProcess> m_join;

    App::Notifier *notifier() const { return m_composition->notifier(); }
    NotificationListModel *list() const { return notifier()->list(); }

    bool setKind(NotificationKind kind, bool on)
    {
        App::NotificationPreferences p = notifier()->preferences();
        p.setKindEnabled(kind, on);
        return p.save(m_machine->home.configPath()).has_value();
    }

    // The newest list entry once there are count entries.
    const NotificationListModel::Entry *waitForEntry(int count)
    {
        if (!QTest::qWaitFor([&] { return list()->rowCount() >= count; }, scaled(15000)))
            return nullptr;
        return list()->entry(list()->data(list()->index(0), NotificationListModel::IdRole).toULongLong());
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_server = startServerOnPrivateSessionBus(m_bus);
        QVERIFY2(m_server,
                 "no private bus with the fake notification server: is dbus-daemon installed "
                 "(tools/install-deps.sh test)?");
    }

    void init()
    {
        QVERIFY2(sessionBusDelivered(scaled(5000)), "the fake notification server does not answer");
        m_server->received.clear();
        if (qstrcmp(QTest::currentTestFunction(), "pairingRequestFromAnotherBrokerOpensItsCard") == 0)
            return; // its own two broker processes
        m_machine = std::make_unique<Machine>();
        m_composition = std::make_unique<TrayComposition>(settingsFor(m_machine->home));
        BrokerHost *host = m_composition->host();
        host->start();
        QTRY_COMPARE_WITH_TIMEOUT(host->state(), BrokerHost::State::Running, scaled(5000));
        QTRY_COMPARE_WITH_TIMEOUT(notifier()->desktop()->state(), App::DesktopNotifications::State::Available,
                                  scaled(5000));
    }

    void cleanup()
    {
        if (m_join) {
            m_join->kill();
            m_join->waitForFinished(5000);
            m_join.reset();
        }
        if (m_composition)
            m_composition->host()->stop();
        m_composition.reset();
        m_machine.reset();
        m_alpha.reset();
        m_beta.reset();
    }

    void finishedSessionQuotesItsLastAnswerAndOpensIt()
    {
        FakeOpenCode &fake = m_machine->fake;
        const QString repo = m_machine->repo;
        // The control service watches the project's /event stream.
        QTRY_VERIFY_WITH_TIMEOUT(fake.eventStreams() >= 1, scaled(10000));
        fake.addSession(repo, u"ses_done"_s, u"Fix the login bug"_s);
        const qint64 t = QDateTime::currentMSecsSinceEpoch();
        fake.addMessage(u"ses_done"_s, u"user"_s, u"fix it"_s, t - 2000, t - 2000);
        fake.addMessage(u"ses_done"_s, u"assistant"_s,
                        u"Fixed: the token expired one hour early.\nAll tests pass."_s, t - 1000, t);

        fake.emitEvent(repo, statusEvent(u"ses_done"_s, u"busy"_s));
        QTRY_VERIFY_WITH_TIMEOUT(m_composition->openCodeActivity()->contains(u"ses_done"_s), scaled(10000));
        // The event has no title; the tray lists the folder once and learns it.
        QTRY_COMPARE_WITH_TIMEOUT(m_composition->openCodeActivity()->session(u"ses_done"_s)->title,
                                  u"Fix the login bug"_s, scaled(10000));
        fake.emitEvent(repo, statusEvent(u"ses_done"_s, u"idle"_s));

        QTRY_COMPARE_WITH_TIMEOUT(m_server->received.size(), 1, scaled(10000));
        const FakeNotificationServer::Received n = m_server->received.at(0);
        QCOMPARE(n.summary, u"Fix the login bug finished"_s); // which session, by its title
        QCOMPARE(n.body, u"Fixed: the token expired one hour early. All tests pass."_s); // its answer
        QCOMPARE(n.hints.value(u"category"_s).toString(), u"transfer.complete"_s);
        QVERIFY(n.actions.contains(u"open"_s));
        QVERIFY(n.actions.contains(u"mute"_s));
        QVERIFY(!n.actions.contains(u"inline-reply"_s)); // not a broker peer: nothing to reply to

        // Open: the Sessions page on that session.
        Q_EMIT m_server->ActionInvoked(n.id, u"open"_s);
        QTRY_VERIFY_WITH_TIMEOUT(m_composition->mainWindow()->isVisible(), scaled(5000));
        QCOMPARE(m_composition->mainWindow()->currentPageId(), u"sessions"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_composition->sessionsPage()->selectedSessionId(), u"ses_done"_s,
                                  scaled(10000));

        // Not again: the kind turned off (in the config file, as the CLI and Settings do).
        QVERIFY(setKind(NotificationKind::SessionDone, false));
        const int before = list()->rowCount();
        fake.emitEvent(repo, statusEvent(u"ses_done"_s, u"busy"_s));
        fake.emitEvent(repo, statusEvent(u"ses_done"_s, u"idle"_s));
        const auto *off = waitForEntry(before + 1);
        QVERIFY(off);
        QCOMPARE(off->event.kind, NotificationKind::SessionDone);
        QCOMPARE(off->suppression, App::Suppression::KindOff);

        // Paused: recorded, not shown.
        QVERIFY(setKind(NotificationKind::SessionDone, true));
        QVERIFY(notifier()->pause());
        fake.emitEvent(repo, statusEvent(u"ses_done"_s, u"busy"_s));
        fake.emitEvent(repo, statusEvent(u"ses_done"_s, u"idle"_s));
        const auto *paused = waitForEntry(before + 2);
        QVERIFY(paused);
        QCOMPARE(paused->suppression, App::Suppression::Paused);
        QCOMPARE(m_server->received.size(), 1);
        // A session starting and ending turns is not a peer joining and leaving (those kinds are
        // off by default, but the list would still record them).
        for (int row = 0; row < list()->rowCount(); ++row) {
            const auto kind =
                list()->data(list()->index(row), NotificationListModel::KindRole).value<NotificationKind>();
            QVERIFY2(kind != NotificationKind::PeerJoined && kind != NotificationKind::PeerLeft,
                     qPrintable(list()->data(list()->index(row)).toString()));
        }
    }

    void sessionAskingPermissionNeedsYouAndOpensIt()
    {
        FakeOpenCode &fake = m_machine->fake;
        const QString repo = m_machine->repo;
        QTRY_VERIFY_WITH_TIMEOUT(fake.eventStreams() >= 1, scaled(10000));
        fake.addSession(repo, u"ses_ask"_s, u"Deploy"_s);
        fake.emitEvent(repo, statusEvent(u"ses_ask"_s, u"busy"_s));
        fake.emitEvent(repo,
                       {{u"type"_s, u"permission.asked"_s},
                        {u"properties"_s,
                         QJsonObject {{u"sessionID"_s, u"ses_ask"_s},
                                      {u"id"_s, u"per_1"_s},
                                      {u"permission"_s, u"bash"_s},
                                      {u"patterns"_s, QJsonArray {u"rm -rf build"_s}}}}});

        QTRY_COMPARE_WITH_TIMEOUT(m_server->received.size(), 1, scaled(10000));
        const FakeNotificationServer::Received n = m_server->received.at(0);
        QVERIFY2(n.summary.endsWith(u" needs you"_s), qPrintable(n.summary));
        QVERIFY2(!n.body.isEmpty(), "the notification quotes what it asks");
        QVERIFY(!n.actions.contains(u"inline-reply"_s));
        // One notification for the request: no "joined" for a session that starts working.
        QCOMPARE(list()->rowCount(), 1);
        Q_EMIT m_server->ActionInvoked(n.id, u"default"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_composition->mainWindow()->currentPageId(), u"sessions"_s, scaled(5000));
        QTRY_COMPARE_WITH_TIMEOUT(m_composition->sessionsPage()->selectedSessionId(), u"ses_ask"_s,
                                  scaled(10000));
    }

    void failedScheduledRunNamesTheTaskAndQuotesItsError()
    {
        FakeOpenCode &fake = m_machine->fake;
        // OpenCode refuses to create the run's session.
        fake.handler = [](const FakeRequest &r) -> std::optional<FakeResponse> {
            if (r.method == "POST" && r.path == u"/session"_s)
                return FakeResponse::json(
                    QJsonObject {{u"name"_s, u"UnknownError"_s},
                                 {u"data"_s, QJsonObject {{u"message"_s, u"disk full"_s}}}},
                    500);
            return std::nullopt;
        };
        App::ControlCalls calls(m_composition->client());
        App::SchedulesPresenter::ScheduleRequest request;
        request.projectId = u"app"_s;
        request.name = u"Nightly review"_s;
        request.prompt = u"review the day's changes"_s;
        request.model = u"openai/gpt-5.5"_s;
        request.time = u"03:00"_s;
        QString taskId;
        calls.run(u"schedule.create"_s, App::SchedulesPresenter::createInput(request),
                  [&taskId](App::ControlOutcome outcome) {
                      if (outcome)
                          taskId = outcome->value(u"task"_s).toObject().value(u"id"_s).toString();
                  });
        QTRY_VERIFY_WITH_TIMEOUT(!taskId.isEmpty(), scaled(10000));
        calls.run(u"schedule.run"_s, {{u"projectId"_s, u"app"_s}, {u"taskId"_s, taskId}},
                  [](App::ControlOutcome) {});

        // Found by its task's name, whatever else reached the server: the test before can end with
        // a notification just sent ("Deploy finished", its session idle again once the page asked;
        // init() waits for it to land before it empties the record).
        const auto ours = [this] {
            for (const FakeNotificationServer::Received &r : std::as_const(m_server->received))
                if (r.summary.contains(u"Nightly review"_s))
                    return std::optional(r);
            return std::optional<FakeNotificationServer::Received>();
        };
        QTRY_VERIFY_WITH_TIMEOUT(ours().has_value(), scaled(15000));
        const FakeNotificationServer::Received n = *ours();
        QVERIFY2(n.summary.endsWith(u" failed"_s), qPrintable(n.summary));
        // The quote is the run's error as the task keeps it (what `schedule list --json` shows).
        QString lastError;
        calls.run(u"schedule.list"_s, {{u"projectId"_s, u"app"_s}},
                  [&lastError](App::ControlOutcome outcome) {
                      if (outcome)
                          lastError = outcome->value(u"tasks"_s)
                                          .toArray()
                                          .at(0)
                                          .toObject()
                                          .value(u"state"_s)
                                          .toObject()
                                          .value(u"lastError"_s)
                                          .toString();
                  });
        QTRY_VERIFY_WITH_TIMEOUT(!lastError.isEmpty(), scaled(10000));
        QCOMPARE(n.body, App::ActivityNotifications::quote(lastError));
        QCOMPARE(n.hints.value(u"category"_s).toString(), u"transfer.error"_s);

        // Open: the Schedules page on that task.
        Q_EMIT m_server->ActionInvoked(n.id, u"open"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_composition->mainWindow()->currentPageId(), u"schedules"_s, scaled(5000));
        QTableView *view = m_composition->schedulesPage()->view();
        const auto selectedTask = [view] {
            const QModelIndexList rows = view->selectionModel()->selectedRows();
            return rows.size() == 1 ? rows.first().data(App::SchedulesModel::TaskIdRole).toString()
                                    : QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(selectedTask(), taskId, scaled(10000));

        // Mute this schedule: its next failure is recorded, not shown.
        Q_EMIT m_server->ActionInvoked(n.id, u"mute"_s);
        QTRY_VERIFY_WITH_TIMEOUT(
            App::NotificationPreferences::load(m_machine->home.configPath())->isMuted(taskId), scaled(5000));
        const int before = list()->rowCount();
        calls.run(u"schedule.run"_s, {{u"projectId"_s, u"app"_s}, {u"taskId"_s, taskId}},
                  [](App::ControlOutcome) {});
        const auto *muted = waitForEntry(before + 1);
        QVERIFY(muted);
        QCOMPARE(muted->event.kind, NotificationKind::ScheduleFailed);
        QCOMPARE(muted->suppression, App::Suppression::PeerMuted);
        QCOMPARE(std::count_if(m_server->received.cbegin(), m_server->received.cend(),
                               [](const FakeNotificationServer::Received &r) {
                                   return r.summary.contains(u"Nightly review"_s);
                               }),
                 1);
    }

    // A real request: beta joins alpha with a one-time code through the real CLI; the tray (its
    // composition on alpha's HOME, talking to alpha's broker process) notifies once, however
    // often its presenter refreshes, and Open shows the card without deciding anything.
    void pairingRequestFromAnotherBrokerOpensItsCard()
    {
        m_alpha = std::make_unique<FederationMachine>();
        m_beta = std::make_unique<FederationMachine>();
        for (auto [machine, name, psk] : {std::tuple {m_alpha.get(), u"alpha"_s, QByteArray(64, 'a')},
                                          std::tuple {m_beta.get(), u"beta"_s, QByteArray(64, 'b')}}) {
            machine->postTimeoutMs = 20000;
            QVERIFY(machine->prepare(name, psk));
            QVERIFY(machine->start(machine->federationEnvironment()));
            QVERIFY(machine->waitForFederation(
                [](const QJsonObject &status) { return status.contains(u"fingerprint"); }));
        }
        m_composition = std::make_unique<TrayComposition>(settingsFor(m_alpha->home)); // host not started
        QTRY_COMPARE_WITH_TIMEOUT(notifier()->desktop()->state(), App::DesktopNotifications::State::Available,
                                  scaled(5000));
        App::FederationPage *page = m_composition->federationPage();
        App::FederationPresenter *presenter = page->presenter();
        const int wait = scaled(20000);

        presenter->createPairingCode();
        const QRegularExpression codeForm(u"^[0-9A-Z]{5}-[0-9A-Z]{5}$"_s);
        QTRY_VERIFY_WITH_TIMEOUT(codeForm.match(page->codeLabel()->text()).hasMatch(), wait);
        m_join = std::make_unique<QProcess>();
        m_join->setProcessEnvironment(m_beta->home.environment());
        m_join->start(TestSupport::cliExe(),
                      {u"federation"_s, u"join"_s, u"127.0.0.1:%1"_s.arg(m_alpha->federationPort),
                       page->codeLabel()->text()});
        QVERIFY(m_join->waitForStarted(scaled(5000)));
        QVERIFY(QTest::qWaitFor(
            [&] {
                return !m_alpha->post(u"/federation/pending"_s)
                            .object()
                            .value(u"requests"_s)
                            .toArray()
                            .isEmpty();
            },
            wait));

        QSignalSpy refreshed(presenter, &App::FederationPresenter::refreshed);
        presenter->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(m_server->received.size(), 1, wait);
        const FakeNotificationServer::Received n = m_server->received.at(0);
        QCOMPARE(n.summary, u"beta asks to pair with this machine"_s);
        QVERIFY2(n.body.startsWith(u"From 127.0.0.1:"_s), qPrintable(n.body));
        QCOMPARE(n.actions, (QStringList {u"default"_s, u"Open"_s, u"open"_s, u"Open"_s}));
        // Another round sees the same request: no second notification.
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), wait);
        refreshed.clear();
        presenter->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), wait);
        QCOMPARE(m_server->received.size(), 1);
        QCOMPARE(list()->rowCount(), 1);

        // Open: the Federation page with the request's card; nothing decided.
        Q_EMIT m_server->ActionInvoked(n.id, u"open"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_composition->mainWindow()->currentPageId(), u"federation"_s,
                                  scaled(5000));
        const QString id = list()->data(list()->index(0), NotificationListModel::PeerIdRole).toString();
        QTRY_VERIFY_WITH_TIMEOUT(page->cardOf(id) != nullptr, wait);
        QCOMPARE(m_alpha->post(u"/federation/pending"_s)
                     .object()
                     .value(u"requests"_s)
                     .toArray()
                     .first()
                     .toObject()
                     .value(u"state"_s),
                 u"pending"_s);
    }

    void pairingRequestOnlyOpensItsCardOnce()
    {
        App::FederationPresenter *presenter = m_composition->federationPage()->presenter();
        // What the presenter says when a refresh finds the request; a later round (or a second
        // broker answer naming it again) must not notify twice.
        Q_EMIT presenter->pendingRequestArrived(u"req-1"_s, u"beta"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->received.size(), 1, scaled(5000));
        Q_EMIT presenter->pendingRequestArrived(u"req-1"_s, u"beta"_s);
        Q_EMIT presenter->pendingRequestArrived(u"req-2"_s, u"gamma"_s); // to wait for
        QTRY_COMPARE_WITH_TIMEOUT(m_server->received.size(), 2, scaled(5000));
        QCOMPARE(list()->rowCount(), 2);
        const FakeNotificationServer::Received n = m_server->received.at(0);
        QCOMPARE(n.summary, u"beta asks to pair with this machine"_s);
        QVERIFY(!n.body.isEmpty());
        // Open only: no Reply, no Mute, and certainly no Accept.
        QCOMPARE(n.actions, (QStringList {u"default"_s, u"Open"_s, u"open"_s, u"Open"_s}));
        Q_EMIT m_server->ActionInvoked(n.id, u"open"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_composition->mainWindow()->currentPageId(), u"federation"_s,
                                  scaled(5000));

        // Kind off: recorded, not shown.
        QVERIFY(setKind(NotificationKind::PairingRequest, false));
        Q_EMIT presenter->pendingRequestArrived(u"req-3"_s, u"delta"_s);
        const auto *off = waitForEntry(3);
        QVERIFY(off);
        QCOMPARE(off->suppression, App::Suppression::KindOff);
        QCOMPARE(m_server->received.size(), 2);
    }
};

QTEST_MAIN(tst_ActivityNotifications)
#include "tst_activitynotifications.moc"
