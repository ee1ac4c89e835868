// The broker hosts' secrets in a real Secret Service (issue 6 §3, docs/decisions.md "Secrets"):
// the local token moved from the token file into gnome-keyring, read back by a second broker
// process, rotated by `claude-peers rotate-token`, found by `secret-tool lookup` under the
// documented attributes; and the 0600 token file alone, said plainly, where no Secret Service
// answers.
#include "tests/support/privatebus.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <csignal>

using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace {

// The attributes QtKeychain gives the item (docs/decisions.md "Secrets").
const QStringList kTokenAttributes {u"server"_s, u"claude-peers"_s, u"user"_s, u"local-token"_s};

int modeOf(const QString &path)
{
    struct stat st
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}

QByteArray readToken(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

void writeToken(const QString &path, const QByteArray &token)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(token + '\n');
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
}

} // namespace

class tst_Keychain : public QObject
{
    Q_OBJECT

    QTemporaryDir m_keyringHome;
    PrivateBus m_bus; // no service activation: the keyring the test starts is the only one
    QProcess m_keyring;
    QString m_busAddress;

    // A broker host's environment: a HOME of its own, our bus, no CLAUDE_PEERS_TOKEN (so the
    // keychain is used), no display (CI).
    QProcessEnvironment environment(const QString &home, quint16 port, bool withBus = true) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &name : env.keys()) {
            if (name.startsWith(u"CLAUDE_PEERS_"_s))
                env.remove(name);
        }
        // Nothing of a desktop session we may run in: no display, not its bus, and no desktop
        // name (QtKeychain would prefer KWallet in a Plasma session).
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS",
                                 "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION"})
            env.remove(QLatin1String(name));
        env.insert(u"HOME"_s, home);
        env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(port));
        // The CLI finds claude-peers-broker on PATH when it has to start one.
        env.insert(u"PATH"_s, QFileInfo(brokerExe()).absolutePath() + u":/usr/local/bin:/usr/bin:/bin"_s);
        if (withBus)
            env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, m_busAddress);
        return env;
    }

    RunResult secretTool(const QStringList &args, const QByteArray &input = {}) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, m_busAddress);
        env.insert(u"HOME"_s, m_keyringHome.path());
        return run(u"secret-tool"_s, args, env, 10000, input);
    }

    QByteArray lookupToken() const
    {
        return secretTool(QStringList {u"lookup"_s} + kTokenAttributes).out.trimmed();
    }

    bool secretServiceOwned() const
    {
        const RunResult r = run(u"dbus-send"_s,
                                {u"--session"_s, u"--print-reply"_s, u"--dest=org.freedesktop.DBus"_s,
                                 u"/org/freedesktop/DBus"_s, u"org.freedesktop.DBus.NameHasOwner"_s,
                                 u"string:org.freedesktop.secrets"_s},
                                [this] {
                                    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
                                    env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, m_busAddress);
                                    return env;
                                }());
        return r.exitCode == 0 && r.out.contains("boolean true");
    }

    struct Broker
    {
        std::unique_ptr<QProcess> process = std::make_unique<QProcess>();
        ~Broker()
        {
            if (process->state() != QProcess::NotRunning) {
                process->kill();
                process->waitForFinished(5000);
            }
        }
    };

    // A claude-peers-broker process (or another broker host); up when /health answers.
    bool startBroker(Broker &broker, const QProcessEnvironment &env, quint16 port,
                     const QString &exe = brokerExe())
    {
        broker.process->setProcessEnvironment(env);
        broker.process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        broker.process->start(exe, {});
        if (!broker.process->waitForStarted(scaled(5000)))
            return false;
        QDeadlineTimer deadline(scaled(10000));
        while (!deadline.hasExpired() && broker.process->state() == QProcess::Running) {
            if (httpGet(port, u"/health"_s, 500).status == 200)
                return true;
            QTest::qWait(50);
        }
        return false;
    }

    void stopBroker(Broker &broker)
    {
        broker.process->terminate();
        QVERIFY(broker.process->waitForFinished(scaled(10000)));
    }

    QJsonObject localTokenStatus(const QProcessEnvironment &env)
    {
        const RunResult r = run(cliExe(), {u"status"_s, u"--json"_s}, env);
        [&] { QVERIFY2(r.exitCode == 0, r.err.constData()); }();
        return QJsonDocument::fromJson(r.out)
            .object()
            .value(u"secrets"_s)
            .toObject()
            .value(u"local_token"_s)
            .toObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!brokerExe().isEmpty());
        QVERIFY(!cliExe().isEmpty());
        for (const char *tool : {"dbus-daemon", "dbus-send", "gnome-keyring-daemon", "secret-tool"})
            QVERIFY2(!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty(),
                     qPrintable(u"%1 is missing: run tools/install-deps.sh test"_s.arg(QLatin1String(tool))));
        QVERIFY(m_keyringHome.isValid());

        QVERIFY(m_bus.start());
        m_busAddress = m_bus.address();

        // The keyring's own HOME (its keyrings live there) and runtime dir; unlocked with "pw".
        QVERIFY(QDir(m_keyringHome.path()).mkpath(u"run"_s));
        QFile::setPermissions(m_keyringHome.filePath(u"run"_s),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_keyringHome.path());
        env.insert(u"XDG_RUNTIME_DIR"_s, m_keyringHome.filePath(u"run"_s));
        env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, m_busAddress);
        env.remove(u"DISPLAY"_s);
        m_keyring.setProcessEnvironment(env);
        m_keyring.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_keyring.start(u"gnome-keyring-daemon"_s,
                        {u"--foreground"_s, u"--unlock"_s, u"--components=secrets"_s});
        QVERIFY(m_keyring.waitForStarted(scaled(5000)));
        m_keyring.write("pw");
        m_keyring.closeWriteChannel();
        QTRY_VERIFY_WITH_TIMEOUT(secretServiceOwned(), scaled(15000));
    }

    void cleanupTestCase()
    {
        if (m_keyring.state() != QProcess::NotRunning) {
            m_keyring.terminate();
            if (!m_keyring.waitForFinished(5000)) {
                m_keyring.kill();
                m_keyring.waitForFinished(5000);
            }
        }
        m_bus.stop();
    }

    // docs/architecture.md: QtKeychain is linked by the broker hosts only (the helper and the CLI have
    // their own NEEDED checks in tst_mcpprocess and tst_cli).
    void onlyTheBrokerHostsLinkTheKeychain()
    {
        const auto needed = [](const QString &exe) {
            const RunResult r = run(u"readelf"_s, {u"-d"_s, exe}, QProcessEnvironment::systemEnvironment());
            return QString::fromUtf8(r.out);
        };
        QVERIFY(needed(brokerExe()).contains(u"libqt6keychain"_s));
        if (!trayExe().isEmpty())
            QVERIFY(needed(trayExe()).contains(u"libqt6keychain"_s));
        QVERIFY(!needed(cliExe()).contains(u"keychain"_s));
        QVERIFY(!needed(mcpExe()).contains(u"keychain"_s));
    }

    void init()
    {
        // One keyring for the whole suite: every case starts without the item.
        secretTool(QStringList {u"clear"_s} + kTokenAttributes);
        QVERIFY(lookupToken().isEmpty());
    }

    void tokenMovesIntoTheKeychainIsReadBackAndRotated()
    {
        QTemporaryDir home;
        const quint16 port = freePort();
        const QProcessEnvironment env = environment(home.path(), port);
        const QString tokenPath = home.filePath(u".claude-peers-token"_s);
        const QByteArray original(64, 'a');
        writeToken(tokenPath, original);

        // First start with a keychain: the token file's token moves in.
        {
            Broker first;
            QVERIFY(startBroker(first, env, port));
            QTRY_COMPARE_WITH_TIMEOUT(lookupToken(), original, scaled(10000));
            const QJsonObject local = localTokenStatus(env);
            QCOMPARE(local.value(u"store"_s).toString(), u"keychain"_s);
            QCOMPARE(local.value(u"where"_s).toString(), u"Secret Service"_s);
            QCOMPARE(local.value(u"token_file"_s).toString(), tokenPath);
            const RunResult text = run(cliExe(), {u"status"_s}, env);
            QVERIFY2(text.out.contains(QByteArray(
                         "\nSecrets: local token in the OS keychain (Secret Service); token file " +
                         QFile::encodeName(tokenPath) + '\n')),
                     text.out.constData());
            stopBroker(first);
        }

        // A second process reads it back from the keychain: a token file changed while no
        // broker ran is rewritten from it (the keychain is the source of truth).
        writeToken(tokenPath, QByteArray(64, 'f'));
        Broker second;
        QVERIFY(startBroker(second, env, port));
        QTRY_COMPARE_WITH_TIMEOUT(readToken(tokenPath), original, scaled(10000));
        QCOMPARE(modeOf(tokenPath), 0600);
        QCOMPARE(httpPostJson(port, u"/list-peers"_s, {{u"scope"_s, u"machine"_s}}, original).status, 200);

        // Rotation goes to the keychain and the file.
        const RunResult rotated = run(cliExe(), {u"rotate-token"_s}, env);
        QVERIFY2(rotated.exitCode == 0, rotated.err.constData());
        QVERIFY2(rotated.out.startsWith(
                     QByteArray("Token rotated in the OS keychain (Secret Service). New token written to " +
                                QFile::encodeName(tokenPath))),
                 rotated.out.constData());
        const QByteArray fresh = readToken(tokenPath);
        QCOMPARE(fresh.size(), 64);
        QVERIFY(fresh != original);
        QCOMPARE(lookupToken(), fresh);
        QCOMPARE(modeOf(tokenPath), 0600);
        QCOMPARE(httpPostJson(port, u"/list-peers"_s, {{u"scope"_s, u"machine"_s}}, original).status, 401);
        QCOMPARE(httpPostJson(port, u"/list-peers"_s, {{u"scope"_s, u"machine"_s}}, fresh).status, 200);

        // The documented attributes find the item, and nothing else holds it.
        const RunResult search = secretTool({u"search"_s, u"--all"_s, u"server"_s, u"claude-peers"_s});
        // secret-tool prints the attributes on stderr and the rest on stdout.
        const QByteArray item = search.out + search.err;
        QVERIFY2(item.contains("attribute.user = local-token"), item.constData());
        QVERIFY2(item.contains("attribute.server = claude-peers"), item.constData());
        QVERIFY2(item.contains("schema = org.qt.keychain"), item.constData());
        QVERIFY2(item.contains(QByteArray("secret = " + fresh)), item.constData());
        stopBroker(second);
    }

    // The tray's broker runs on a thread of its own: the keychain's jobs and answers live on
    // that thread's event loop (docs/decisions.md), and work there as in the headless broker.
    void theTrayKeepsItsTokenInTheKeychainFromItsBrokerThread()
    {
        if (trayExe().isEmpty())
            QSKIP("claude-peers-tray is not built");
        QTemporaryDir home;
        const quint16 port = freePort();
        QProcessEnvironment env = environment(home.path(), port);
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        const QString tokenPath = home.filePath(u".claude-peers-token"_s);
        const QByteArray original(64, 'b');
        writeToken(tokenPath, original);

        Broker tray;
        QVERIFY(startBroker(tray, env, port, trayExe()));
        QTRY_COMPARE_WITH_TIMEOUT(lookupToken(), original, scaled(10000));
        QCOMPARE(localTokenStatus(env).value(u"store"_s).toString(), u"keychain"_s);

        const RunResult rotated = run(cliExe(), {u"rotate-token"_s}, env);
        QVERIFY2(rotated.exitCode == 0, rotated.err.constData());
        QVERIFY2(rotated.out.startsWith("Token rotated in the OS keychain (Secret Service)."),
                 rotated.out.constData());
        const QByteArray fresh = readToken(tokenPath);
        QCOMPARE(fresh.size(), 64);
        QVERIFY(fresh != original);
        QCOMPARE(lookupToken(), fresh);
        QCOMPARE(httpPostJson(port, u"/list-peers"_s, {{u"scope"_s, u"machine"_s}}, fresh).status, 200);
        stopBroker(tray);
        QCOMPARE(tray.process->exitStatus(), QProcess::NormalExit);
        QCOMPARE(tray.process->exitCode(), 0);
    }

    void rotateTokenWithoutARunningBrokerStartsOne()
    {
        QTemporaryDir home;
        const quint16 port = freePort();
        const QProcessEnvironment env = environment(home.path(), port);
        const RunResult rotated = run(cliExe(), {u"rotate-token"_s}, env, 30000);
        // The CLI started a detached broker: find it by the pid /health reports, stop it.
        const HttpResult health = httpGet(port, u"/health"_s);
        const qint64 pid = health.object().value(u"pid"_s).toInteger();
        const auto stop = qScopeGuard([pid] {
            if (pid > 0)
                ::kill(pid_t(pid), SIGTERM);
        });
        QVERIFY2(rotated.exitCode == 0, rotated.err.constData());
        QVERIFY2(rotated.out.contains("starting it to rotate the token"), rotated.out.constData());
        QVERIFY2(rotated.out.contains("Token rotated in the OS keychain (Secret Service)"),
                 rotated.out.constData());
        QVERIFY(pid > 0);
        const QByteArray token = readToken(home.filePath(u".claude-peers-token"_s));
        QCOMPARE(token.size(), 64);
        QCOMPARE(lookupToken(), token);
        ::kill(pid_t(pid), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(port, u"/health"_s, 300).status == 0, scaled(10000));
    }

    void withoutASecretServiceTheTokenFileIsUsedAndSaidSo()
    {
        QTemporaryDir home;
        const quint16 port = freePort();
        const QProcessEnvironment env = environment(home.path(), port, /*withBus=*/false);
        Broker broker;
        QVERIFY(startBroker(broker, env, port));
        const QString tokenPath = home.filePath(u".claude-peers-token"_s);
        QCOMPARE(readToken(tokenPath).size(), 64);
        QCOMPARE(modeOf(tokenPath), 0600);
        QTRY_VERIFY_WITH_TIMEOUT(
            localTokenStatus(env).value(u"note"_s).toString().contains(u"did not answer"_s), scaled(10000));
        const QJsonObject local = localTokenStatus(env);
        QCOMPARE(local.value(u"store"_s).toString(), u"file"_s);
        QCOMPARE(local.value(u"where"_s).toString(), tokenPath);
        const RunResult text = run(cliExe(), {u"status"_s}, env);
        QVERIFY2(text.out.contains(
                     QByteArray("\nSecrets: local token in the file " + QFile::encodeName(tokenPath) + '\n')),
                 text.out.constData());
        // Rotation works in the file alone.
        const QByteArray before = readToken(tokenPath);
        const RunResult rotated = run(cliExe(), {u"rotate-token"_s}, env);
        QVERIFY2(rotated.exitCode == 0, rotated.err.constData());
        QVERIFY2(rotated.out.startsWith("Token rotated. New token written to "), rotated.out.constData());
        QVERIFY(readToken(tokenPath) != before);
        QVERIFY(lookupToken().isEmpty()); // nothing reached the keyring
        stopBroker(broker);
    }
};

QTEST_GUILESS_MAIN(tst_Keychain)
#include "tst_keychain.moc"
