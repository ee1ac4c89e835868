// The Sessions and Schedules pages' GUI-free parts: the models (QAbstractItemModelTester), the
// live activity and what it gives the tray's attention, and the inputs the presenters build
// (the CLI's twins).
#include "app/tray/attention.h"
#include "app/tray/pages/controlcalls.h"
#include "app/tray/pages/opencodeactivity.h"
#include "app/tray/pages/schedulesmodel.h"
#include "app/tray/pages/schedulespresenter.h"
#include "app/tray/pages/sessionsmodel.h"
#include "app/tray/pages/sessionspresenter.h"
#include "app/tray/traypresenter.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace App;
using namespace Qt::StringLiterals;

namespace {

const QDateTime T0 = QDateTime::fromString(QStringLiteral("2026-12-01T10:00:00Z"), Qt::ISODate);

SessionsModel::Row row(const QString &id, const QString &directory, const QString &status,
                       const QString &answer = {})
{
    SessionsModel::Row r;
    r.session = OpenCodeSession {id, directory, QStringLiteral("Title ") + id, status, {}, {}, {}, T0};
    r.lastAssistant = answer;
    return r;
}

QJsonObject task(const QString &id, const QString &name, bool enabled, const QJsonObject &state = {})
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("name"), name},
            {QStringLiteral("enabled"), enabled},
            {QStringLiteral("schedule"),
             QJsonObject {{QStringLiteral("kind"), QStringLiteral("daily")},
                          {QStringLiteral("times"), QJsonArray {QStringLiteral("09:00")}},
                          {QStringLiteral("timezone"), QStringLiteral("UTC")}}},
            {QStringLiteral("execution"), QJsonObject {{QStringLiteral("prompt"), QStringLiteral("go")}}},
            {QStringLiteral("state"), state}};
}

} // namespace

