#include "openchamber/managedopencode.h"
#include "openchamber/opencodeclient.h"

#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace OpenChamber;

namespace {

// A python stand-in for `opencode serve` (data/fake-opencode-serve.py): health and Basic auth.
ManagedOpenCode::Options fakeServer(const QString &home)
{
    ManagedOpenCode::Options options;
    options.binary = QStringLiteral(PEERS_FAKE_OPENCODE);
    options.workingDirectory = home;
    options.environment = QProcessEnvironment::systemEnvironment();
    options.healthIntervalMs = 50;
    options.firstRestartDelayMs = 100;
    options.maxRestartDelayMs = 400;
    options.stopGraceMs = 2000;
    return options;
}

bool processAlive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

OpenCodeResult<QJsonValue> health(OpenCodeClient &client)
{
    std::optional<OpenCodeResult<QJsonValue>> result;
    QObject context;
    client.get(QStringLiteral("/global/health"), {}, {}, &context,
               [&result](OpenCodeResult<QJsonValue> r) { result = std::move(r); });
    if (!QTest::qWaitFor([&result] { return result.has_value(); }, TestSupport::scaled(10000)))
        return std::unexpected(
            OpenCodeError {OpenCodeError::Kind::Timeout, QStringLiteral("test: no answer"), 0, {}});
    return *result;
}

} // namespace

// The OpenCode the broker runs itself (issue 10 §1, docs/openchamber.md "Managed OpenCode").
class tst_ManagedOpenCode : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsItsConfigKeys();
    void startsOnALoopbackPortWithItsPassword();
    void restartsOnANewPortAfterAnExit();
    void restartsWhenNeverHealthy();
    void stopEndsTheProcess();
    void missingBinaryFailsAtOnceWithWhatToSet();
};

void tst_ManagedOpenCode::readsItsConfigKeys()
{
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("HOME"), QStringLiteral("/home/u"));
    const auto config = [](const QJsonObject &section) {
        return QJsonObject {{QStringLiteral("openchamber"), section}};
    };
    QVERIFY(!ManagedOpenCode::fromConfig({}, environment));
    QVERIFY(!ManagedOpenCode::fromConfig(config({{QStringLiteral("manage_opencode"), false}}), environment));
    QVERIFY(!ManagedOpenCode::fromConfig(
        config({{QStringLiteral("manage_opencode"), QStringLiteral("true")}}), environment));
    const auto defaults =
        ManagedOpenCode::fromConfig(config({{QStringLiteral("manage_opencode"), true}}), environment);
    QVERIFY(defaults);
    QCOMPARE(defaults->binary, QStringLiteral("opencode"));
    QCOMPARE(defaults->workingDirectory, QStringLiteral("/home/u"));
    const auto set =
        ManagedOpenCode::fromConfig(config({{QStringLiteral("manage_opencode"), true},
                                            {QStringLiteral("opencode_binary"), QStringLiteral(" /opt/oc ")},
                                            {QStringLiteral("opencode_directory"), QStringLiteral("/srv")}}),
                                    environment);
    QVERIFY(set);
    QCOMPARE(set->binary, QStringLiteral("/opt/oc"));
    QCOMPARE(set->workingDirectory, QStringLiteral("/srv"));
}

void tst_ManagedOpenCode::startsOnALoopbackPortWithItsPassword()
{
    QTemporaryDir home;
    OpenCodeClient client(OpenCodeClient::Options {});
    ManagedOpenCode managed(client, fakeServer(home.path()));
    // Before the start the client already points at the port the server will get, never at the
    // configured default.
    QCOMPARE(client.baseUrl().host(), QStringLiteral("127.0.0.1"));
    QVERIFY(client.baseUrl().port() > 0);
    QVERIFY(client.baseUrl().port() != 4096);
    QSignalSpy ready(&managed, &ManagedOpenCode::ready);
    managed.start("s3cret");
    QCOMPARE(managed.state(), ManagedOpenCode::State::Starting);
    QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, TestSupport::scaled(15000));
    QCOMPARE(managed.state(), ManagedOpenCode::State::Running);
    QCOMPARE(ready.at(0).at(0).toUrl(), client.baseUrl());
    QVERIFY(processAlive(managed.pid()));
    const auto answer = health(client); // with the password the client was given
    QVERIFY2(answer.has_value(), qPrintable(answer ? QString() : answer.error().message));
    client.setPassword("wrong");
    QCOMPARE(health(client).error().kind, OpenCodeError::Kind::Unauthorized);
}

