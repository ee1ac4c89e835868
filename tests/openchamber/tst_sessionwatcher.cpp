#include "openchamber/controlsettings.h"
#include "openchamber/opencodeclient.h"
#include "openchamber/sessionservice.h"
#include "openchamber/sessionwatcher.h"
#include "tests/openchamber/fakeopencode.h"
#include "tests/openchamber/servicefixture.h"

#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

QJsonObject statusEvent(const QString &sessionId, const QString &type)
{
    return {{QStringLiteral("type"), QStringLiteral("session.status")},
            {QStringLiteral("properties"),
             QJsonObject {{QStringLiteral("sessionID"), sessionId},
                          {QStringLiteral("status"), QJsonObject {{QStringLiteral("type"), type}}}}}};
}

QJsonObject idleEvent(const QString &sessionId)
{
    return {{QStringLiteral("type"), QStringLiteral("session.idle")},
            {QStringLiteral("properties"), QJsonObject {{QStringLiteral("sessionID"), sessionId}}}};
}

// A watcher on a client of a fake OpenCode.
struct WatchFixture
{
    FakeOpenCode fake;
    OpenCodeClient client {OpenCodeClient::Options {fake.url()}};
    SessionWatcher watcher {client};
};

} // namespace

// The tray-facing session status (issue 10 §2): what OpenCode's /event stream says about the
// sessions of watched directories, as signals, against the fake OpenCode.
class tst_SessionWatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reportsStatusChangesOnce();
    void reportsSessionErrors();
    void reportsWhatASessionWaitsFor();
    void keepsDirectoriesApart();
    void reconnectsWhenTheStreamEnds();
    void followsTheDirectoriesPromptsWentTo();
};

void tst_SessionWatcher::reportsStatusChangesOnce()
{
    WatchFixture f;
    FakeOpenCode &fake = f.fake;
    SessionWatcher &watcher = f.watcher;
    QSignalSpy changed(&watcher, &SessionWatcher::sessionStatusChanged);
    watcher.watch(QStringLiteral("/repo"));
    watcher.watch(QStringLiteral("/repo")); // once
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isConnected(QStringLiteral("/repo")), TestSupport::scaled(5000));
    QCOMPARE(fake.eventStreams(), 1);

    fake.emitEvent(QStringLiteral("/repo"), statusEvent(QStringLiteral("ses_1"), QStringLiteral("busy")));
    fake.emitEvent(QStringLiteral("/repo"), statusEvent(QStringLiteral("ses_1"), QStringLiteral("busy")));
    fake.emitEvent(QStringLiteral("/repo"), statusEvent(QStringLiteral("ses_1"), QStringLiteral("idle")));
    fake.emitEvent(QStringLiteral("/repo"), idleEvent(QStringLiteral("ses_1"))); // the deprecated alias
    // A last change that arrives after all of the above: once it is there, the rest was read.
    fake.emitEvent(QStringLiteral("/repo"), statusEvent(QStringLiteral("ses_2"), QStringLiteral("retry")));
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 3, TestSupport::scaled(5000));
    QCOMPARE(changed.at(0),
             (QVariantList {QStringLiteral("/repo"), QStringLiteral("ses_1"), QStringLiteral("busy")}));
    QCOMPARE(changed.at(1),
             (QVariantList {QStringLiteral("/repo"), QStringLiteral("ses_1"), QStringLiteral("idle")}));
    QCOMPARE(changed.at(2),
             (QVariantList {QStringLiteral("/repo"), QStringLiteral("ses_2"), QStringLiteral("retry")}));
    QCOMPARE(watcher.status(QStringLiteral("ses_1")), QStringLiteral("idle"));
}

void tst_SessionWatcher::reportsSessionErrors()
{
    WatchFixture f;
    FakeOpenCode &fake = f.fake;
    SessionWatcher &watcher = f.watcher;
    QSignalSpy failed(&watcher, &SessionWatcher::sessionFailed);
    watcher.watch(QStringLiteral("/repo"));
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isConnected(QStringLiteral("/repo")), TestSupport::scaled(5000));
    fake.emitEvent(
        QStringLiteral("/repo"),
        {{QStringLiteral("type"), QStringLiteral("session.error")},
         {QStringLiteral("properties"),
          QJsonObject {
              {QStringLiteral("sessionID"), QStringLiteral("ses_1")},
              {QStringLiteral("error"),
               QJsonObject {{QStringLiteral("name"), QStringLiteral("ProviderAuthError")},
                            {QStringLiteral("data"),
                             QJsonObject {{QStringLiteral("message"), QStringLiteral("bad key")}}}}}}}});
    fake.emitEvent(
        QStringLiteral("/repo"),
        {{QStringLiteral("type"), QStringLiteral("session.error")},
         {QStringLiteral("properties"),
          QJsonObject {{QStringLiteral("error"),
                        QJsonObject {{QStringLiteral("name"), QStringLiteral("UnknownError")}}}}}});
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 2, TestSupport::scaled(5000));
    QCOMPARE(failed.at(0),
             (QVariantList {QStringLiteral("/repo"), QStringLiteral("ses_1"), QStringLiteral("bad key")}));
    QCOMPARE(failed.at(1),
             (QVariantList {QStringLiteral("/repo"), QString(), QStringLiteral("UnknownError")}));
}