class tst_OpenCodeModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sessionsModelKeepsRowsPerDirectory()
    {
        SessionsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setClock([] { return T0.addSecs(125); });
        model.setDirectorySessions(QStringLiteral("/a"),
                                   {row(QStringLiteral("s1"), QStringLiteral("/a"), QStringLiteral("busy")),
                                    row(QStringLiteral("s2"), QStringLiteral("/a"), QStringLiteral("idle"))});
        model.setDirectorySessions(QStringLiteral("/b"),
                                   {row(QStringLiteral("s3"), QStringLiteral("/b"), QStringLiteral("idle"))});
        QCOMPARE(model.rowCount(), 3);
        model.setLastAssistant(QStringLiteral("s2"), QStringLiteral("The answer"));
        // /a lists s2 only now: s1 goes, s2 keeps its answer, /b is untouched.
        model.setDirectorySessions(QStringLiteral("/a"),
                                   {row(QStringLiteral("s2"), QStringLiteral("/a"), QStringLiteral("idle"))});
        QCOMPARE(model.rowCount(), 2);
        const int s2 = model.rowOf(QStringLiteral("s2"));
        QCOMPARE(model.index(s2, SessionsModel::AnswerColumn).data().toString(),
                 QStringLiteral("The answer"));
        QCOMPARE(model.index(s2, SessionsModel::StateColumn).data().toString(), QStringLiteral("idle"));
        QCOMPARE(model.index(s2, SessionsModel::TimeColumn).data().toString(), QStringLiteral("2 min"));
        QCOMPARE(model.index(s2, SessionsModel::TitleColumn).data().toString(), QStringLiteral("Title s2"));
        QVERIFY(model.rowOf(QStringLiteral("s1")) < 0);

        OpenCodeSession live = model.rowAt(s2).session;
        live.status = QStringLiteral("busy");
        live.waitingFor = QStringLiteral("permission");
        live.detail = QStringLiteral("bash: rm *");
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.updateLive(live);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.index(s2, SessionsModel::StateColumn).data().toString(),
                 QStringLiteral("needs you (permission: bash: rm *)"));
        QCOMPARE(model.index(s2, 0).data(SessionsModel::WaitingForRole).toString(),
                 QStringLiteral("permission"));
        model.updateLive(live); // unchanged: no signal
        QCOMPARE(changed.size(), 1);
        model.refreshTimes();
        QCOMPARE(changed.size(), 2);
    }

    void stateTexts_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("waitingFor");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("text");
        QTest::newRow("busy") << u"busy"_s << u""_s << u""_s << u"busy"_s;
        QTest::newRow("retry") << u"retry"_s << u""_s << u""_s << u"retrying"_s;
        QTest::newRow("idle") << u"idle"_s << u""_s << u""_s << u"idle"_s;
        QTest::newRow("unknown") << u"unknown"_s << u""_s << u""_s << u"unknown"_s;
        QTest::newRow("question") << u"busy"_s << u"question"_s << u""_s << u"needs you (question)"_s;
        QTest::newRow("error") << u"idle"_s << u""_s << u"bad key"_s << u"idle — error: bad key"_s;
    }
    void stateTexts()
    {
        QFETCH(QString, status);
        QFETCH(QString, waitingFor);
        QFETCH(QString, error);
        QFETCH(QString, text);
        OpenCodeSession s;
        s.status = status;
        s.waitingFor = waitingFor;
        s.error = error;
        QCOMPARE(SessionsModel::stateText(s), text);
    }

    // The watcher's events make sessions u"needs you"_s / busy in the tray's attention, with their
    // time in state; listings name them; idle takes them out.
    void activityFeedsTheTraysAttention()
    {
        OpenCodeActivity activity;
        QDateTime now = T0;
        activity.setClock([&now] { return now; });
        QSignalSpy attention(&activity, &OpenCodeActivity::attentionChanged);
        activity.setStatus(QStringLiteral("/a"), QStringLiteral("ses_1"), QStringLiteral("busy"));
        QCOMPARE(attention.size(), 1);
        now = T0.addSecs(30);
        activity.setWaiting(QStringLiteral("/a"), QStringLiteral("ses_1"), QStringLiteral("question"),
                            QStringLiteral("Which branch?"));
        activity.noteListed(QStringLiteral("/a"), QStringLiteral("ses_1"), QStringLiteral("Refactor"),
                            QStringLiteral("busy"));
        activity.setStatus(QStringLiteral("/b"), QStringLiteral("ses_2"), QStringLiteral("idle"));
        QList<AttentionItem> items = activity.attentionItems();
        QCOMPARE(items.size(), 1);
        QCOMPARE(
            items.first(),
            (AttentionItem {QStringLiteral("ses_1"), QStringLiteral("Refactor"), Broker::Attention::NeedsYou,
                            T0.addSecs(30), QStringLiteral("Which branch?")}));

        // The tray: one session needs you, counted with the peers, worst-of state needs-you.
        TrayPresenter presenter(nullptr);
        presenter.present({BrokerHost::State::Running, 7899, {}, {}, items});
        QCOMPARE(presenter.iconState(), TrayState::NeedsYou);
        QCOMPARE(presenter.iconCount(), 1);
        QVERIFY(presenter.toolTip().contains(QStringLiteral("Refactor")));
        QCOMPARE(presenter.menuItems().first().peerId, QStringLiteral("ses_1"));

        const int before = int(attention.size());
        activity.setStatus(QStringLiteral("/a"), QStringLiteral("ses_1"), QStringLiteral("idle"));
        QVERIFY(activity.attentionItems().isEmpty());
        QCOMPARE(activity.session(QStringLiteral("ses_1"))->waitingFor, QString());
        QCOMPARE(attention.size(), before + 1);
        presenter.present({BrokerHost::State::Running, 7899, {}, {}, activity.attentionItems()});
        QCOMPARE(presenter.iconState(), TrayState::Idle);
    }

    void activityForgetsOldSessions()
    {
        OpenCodeActivity activity;
        for (int i = 0; i < OpenCodeActivity::MaxSessions + 10; ++i)
            activity.setStatus(QStringLiteral("/a"), QStringLiteral("ses_%1").arg(i), QStringLiteral("idle"));
        activity.setWaiting(QStringLiteral("/a"), QStringLiteral("ses_x"), QStringLiteral("permission"), {});
        QVERIFY(activity.contains(QStringLiteral("ses_x")));
        QVERIFY(activity.attentionItems().size() == 1);
        int known = 0;
        for (int i = 0; i < OpenCodeActivity::MaxSessions + 10; ++i)
            known += activity.contains(QStringLiteral("ses_%1").arg(i));
        QVERIFY(known < OpenCodeActivity::MaxSessions);
    }

    void promptInputs_data()
    {
        using Kind = SessionsPresenter::Kind;
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("directory");
        QTest::addColumn<QString>("projectId");
        QTest::addColumn<QString>("sessionId");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("wait");
        QTest::addColumn<QJsonObject>("input"); // empty: refused
        QTest::newRow("create in a project, waiting")
            << int(Kind::Create) << u"/x"_s << u"app"_s << u""_s << u"hello"_s << u"openai/gpt-5.5"_s << true
            << QJsonObject {{u"projectId"_s, u"app"_s},
                            {u"prompt"_s, u"hello"_s},
                            {u"model"_s, u"openai/gpt-5.5"_s},
                            {u"wait"_s, true},
                            {u"lastAssistant"_s, true}};
        QTest::newRow("create in a directory")
            << int(Kind::Create) << u" /repo/app/ "_s << u""_s << u""_s << u""_s << u""_s << false
            << QJsonObject {{u"directory"_s, u"/repo/app"_s}};
        QTest::newRow("create nowhere")
            << int(Kind::Create) << u""_s << u""_s << u""_s << u"x"_s << u""_s << false << QJsonObject {};
        QTest::newRow("bad model") << int(Kind::Create) << u"/r"_s << u""_s << u""_s << u"x"_s << u"gpt"_s
                                   << false << QJsonObject {};
        QTest::newRow("send") << int(Kind::Send) << u"/r"_s << u""_s << u"ses_1"_s << u"more"_s << u""_s
                              << false
                              << QJsonObject {{u"sessionId"_s, u"ses_1"_s},
                                              {u"directory"_s, u"/r"_s},
                                              {u"prompt"_s, u"more"_s}};
        QTest::newRow("send without prompt") << int(Kind::Send) << u"/r"_s << u""_s << u"ses_1"_s << u" "_s
                                             << u""_s << false << QJsonObject {};
        QTest::newRow("fork without session")
            << int(Kind::Fork) << u"/r"_s << u""_s << u""_s << u"x"_s << u""_s << false << QJsonObject {};
    }
    void promptInputs()
    {
        QFETCH(int, kind);
        QFETCH(QString, directory);
        QFETCH(QString, projectId);
        QFETCH(QString, sessionId);
        QFETCH(QString, prompt);
        QFETCH(QString, model);
        QFETCH(bool, wait);
        QFETCH(QJsonObject, input);
        SessionsPresenter::PromptRequest r;
        r.kind = SessionsPresenter::Kind(kind);
        r.directory = directory;
        r.projectId = projectId;
        r.sessionId = sessionId;
        r.prompt = prompt;
        r.model = model;
        r.wait = wait;
        const auto built = SessionsPresenter::inputFor(r);
        if (input.isEmpty()) {
            QVERIFY(!built);
            QVERIFY(!built.error().isEmpty());
        } else {
            QVERIFY2(built, qPrintable(built ? QString() : built.error()));
            QCOMPARE(*built, input);
        }
    }

    void scheduleInputs()
    {
        using Kind = SchedulesPresenter::Kind;
        SchedulesPresenter::ScheduleRequest r;
        r.projectId = QStringLiteral("app");
        r.name = QStringLiteral("Nightly");
        r.prompt = QStringLiteral("summarise");
        r.model = QStringLiteral("openai/gpt-5.5");
        r.kind = Kind::Weekly;
        r.weekdays = {1, 3, 5};
        r.time = QStringLiteral("09:30");
        r.timezone = QStringLiteral("Europe/Kyiv");
        r.disabled = true;
        QCOMPARE(SchedulesPresenter::createInput(r),
                 (QJsonObject {{u"projectId"_s, u"app"_s},
                               {u"name"_s, u"Nightly"_s},
                               {u"prompt"_s, u"summarise"_s},
                               {u"model"_s, u"openai/gpt-5.5"_s},
                               {u"weekly"_s, u"1,3,5"_s},
                               {u"time"_s, u"09:30"_s},
                               {u"timezone"_s, u"Europe/Kyiv"_s},
                               {u"disabled"_s, true}}));
        r.kind = Kind::Cron;
        r.cron = QStringLiteral("0 9 * * 1-5");
        r.disabled = false;
        QCOMPARE(SchedulesPresenter::createInput(r).value(QStringLiteral("cron")).toString(), r.cron);
        QVERIFY(!SchedulesPresenter::createInput(r).contains(QStringLiteral("weekly")));
        r.kind = Kind::Once;
        r.date = QStringLiteral("2026-12-24");
        const QJsonObject once = SchedulesPresenter::createInput(r);
        QCOMPARE(once.value(QStringLiteral("once")).toString(), r.date);
        QCOMPARE(once.value(QStringLiteral("time")).toString(), r.time);
    }

    // A task that messages a peer: the peer instead of the project, and nothing a session needs.
    void scheduleInputsForAPeer()
    {
        SchedulesPresenter::ScheduleRequest r;
        r.peer = QStringLiteral(" reviewer ");
        r.projectId = QStringLiteral("app");
        r.name = QStringLiteral("Morning review");
        r.prompt = QStringLiteral("review the diff");
        r.model = QStringLiteral("openai/gpt-5.5");
        r.agent = QStringLiteral("build");
        r.variant = QStringLiteral("high");
        r.time = QStringLiteral("09:00");
        QCOMPARE(SchedulesPresenter::createInput(r),
                 (QJsonObject {{u"peer"_s, u"reviewer"_s},
                               {u"name"_s, u"Morning review"_s},
                               {u"prompt"_s, u"review the diff"_s},
                               {u"daily"_s, u"09:00"_s}}));
    }

    void schedulesModelShowsAPeerTasksTargetAndMessage()
    {
        SchedulesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QJsonObject sent = task(QStringLiteral("t1"), QStringLiteral("Morning review"), true,
                                {{QStringLiteral("lastStatus"), QStringLiteral("success")},
                                 {QStringLiteral("lastMessageId"), 42},
                                 {QStringLiteral("lastPeerId"), QStringLiteral("a1b2c3d4")}});
        sent.insert(QStringLiteral("execution"),
                    QJsonObject {{u"prompt"_s, u"review"_s}, {u"peer"_s, u"reviewer"_s}});
        model.setProjectTasks({}, {}, {}, {sent});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, SchedulesModel::ProjectColumn).data().toString(), u"peer reviewer"_s);
        QCOMPARE(model.index(0, 0).data(SchedulesModel::PeerRole).toString(), u"reviewer"_s);
        QCOMPARE(model.index(0, 0).data(SchedulesModel::LastMessageRole).toLongLong(), 42);
        QCOMPARE(model.index(0, 0).data(SchedulesModel::LastPeerIdRole).toString(), u"a1b2c3d4"_s);
        QCOMPARE(model.index(0, SchedulesModel::LastStatusColumn).data().toString(), u"sent message #42"_s);
        QCOMPARE(model.index(0, SchedulesModel::LastStatusColumn).data(Qt::ToolTipRole).toString(),
                 u"Message #42 to a1b2c3d4"_s);
        // A project refresh keeps the peer tasks (their project id is empty).
        model.retainProjects({QStringLiteral("app"), QString()});
        QCOMPARE(model.rowCount(), 1);
    }

    void schedulesModelShowsStateAndSessions()
    {
        SchedulesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDisplayZone(QTimeZone::utc());
        const qint64 next = T0.toMSecsSinceEpoch();
        model.setProjectTasks(
            QStringLiteral("app"), QStringLiteral("App"), QStringLiteral("/repo/app"),
            {task(QStringLiteral("t1"), QStringLiteral("Nightly"), true,
                  {{QStringLiteral("nextRunAt"), double(next)},
                   {QStringLiteral("lastStatus"), QStringLiteral("success")},
                   {QStringLiteral("lastSessionId"), QStringLiteral("ses_9")}}),
             task(QStringLiteral("t2"), QStringLiteral("Broken"), false,
                  {{QStringLiteral("lastStatus"), QStringLiteral("error")},
                   {QStringLiteral("lastError"), QStringLiteral("OpenCode is not reachable")}})});
        model.setProjectTasks(QStringLiteral("web"), QStringLiteral("Web"), QStringLiteral("/web"),
                              {task(QStringLiteral("t1"), QStringLiteral("Other"), true)});
        QCOMPARE(model.rowCount(), 3);
        const int t1 = model.rowOf(QStringLiteral("app"), QStringLiteral("t1"));
        const int t2 = model.rowOf(QStringLiteral("app"), QStringLiteral("t2"));
        QCOMPARE(model.index(t1, SchedulesModel::ScheduleColumn).data().toString(),
                 QStringLiteral("Daily at 09:00 (UTC)"));
        QCOMPARE(model.index(t1, SchedulesModel::NextRunColumn).data().toString(),
                 QStringLiteral("2026-12-01 10:00"));
        QCOMPARE(model.index(t1, SchedulesModel::LastRunColumn).data().toString(), QStringLiteral("—"));
        QCOMPARE(model.index(t1, SchedulesModel::LastStatusColumn).data().toString(),
                 QStringLiteral("succeeded"));
        QCOMPARE(model.index(t1, 0).data(SchedulesModel::LastSessionRole).toString(),
                 QStringLiteral("ses_9"));
        QCOMPARE(model.index(t1, 0).data(SchedulesModel::ProjectPathRole).toString(),
                 QStringLiteral("/repo/app"));
        QCOMPARE(model.index(t2, SchedulesModel::EnabledColumn).data().toString(),
                 QStringLiteral("disabled"));
        QCOMPARE(model.index(t2, SchedulesModel::LastStatusColumn).data().toString(),
                 QStringLiteral("failed: OpenCode is not reachable"));

        model.setProjectTasks(QStringLiteral("app"), QStringLiteral("App"), QStringLiteral("/repo/app"),
                              {task(QStringLiteral("t2"), QStringLiteral("Broken"), true)});
        QCOMPARE(model.rowCount(), 2);
        model.removeTask(QStringLiteral("app"), QStringLiteral("t2"));
        model.retainProjects({QStringLiteral("app")});
        QCOMPARE(model.rowCount(), 0);
    }

    void scheduleTexts()
    {
        QCOMPARE(SchedulesModel::scheduleText(
                     {{u"kind"_s, u"once"_s}, {u"date"_s, u"2026-12-24"_s}, {u"time"_s, u"18:00"_s}}),
                 QStringLiteral("Once on 2026-12-24 at 18:00"));
        QCOMPARE(SchedulesModel::scheduleText(
                     {{u"kind"_s, u"cron"_s}, {u"cron"_s, u"0 9 * * 1-5"_s}, {u"timezone"_s, u"UTC"_s}}),
                 QStringLiteral("Cron 0 9 * * 1-5 (UTC)"));
        const QString weekly = SchedulesModel::scheduleText({{u"kind"_s, u"weekly"_s},
                                                             {u"weekdays"_s, QJsonArray {0, 1}},
                                                             {u"times"_s, QJsonArray {u"07:15"_s}}});
        QVERIFY2(weekly.endsWith(QStringLiteral(" at 07:15")), qPrintable(weekly));
        QVERIFY(weekly.startsWith(QLocale().dayName(7, QLocale::ShortFormat))); // 0 = Sunday
    }

    void failuresInPlainWords()
    {
        Broker::ControlFailure fork;
        fork.status = 500;
        fork.message = QStringLiteral("prompt_async failed (500)");
        fork.partial = {{u"partial"_s, true},
                        {u"partialAction"_s, u"fork-created"_s},
                        {u"sessionId"_s, u"ses_f"_s},
                        {u"directory"_s, u"/r"_s}};
        QCOMPARE(
            ControlCalls::describe(fork),
            QStringLiteral("prompt_async failed (500) The forked session ses_f remains available in /r."));
        Broker::ControlFailure plain;
        plain.status = 400;
        plain.message = QStringLiteral("Unknown agent 'x' for /r");
        QCOMPARE(ControlCalls::describe(plain), plain.message);
        QCOMPARE(ControlCalls::timeoutFor({}), ControlCalls::DefaultTimeoutMs);
        QCOMPARE(ControlCalls::timeoutFor({{u"wait"_s, true}}), 600 * 1000 + ControlCalls::WaitMarginMs);
        QCOMPARE(ControlCalls::timeoutFor({{u"wait"_s, true}, {u"timeout"_s, 30}}),
                 30 * 1000 + ControlCalls::WaitMarginMs);
    }
};

QTEST_GUILESS_MAIN(tst_OpenCodeModels)
#include "tst_opencodemodels.moc"