void tst_ManagedOpenCode::restartsOnANewPortAfterAnExit()
{
    QTemporaryDir home;
    OpenCodeClient client(OpenCodeClient::Options {});
    ManagedOpenCode managed(client, fakeServer(home.path()));
    QSignalSpy ready(&managed, &ManagedOpenCode::ready);
    QSignalSpy states(&managed, &ManagedOpenCode::stateChanged);
    managed.start("pw");
    QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, TestSupport::scaled(15000));
    const qint64 first = managed.pid();
    const QUrl firstUrl = managed.url();
    ::kill(pid_t(first), SIGKILL);
    QTRY_VERIFY_WITH_TIMEOUT(
        states.contains(QVariantList {QVariant::fromValue(ManagedOpenCode::State::Restarting)}),
        TestSupport::scaled(5000));
    QVERIFY(managed.explanation().contains(QLatin1String("starts it again")));
    QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 2, TestSupport::scaled(15000));
    QVERIFY(managed.pid() != first);
    QVERIFY(managed.url() != firstUrl);
    QCOMPARE(client.baseUrl(), managed.url());
    QCOMPARE(managed.starts(), 2);
    QVERIFY(health(client).has_value());
}

void tst_ManagedOpenCode::restartsWhenNeverHealthy()
{
    QTemporaryDir home;
    OpenCodeClient client(OpenCodeClient::Options {});
    ManagedOpenCode::Options options = fakeServer(home.path());
    options.environment.insert(QStringLiteral("FAKE_OPENCODE_UNHEALTHY"), QStringLiteral("1"));
    options.healthTimeoutMs = TestSupport::scaled(1500);
    ManagedOpenCode managed(client, options);
    QSignalSpy ready(&managed, &ManagedOpenCode::ready);
    managed.start("pw");
    QTRY_VERIFY_WITH_TIMEOUT(managed.starts() >= 2, TestSupport::scaled(15000));
    QVERIFY(managed.lastError().contains(QLatin1String("healthy")) ||
            managed.state() == ManagedOpenCode::State::Starting);
    QCOMPARE(ready.size(), 0);
}

void tst_ManagedOpenCode::stopEndsTheProcess()
{
    QTemporaryDir home;
    OpenCodeClient client(OpenCodeClient::Options {});
    ManagedOpenCode managed(client, fakeServer(home.path()));
    QSignalSpy ready(&managed, &ManagedOpenCode::ready);
    managed.start("pw");
    QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, TestSupport::scaled(15000));
    const qint64 pid = managed.pid();
    managed.stop();
    QCOMPARE(managed.state(), ManagedOpenCode::State::Stopped);
    QCOMPARE(managed.pid(), 0);
    QVERIFY(!processAlive(pid)); // reaped by stop(), not a zombie
    // And no restart comes later.
    QTest::qWait(TestSupport::scaled(500)); // five restart delays of this test's options
    QCOMPARE(managed.starts(), 1);
    QCOMPARE(managed.state(), ManagedOpenCode::State::Stopped);
}

void tst_ManagedOpenCode::missingBinaryFailsAtOnceWithWhatToSet()
{
    QTemporaryDir home;
    OpenCodeClient client(OpenCodeClient::Options {});
    ManagedOpenCode::Options options = fakeServer(home.path());
    options.binary = home.filePath(QStringLiteral("no-such-opencode"));
    ManagedOpenCode managed(client, options);
    managed.start("pw");
    QCOMPARE(managed.state(), ManagedOpenCode::State::Failed);
    QCOMPARE(managed.pid(), 0);
    const auto answer = health(client);
    QVERIFY(!answer);
    QCOMPARE(answer.error().kind, OpenCodeError::Kind::CannotRun);
    QVERIFY2(answer.error().message.contains(QLatin1String("openchamber.opencode_binary")) &&
                 answer.error().message.contains(QLatin1String("no-such-opencode")),
             qPrintable(answer.error().message));
    // Found by name in PATH too: a name that is nowhere is the same failure.
    options.binary = QStringLiteral("no-such-opencode-anywhere");
    ManagedOpenCode byName(client, options);
    byName.start("pw");
    QCOMPARE(byName.state(), ManagedOpenCode::State::Failed);
}

QTEST_GUILESS_MAIN(tst_ManagedOpenCode)
#include "tst_managedopencode.moc"