// Permission and question requests make a session wait for the user until they are answered
// (OpenCode v2 events, and v1's permission.updated/permissionID), or until the session is idle.
void tst_SessionWatcher::reportsWhatASessionWaitsFor()
{
    WatchFixture f;
    FakeOpenCode &fake = f.fake;
    SessionWatcher &watcher = f.watcher;
    QSignalSpy waiting(&watcher, &SessionWatcher::sessionWaitingChanged);
    watcher.watch(QStringLiteral("/repo"));
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isConnected(QStringLiteral("/repo")), TestSupport::scaled(5000));
    const auto event = [](const char *type, const QJsonObject &properties) {
        return QJsonObject {{QStringLiteral("type"), QLatin1String(type)},
                            {QStringLiteral("properties"), properties}};
    };
    const QString ses = QStringLiteral("ses_1");
    fake.emitEvent(QStringLiteral("/repo"),
                   event("permission.asked",
                         {{QStringLiteral("id"), QStringLiteral("per_1")},
                          {QStringLiteral("sessionID"), ses},
                          {QStringLiteral("permission"), QStringLiteral("bash")},
                          {QStringLiteral("patterns"), QJsonArray {QStringLiteral("rm *")}}}));
    fake.emitEvent(
        QStringLiteral("/repo"),
        event("question.asked",
              {{QStringLiteral("id"), QStringLiteral("que_1")},
               {QStringLiteral("sessionID"), ses},
               {QStringLiteral("questions"),
                QJsonArray {QJsonObject {{QStringLiteral("question"), QStringLiteral("Which branch?")},
                                         {QStringLiteral("header"), QStringLiteral("Branch")}}}}}));
    fake.emitEvent(
        QStringLiteral("/repo"),
        event("question.rejected",
              {{QStringLiteral("sessionID"), ses}, {QStringLiteral("requestID"), QStringLiteral("que_1")}}));
    fake.emitEvent(QStringLiteral("/repo"),
                   event("permission.replied",
                         {{QStringLiteral("sessionID"), ses},
                          {QStringLiteral("requestID"), QStringLiteral("per_1")},
                          {QStringLiteral("reply"), QStringLiteral("once")}}));
    // v1: permission.updated with a title, answered by permissionID; then idle ends a second one.
    fake.emitEvent(QStringLiteral("/repo"),
                   event("permission.updated",
                         {{QStringLiteral("id"), QStringLiteral("per_2")},
                          {QStringLiteral("sessionID"), ses},
                          {QStringLiteral("title"), QStringLiteral("Edit a.txt")}}));
    fake.emitEvent(QStringLiteral("/repo"),
                   event("permission.replied",
                         {{QStringLiteral("sessionID"), ses},
                          {QStringLiteral("permissionID"), QStringLiteral("per_2")},
                          {QStringLiteral("response"), QStringLiteral("once")}}));
    fake.emitEvent(QStringLiteral("/repo"),
                   event("question.asked",
                         {{QStringLiteral("id"), QStringLiteral("que_2")},
                          {QStringLiteral("sessionID"), ses},
                          {QStringLiteral("questions"), QJsonArray {}}}));
    fake.emitEvent(QStringLiteral("/repo"), statusEvent(ses, QStringLiteral("busy")));
    fake.emitEvent(QStringLiteral("/repo"), statusEvent(ses, QStringLiteral("idle")));
    QTRY_COMPARE_WITH_TIMEOUT(waiting.size(), 8, TestSupport::scaled(5000));
    const QString repo = QStringLiteral("/repo");
    const QList<QVariantList> expected {
        {repo, ses, QStringLiteral("permission"), QStringLiteral("bash: rm *")},
        {repo, ses, QStringLiteral("question"), QStringLiteral("Which branch?")},
        {repo, ses, QStringLiteral("permission"), QStringLiteral("bash: rm *")}, // the question went
        {repo, ses, QString(), QString()},
        {repo, ses, QStringLiteral("permission"), QStringLiteral("Edit a.txt")},
        {repo, ses, QString(), QString()},
        {repo, ses, QStringLiteral("question"), QString()},
        {repo, ses, QString(), QString()}, // idle
    };
    for (int i = 0; i < expected.size(); ++i)
        QCOMPARE(waiting.at(i), expected.at(i));
}

