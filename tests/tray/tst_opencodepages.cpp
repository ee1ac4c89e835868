// The Sessions and Schedules pages offscreen against a real broker with the control service and
// the fake OpenCode server: what a user does on them, through the same /control actions as the
// CLI, and what the pages show (live status, last answers, the service's errors, the wait).
#include "app/tray/pages/opencodeactivity.h"
#include "app/tray/pages/schedulesmodel.h"
#include "app/tray/pages/schedulespage.h"
#include "app/tray/pages/schedulespresenter.h"
#include "app/tray/pages/sessionsmodel.h"
#include "app/tray/pages/sessionspage.h"
#include "app/tray/pages/sessionspresenter.h"
#include "openchamber/sessionwatcher.h"
#include "tests/support/testsupport.h"
#include "tests/tray/opencodefixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QTimeEdit>

using namespace App;
using namespace Qt::StringLiterals;
using TestSupport::scaled;

namespace {

// A Sessions page on the fixture's broker, its activity fed by the control service's events as
// the tray wires it.
struct SessionsUi
{
    OpenCodeActivity activity;
    SessionsPresenter *presenter;
    SessionsPage page;

    explicit SessionsUi(OpenCodeBrokerFixture &f)
        : presenter(new SessionsPresenter(f.client.get(), &activity)), page(presenter)
    {
        activity.follow(&f.backend->events());
        page.resize(1000, 700);
        page.show();
    }
    SessionsModel *model() const { return presenter->model(); }
    QString status(const QString &id) const
    {
        const int row = model()->rowOf(id);
        return row < 0 ? QString() : model()->index(row, 0).data(SessionsModel::StatusRole).toString();
    }
    QString answer(const QString &id) const
    {
        const int row = model()->rowOf(id);
        return row < 0 ? QString() : model()->index(row, 0).data(SessionsModel::LastAssistantRole).toString();
    }
};

QString sessionIdOf(const QJsonArray &sessions, int index)
{
    return sessions.at(index).toObject().value(u"id"_s).toString();
}

} // namespace