void tst_SessionWatcher::keepsDirectoriesApart()
{
    WatchFixture f;
    FakeOpenCode &fake = f.fake;
    SessionWatcher &watcher = f.watcher;
    QSignalSpy changed(&watcher, &SessionWatcher::sessionStatusChanged);
    watcher.watch(QStringLiteral("/a"));
    watcher.watch(QStringLiteral("/b"));
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isConnected(QStringLiteral("/a")) &&
                                 watcher.isConnected(QStringLiteral("/b")),
                             TestSupport::scaled(5000));
    fake.emitEvent(QStringLiteral("/b"), statusEvent(QStringLiteral("ses_b"), QStringLiteral("busy")));
    fake.emitEvent(QStringLiteral("/elsewhere"),
                   statusEvent(QStringLiteral("ses_x"), QStringLiteral("busy")));
    fake.emitEvent(QStringLiteral("/a"), statusEvent(QStringLiteral("ses_a"), QStringLiteral("busy")));
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, TestSupport::scaled(5000));
    QSet<QString> seen;
    for (const QVariantList &args : changed)
        seen.insert(args.at(0).toString() + QLatin1Char(' ') + args.at(1).toString());
    QCOMPARE(seen, (QSet<QString> {QStringLiteral("/a ses_a"), QStringLiteral("/b ses_b")}));
}

void tst_SessionWatcher::reconnectsWhenTheStreamEnds()
{
    WatchFixture f;
    FakeOpenCode &fake = f.fake;
    SessionWatcher &watcher = f.watcher;
    QSignalSpy changed(&watcher, &SessionWatcher::sessionStatusChanged);
    watcher.watch(QStringLiteral("/repo"));
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isConnected(QStringLiteral("/repo")), TestSupport::scaled(5000));
    const int before = fake.count("GET", QStringLiteral("/event"));
    fake.dropEventStreams();
    QTRY_VERIFY_WITH_TIMEOUT(!watcher.isConnected(QStringLiteral("/repo")), TestSupport::scaled(5000));
    // Opened again after the first retry delay (1 s).
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isConnected(QStringLiteral("/repo")),
                             TestSupport::scaled(SessionWatcher::firstRetryMs + 5000));
    QCOMPARE(fake.count("GET", QStringLiteral("/event")), before + 1);
    fake.emitEvent(QStringLiteral("/repo"), statusEvent(QStringLiteral("ses_1"), QStringLiteral("busy")));
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, TestSupport::scaled(5000));
}

// As the broker host wires it (OpenCodeBackend::connectEvents): a directory the service sent a
// prompt to is watched from then on, so the run's busy → idle reaches the tray.
void tst_SessionWatcher::followsTheDirectoriesPromptsWentTo()
{
    ServiceFixture f(true);
    f.offerTypicalInstance();
    // The run ends later, with session.status/session.idle events the watcher must be there for.
    f.fake.runDelayMs = TestSupport::scaled(1500);
    SessionWatcher watcher(*f.client);
    QObject::connect(f.service.get(), &SessionService::promptDispatched, &watcher,
                     [&watcher](const QString &directory, const QString &) { watcher.watch(directory); });
    QSignalSpy dispatched(f.service.get(), &SessionService::promptDispatched);
    QSignalSpy changed(&watcher, &SessionWatcher::sessionStatusChanged);

    const ControlResult created = f.run(QStringLiteral("session.create"),
                                        {{QStringLiteral("directory"), f.repo()},
                                         {QStringLiteral("prompt"), QStringLiteral("hi")},
                                         {QStringLiteral("model"), QStringLiteral("openai/gpt-5.5")}});
    QVERIFY2(created.has_value(), qPrintable(created ? QString() : created.error().message));
    QCOMPARE(dispatched.size(), 1);
    const QString sessionId = created->value(QStringLiteral("sessionId")).toString();
    QCOMPARE(watcher.directories(), QStringList {f.repo()});
    QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty() && changed.last().at(2).toString() == QLatin1String("idle"),
                             TestSupport::scaled(10000));
    QCOMPARE(changed.last().at(0).toString(), f.repo());
    QCOMPARE(changed.last().at(1).toString(), sessionId);
}

QTEST_GUILESS_MAIN(tst_SessionWatcher)
#include "tst_sessionwatcher.moc"