class tst_OpenCodePages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Create with a prompt and wait: the page shows the new session idle, selected, with the
    // assistant's answer — what `claude-peers session create --wait --last-assistant` prints.
    void createAndWaitShowsTheAnswer()
    {
        OpenCodeBrokerFixture f;
        QVERIFY(f.start());
        SessionsUi ui(f);
        QTRY_COMPARE_WITH_TIMEOUT(ui.page.whereBox()->count(), 1, scaled(10000));
        QVERIFY(ui.page.whereBox()->currentText().contains(f.repo));
        QTRY_VERIFY_WITH_TIMEOUT(ui.page.modelBox()->findText(u"openai/gpt-5.5"_s) >= 0, scaled(5000));
        QVERIFY(ui.page.agentBox()->findText(u"build"_s) >= 0); // models.list's default agent

        ui.page.titleEdit()->setText(u"Greeting"_s);
        ui.page.promptEdit()->setPlainText(u"Say hello"_s);
        ui.page.modelBox()->setCurrentText(u"openai/gpt-5.5"_s);
        QVERIFY(ui.page.waitBox()->isChecked());
        QSignalSpy finished(ui.presenter, &SessionsPresenter::actionFinished);
        ui.page.createButton()->click();
        QVERIFY(ui.presenter->isRunning());
        QVERIFY(ui.page.waitIndicator()->isVisible());
        QVERIFY(ui.page.cancelButton()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, scaled(20000));
        QVERIFY(!ui.page.waitIndicator()->isVisible());
        QVERIFY2(ui.page.errorLabel()->text().isEmpty(), qPrintable(ui.page.errorLabel()->text()));

        QCOMPARE(f.fake.sessions().size(), 1);
        const QString id = sessionIdOf(f.fake.sessions(), 0);
        QCOMPARE(finished.first().at(1).toJsonObject().value(u"sessionId"_s).toString(), id);
        QCOMPARE(ui.status(id), u"idle"_s);
        QCOMPARE(ui.answer(id), u"Hello from OpenCode"_s);
        QTRY_COMPARE_WITH_TIMEOUT(ui.page.selectedSessionId(), id, scaled(5000));
        QCOMPARE(ui.page.answerView()->toPlainText(), u"Hello from OpenCode"_s);
        const int row = ui.page.proxy()->mapFromSource(ui.model()->index(ui.model()->rowOf(id), 0)).row();
        QCOMPARE(ui.page.proxy()->index(row, SessionsModel::TitleColumn).data().toString(), u"Greeting"_s);
        QCOMPARE(ui.page.proxy()->index(row, SessionsModel::StateColumn).data().toString(), u"idle"_s);
        // The agent the service accepted for the prompt joins the picker.
        QVERIFY(ui.page.agentBox()->findText(u"build"_s) >= 0);

        // A refresh lists it again (session.list withStatus) and keeps the answer.
        QSignalSpy refreshed(ui.presenter, &SessionsPresenter::refreshed);
        ui.presenter->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), scaled(10000));
        QCOMPARE(ui.model()->rowCount(), 1);
        QCOMPARE(ui.answer(id), u"Hello from OpenCode"_s);
        QVERIFY2(ui.page.statusLabel()->text().contains(u"1 OpenCode session"_s),
                 qPrintable(ui.page.statusLabel()->text()));

        // Send and fork on the selected session, without waiting.
        ui.page.waitBox()->setChecked(false);
        ui.page.promptEdit()->setPlainText(u"And now?"_s);
        ui.page.sendButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, scaled(20000));
        QCOMPARE(finished.at(1).at(0).toString(), u"session.send"_s);
        ui.page.promptEdit()->setPlainText(u"Another way"_s);
        ui.page.forkButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, scaled(20000));
        QCOMPARE(f.fake.sessions().size(), 2);
        const QString fork = finished.at(2).at(1).toJsonObject().value(u"sessionId"_s).toString();
        QVERIFY(ui.model()->rowOf(fork) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(ui.page.selectedSessionId(), fork, scaled(5000));
    }

    // The service checks the agent against OpenCode before creating anything: its 400 text is
    // what the page says, and no session appears.
    void unknownAgentShowsTheServicesText()
    {
        OpenCodeBrokerFixture f;
        QVERIFY(f.start());
        SessionsUi ui(f);
        QTRY_COMPARE_WITH_TIMEOUT(ui.page.whereBox()->count(), 1, scaled(10000));
        ui.page.promptEdit()->setPlainText(u"hi"_s);
        ui.page.agentBox()->setCurrentText(u"not-an-agent"_s);
        QSignalSpy failed(ui.presenter, &SessionsPresenter::actionFailed);
        ui.page.createButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, scaled(20000));
        QCOMPARE(failed.first().at(1).toInt(), 400);
        QCOMPARE(ui.page.errorLabel()->text(), u"Unknown agent 'not-an-agent' for %1"_s.arg(f.repo));
        QCOMPARE(f.fake.sessions().size(), 0);
        QCOMPARE(ui.model()->rowCount(), 0);

        // Refused on the page itself, as the CLI refuses it: nothing reaches the broker.
        ui.page.agentBox()->setCurrentText(QString());
        ui.page.modelBox()->setCurrentText(u"gpt"_s);
        ui.page.createButton()->click();
        QCOMPARE(failed.size(), 2);
        QVERIFY(ui.page.errorLabel()->text().contains(u"provider/model"_s));
    }

    // Cancel aborts the request: the broker sees the client leave and cancels the wait.
    void cancelStopsTheWaitInTheBroker()
    {
        OpenCodeBrokerFixture f;
        f.fake.runDelayMs = 600000; // the run never ends during the test
        QVERIFY(f.start());
        SessionsUi ui(f);
        QTRY_COMPARE_WITH_TIMEOUT(ui.page.whereBox()->count(), 1, scaled(10000));
        ui.page.promptEdit()->setPlainText(u"take your time"_s);
        ui.page.createButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(f.module->actionsInFlight(), 1, scaled(10000));
        QTRY_VERIFY_WITH_TIMEOUT(ui.page.waitLabel()->text().contains(u"Waiting"_s), scaled(5000));
        QSignalSpy cancelled(ui.presenter, &SessionsPresenter::actionCancelled);
        ui.page.cancelButton()->click();
        QCOMPARE(cancelled.size(), 1);
        QVERIFY(!ui.presenter->isRunning());
        QVERIFY(!ui.page.waitIndicator()->isVisible());
        QVERIFY(ui.page.errorLabel()->text().startsWith(u"Cancelled"_s));
        QTRY_COMPARE_WITH_TIMEOUT(f.module->actionsInFlight(), 0, scaled(10000));
    }

    // OpenCode's own events (through the control service's session watcher) move the row:
    // busy, needs you for a permission, idle with the answer; and the tray's attention has it.
    void liveStatusAndNeedsYouFromEvents()
    {
        OpenCodeBrokerFixture f;
        f.fake.runDelayMs = 600000; // the test ends the run itself
        QVERIFY(f.start());
        SessionsUi ui(f);
        QTRY_COMPARE_WITH_TIMEOUT(ui.page.whereBox()->count(), 1, scaled(10000));
        // The configured project's events are followed from the service's start.
        QTRY_VERIFY_WITH_TIMEOUT(
            f.backend->sessionWatcher() && f.backend->sessionWatcher()->isConnected(f.repo), scaled(10000));
        ui.page.waitBox()->setChecked(false);
        ui.page.promptEdit()->setPlainText(u"work"_s);
        QSignalSpy finished(ui.presenter, &SessionsPresenter::actionFinished);
        ui.page.createButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, scaled(20000));
        const QString id = finished.first().at(1).toJsonObject().value(u"sessionId"_s).toString();
        QTRY_COMPARE_WITH_TIMEOUT(ui.status(id), u"busy"_s, scaled(10000));
        QSignalSpy attention(&ui.activity, &OpenCodeActivity::attentionChanged);

        f.askPermission(id, u"per_1"_s, u"bash"_s, u"make"_s);
        QTRY_COMPARE_WITH_TIMEOUT(
            ui.model()->index(ui.model()->rowOf(id), 0).data(SessionsModel::WaitingForRole).toString(),
            u"permission"_s, scaled(10000));
        QCOMPARE(ui.model()->index(ui.model()->rowOf(id), SessionsModel::StateColumn).data().toString(),
                 u"needs you (permission: bash: make)"_s);
        QVERIFY(!attention.isEmpty());
        QCOMPARE(ui.activity.attentionItems().size(), 1);
        QCOMPARE(ui.activity.attentionItems().first().state, Broker::Attention::NeedsYou);
        QCOMPARE(ui.activity.attentionItems().first().peerId, id);

        f.answerPermission(id, u"per_1"_s);
        QTRY_COMPARE_WITH_TIMEOUT(
            ui.model()->index(ui.model()->rowOf(id), 0).data(SessionsModel::WaitingForRole).toString(),
            QString(), scaled(10000));
        f.fake.replyText = u"Built it"_s;
        f.fake.setStatus(id, u"busy"_s); // keeps the fake's run alive; then it ends:
        QMetaObject::invokeMethod(&f.fake, [&f, id] {
            f.fake.addMessage(id, u"assistant"_s, u"Built it"_s, QDateTime::currentMSecsSinceEpoch(),
                              QDateTime::currentMSecsSinceEpoch());
            f.fake.setStatus(id, u"idle"_s);
        });
        QTRY_COMPARE_WITH_TIMEOUT(ui.status(id), u"idle"_s, scaled(10000));
        // A run that ended: its answer is read (session.messages lastAssistant).
        QTRY_COMPARE_WITH_TIMEOUT(ui.answer(id), u"Built it"_s, scaled(10000));
        QVERIFY(ui.activity.attentionItems().isEmpty());
    }

    // A session started elsewhere (another client of the same OpenCode) is first known by an
    // event, which has no title: the tray lists its folder once, so the Peers page, the menu and
    // notifications name it, without the Sessions page ever being shown.
    void sessionStartedElsewhereGetsItsTitle()
    {
        OpenCodeBrokerFixture f;
        QVERIFY(f.start());
        OpenCodeActivity activity;
        activity.follow(&f.backend->events());
        SessionsPresenter presenter(f.client.get(), &activity); // its page is never shown
        QTRY_VERIFY_WITH_TIMEOUT(
            f.backend->sessionWatcher() && f.backend->sessionWatcher()->isConnected(f.repo), scaled(10000));

        QMetaObject::invokeMethod(&f.fake, [&f] {
            f.fake.addSession(f.repo, u"ses_elsewhere"_s, u"Fix the flaky checkout test"_s);
            f.fake.setStatus(u"ses_elsewhere"_s, u"busy"_s);
        });
        QTRY_VERIFY_WITH_TIMEOUT(activity.session(u"ses_elsewhere"_s).has_value(), scaled(10000));
        QTRY_COMPARE_WITH_TIMEOUT(activity.session(u"ses_elsewhere"_s)->title,
                                  u"Fix the flaky checkout test"_s, scaled(10000));
    }

    void openCodeUnreachableSaysWhatToRun()
    {
        const quint16 closed = TestSupport::freePort();
        OpenCodeBrokerFixture f(false, u"http://127.0.0.1:%1"_s.arg(closed));
        QVERIFY(f.start());
        SessionsUi ui(f);
        QTRY_VERIFY2_WITH_TIMEOUT(ui.page.statusLabel()->text().contains(u"not reachable"_s),
                                  qPrintable(ui.page.statusLabel()->text()), scaled(20000));
        QVERIFY2(ui.page.statusLabel()->text().contains(u"opencode serve"_s),
                 qPrintable(ui.page.statusLabel()->text()));
    }

    // Create a schedule, run it now, see its last run and open its session; toggle; delete.
    void schedulesCreateRunToggleDelete()
    {
        OpenCodeBrokerFixture f(false);
        QVERIFY(f.start());
        SchedulesPresenter *presenter = new SchedulesPresenter(f.client.get());
        SchedulesPage page(presenter);
        page.resize(1000, 700);
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(page.projectBox()->count(), 1, scaled(10000));
        QVERIFY(page.timeZoneBox()->count() > 100);
        QTRY_COMPARE_WITH_TIMEOUT(page.modelBox()->currentText(), u"openai/gpt-5.5"_s, scaled(5000));

        // A zone that does not exist: the service's refusal is shown under the form.
        page.nameEdit()->setText(u"Nightly"_s);
        page.promptEdit()->setPlainText(u"Summarise the day"_s);
        page.timeEdit()->setTime(QTime(9, 30));
        page.timeZoneBox()->setCurrentText(u"Mars/Olympus"_s);
        page.createButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page.createErrorLabel()->text().isEmpty(), scaled(10000));
        QVERIFY2(page.createErrorLabel()->text().contains(u"timezone"_s),
                 qPrintable(page.createErrorLabel()->text()));
        QCOMPARE(presenter->model()->rowCount(), 0);

        page.timeZoneBox()->setCurrentText(u"Europe/Berlin"_s);
        QSignalSpy created(presenter, &SchedulesPresenter::created);
        page.createButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(created.size(), 1, scaled(10000));
        QVERIFY(page.createErrorLabel()->text().isEmpty());
        QCOMPARE(presenter->model()->rowCount(), 1);
        const QString taskId = created.first().at(1).toString();
        QCOMPARE(presenter->model()->index(0, SchedulesModel::ScheduleColumn).data().toString(),
                 u"Daily at 09:30 (Europe/Berlin)"_s);
        QVERIFY(presenter->model()->index(0, SchedulesModel::NextRunColumn).data().toString() != u"—"_s);
        QCOMPARE(presenter->model()->index(0, SchedulesModel::LastStatusColumn).data().toString(),
                 u"not run yet"_s);
        QVERIFY(page.runButton()->isEnabled()); // the new task is selected
        QVERIFY(!page.openSessionButton()->isEnabled());

        QSignalSpy ran(presenter, &SchedulesPresenter::ran);
        page.runButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 1, scaled(20000));
        const QString session = ran.first().at(2).toString();
        QVERIFY(!session.isEmpty());
        QCOMPARE(f.fake.sessions().size(), 1);
        QCOMPARE(sessionIdOf(f.fake.sessions(), 0), session);
        QCOMPARE(presenter->model()->index(0, 0).data(SchedulesModel::LastSessionRole).toString(), session);
        QCOMPARE(presenter->model()->index(0, 0).data(SchedulesModel::LastStatusRole).toString(),
                 u"success"_s);
        QVERIFY(presenter->model()->index(0, SchedulesModel::LastRunColumn).data().toString() != u"—"_s);

        // "Open the session" asks for the Sessions page on it; that page selects it.
        OpenCodeActivity activity;
        SessionsPage sessions(new SessionsPresenter(f.client.get(), &activity));
        connect(&page, &SchedulesPage::openSessionRequested, &sessions, &SessionsPage::selectSession);
        QSignalSpy open(&page, &SchedulesPage::openSessionRequested);
        QVERIFY(page.openSessionButton()->isEnabled());
        page.openSessionButton()->click();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first(), (QVariantList {f.repo, session}));
        QTRY_COMPARE_WITH_TIMEOUT(sessions.selectedSessionId(), session, scaled(10000));

        QSignalSpy acted(presenter, &SchedulesPresenter::actionFinished);
        page.toggleButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(acted.size(), 1, scaled(10000));
        QCOMPARE(presenter->model()->index(0, 0).data(SchedulesModel::EnabledRole).toBool(), false);
        QCOMPARE(page.toggleButton()->text(), u"Enable"_s);
        QCOMPARE(presenter->model()->index(0, SchedulesModel::NextRunColumn).data().toString(), u"—"_s);
        page.toggleButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(acted.size(), 2, scaled(10000));
        QCOMPARE(presenter->model()->index(0, 0).data(SchedulesModel::EnabledRole).toBool(), true);

        // Delete asks first; "no" keeps it.
        QStringList asked;
        bool answer = false;
        page.setConfirm([&](const QString &question) {
            asked << question;
            return answer;
        });
        page.deleteButton()->click();
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked.first().contains(u"Nightly"_s));
        QCOMPARE(presenter->model()->rowCount(), 1);
        answer = true;
        page.deleteButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(presenter->model()->rowCount(), 0, scaled(10000));
        // Gone in the broker too: a fresh listing finds nothing.
        QSignalSpy refreshed(presenter, &SchedulesPresenter::refreshed);
        presenter->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), scaled(10000));
        QCOMPARE(presenter->model()->rowCount(), 0);
        QVERIFY(f.harness
                    .post(u"/control"_s,
                          {{u"action"_s, u"schedule.list"_s},
                           {u"input"_s, QJsonObject {{u"projectId"_s, u"app"_s}}}})
                    .object()
                    .value(u"tasks"_s)
                    .toArray()
                    .isEmpty());
        Q_UNUSED(taskId);
    }

    // A task that messages a peer (docs/divergences.md "Scheduled tasks that message a peer"):
    // picked from the live peers, listed with its target, run now, its message opened; its error
    // shown when the peer is gone.
    void schedulesPageTargetsAPeer()
    {
        OpenCodeBrokerFixture f(false);
        QVERIFY(f.start());
        const RegisteredPeer reviewer = f.harness.registerPeer(u"/work/review"_s, {}, {}, u"reviewer"_s);
        SchedulesPresenter *presenter = new SchedulesPresenter(f.client.get());
        SchedulesPage page(presenter);
        page.resize(1000, 700);
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(page.peerBox()->count(), 1, scaled(10000));
        QCOMPARE(page.peerBox()->itemText(0), u"reviewer"_s);
        QVERIFY(!page.peerBox()->isEnabled());
        page.targetBox()->setCurrentIndex(1);
        QVERIFY(page.peerBox()->isEnabled());
        QVERIFY(!page.projectBox()->isEnabled());
        QVERIFY(!page.modelBox()->isEnabled());
        QVERIFY(!page.agentEdit()->isEnabled());

        page.nameEdit()->setText(u"Morning review"_s);
        page.promptEdit()->setPlainText(u"review yesterday's commits"_s);
        page.timeEdit()->setTime(QTime(9, 0));
        page.timeZoneBox()->setCurrentText(u"Europe/Berlin"_s);
        page.peerBox()->setCurrentText(QString());
        page.createButton()->click();
        QVERIFY(page.createErrorLabel()->text().contains(u"Choose the peer"_s));

        page.peerBox()->setCurrentText(page.peerBox()->itemText(0)); // picked from the list
        QSignalSpy created(presenter, &SchedulesPresenter::created);
        page.createButton()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(created.size() == 1, qPrintable(page.createErrorLabel()->text()),
                                  scaled(10000));
        QVERIFY2(page.createErrorLabel()->text().isEmpty(), qPrintable(page.createErrorLabel()->text()));
        QCOMPARE(created.first().at(0).toString(), QString()); // outside the projects
        QCOMPARE(presenter->model()->rowCount(), 1);
        QCOMPARE(presenter->model()->index(0, SchedulesModel::ProjectColumn).data().toString(),
                 u"peer reviewer"_s);
        QCOMPARE(presenter->model()->headerData(SchedulesModel::ProjectColumn, Qt::Horizontal).toString(),
                 u"Target"_s);
        QCOMPARE(presenter->model()->index(0, 0).data(SchedulesModel::PeerRole).toString(), u"reviewer"_s);
        QCOMPARE(page.openSessionButton()->text(), u"Open the message"_s);
        QVERIFY(!page.openSessionButton()->isEnabled());

        QSignalSpy sent(presenter, &SchedulesPresenter::messageSent);
        page.runButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(sent.size(), 1, scaled(10000));
        QCOMPARE(sent.first().at(1).toString(), reviewer.id);
        const qint64 messageId = sent.first().at(2).toLongLong();
        const QJsonArray received = f.harness.poll(reviewer.id);
        QCOMPARE(received.size(), 1);
        QCOMPARE(received.first()[u"id"_s].toInteger(), messageId);
        QCOMPARE(received.first()[u"from_id"_s].toString(), u"operator"_s);
        QCOMPARE(received.first()[u"text"_s].toString(), u"review yesterday's commits"_s);
        QCOMPARE(presenter->model()->index(0, SchedulesModel::LastStatusColumn).data().toString(),
                 u"sent message #%1"_s.arg(messageId));
        QVERIFY(page.statusLabel()->text().contains(u"#%1"_s.arg(messageId)));

        QSignalSpy open(&page, &SchedulesPage::openMessageRequested);
        QVERIFY(page.openSessionButton()->isEnabled());
        page.openSessionButton()->click();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first(), (QVariantList {reviewer.id, messageId}));

        // The peer is gone: the run fails with the service's words, and the list shows them.
        f.harness.endSession(reviewer.pid);
        QSignalSpy failed(presenter, &SchedulesPresenter::actionFailed);
        page.runButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, scaled(10000));
        QVERIFY2(page.statusLabel()->text().contains(u"no peer named reviewer is connected"_s),
                 qPrintable(page.statusLabel()->text()));
        QSignalSpy refreshed(presenter, &SchedulesPresenter::refreshed);
        presenter->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), scaled(10000));
        QCOMPARE(presenter->model()->index(0, SchedulesModel::LastStatusColumn).data().toString(),
                 u"failed: no peer named reviewer is connected"_s);
        QVERIFY(!page.openSessionButton()->isEnabled());

        QStringList asked;
        page.setConfirm([&](const QString &question) {
            asked << question;
            return true;
        });
        page.deleteButton()->click();
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(u"The messages it sent stay"_s), qPrintable(asked.first()));
        QTRY_COMPARE_WITH_TIMEOUT(presenter->model()->rowCount(), 0, scaled(10000));
    }
};

QTEST_MAIN(tst_OpenCodePages)
#include "tst_opencodepages.moc"
