// The tray's start at login: App::Autostart on a temp HOME and its CLI twin `claude-peers autostart`.
#include "app/autostart/autostart.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {

// A temp HOME with XDG_CONFIG_HOME unset and XDG_CONFIG_DIRS pointing into it, so that nothing
// reads or writes the real ~/.config or /etc/xdg.
struct Home
{
    QTemporaryDir dir;
    QString path() const { return dir.path(); }
    QString userEntry() const
    {
        return path() + QStringLiteral("/.config/autostart/claude-peers-tray.desktop");
    }
    QString systemDir() const { return path() + QStringLiteral("/etc-xdg"); }
    QString systemEntry() const
    {
        return systemDir() + QStringLiteral("/autostart/claude-peers-tray.desktop");
    }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), path());
        env.insert(QStringLiteral("XDG_CONFIG_DIRS"), systemDir());
        return env;
    }
    App::Autostart
    autostart(const QString &program = QStringLiteral("/opt/peers/bin/claude-peers-tray")) const
    {
        return App::Autostart::fromEnvironment(environment(), QFileInfo(program).absolutePath());
    }
    void installSystemEntry() const
    {
        QVERIFY(QDir().mkpath(QFileInfo(systemEntry()).absolutePath()));
        QVERIFY(QFile::copy(QStringLiteral(PEERS_SYSTEM_AUTOSTART_ENTRY), systemEntry()));
    }
};

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// desktop-file-validate's verdict on an entry, or a skip reason when it is not installed.
QString validatorComplaint(const QString &path)
{
    const QString validator = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
    if (validator.isEmpty())
        return {};
    QProcess process;
    process.start(validator, {path});
    if (!process.waitForFinished(TestSupport::scaled(10000)))
        return QStringLiteral("desktop-file-validate did not finish");
    const QString output =
        QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
    return process.exitCode() == 0 ? QString() : output;
}

} // namespace

class tst_Autostart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void followsXdgConfigHome()
    {
        Home home;
        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/cfg"));
        const auto status = App::Autostart::fromEnvironment(env, home.path()).enable();
        QVERIFY2(status, qPrintable(status ? QString() : status.error().message));
        QCOMPARE(status->userEntry, home.path() + QStringLiteral("/cfg/autostart/claude-peers-tray.desktop"));
        QVERIFY(QFile::exists(status->userEntry));
        QVERIFY(!QFile::exists(home.userEntry()));
    }

    void disabledWithoutAnyEntry()
    {
        Home home;
        const App::AutostartStatus status = home.autostart().status();
        QVERIFY(!status.enabled);
        QVERIFY(status.decidedBy.isEmpty());
        QVERIFY(status.systemEntry.isEmpty());
    }

    void enableWritesAValidEntryWithTrayDelays()
    {
        Home home;
        const auto status = home.autostart().enable();
        QVERIFY(status);
        QVERIFY(status->enabled);
        QCOMPARE(status->decidedBy, home.userEntry());
        const QByteArray entry = readAll(home.userEntry());
        QVERIFY(entry.startsWith("[Desktop Entry]\n"));
        QVERIFY(entry.contains("\nExec=claude-peers-tray\n")); // none beside /opt/peers/bin: the bare name
        QVERIFY(entry.contains("\nX-GNOME-Autostart-Delay="));
        QVERIFY(entry.contains("\nX-KDE-autostart-after=panel\n"));
        QVERIFY(entry.contains("\nX-LXQt-Need-Tray=true\n"));
        const QString complaint = validatorComplaint(home.userEntry());
        QVERIFY2(complaint.isEmpty(), qPrintable(complaint));
    }

    void execPointsAtTheTrayBesideTheProgram()
    {
        Home home;
        const QString binDir = home.path() + QStringLiteral("/my bin$");
        QVERIFY(QDir().mkpath(binDir));
        QFile tray(binDir + QStringLiteral("/claude-peers-tray"));
        QVERIFY(tray.open(QIODevice::WriteOnly));
        tray.close();
        QVERIFY(tray.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QVERIFY(home.autostart(binDir + QStringLiteral("/claude-peers")).enable());
        // Quoted per the Exec rules (space, "$" escaped), backslashes doubled by the file's own escaping.
        QVERIFY2(readAll(home.userEntry())
                     .contains(QByteArray("\nExec=\"" + binDir.toUtf8().replace("$", "\\\\$") +
                                          "/claude-peers-tray\"\n")),
                 readAll(home.userEntry()).constData());
        const QString complaint = validatorComplaint(home.userEntry());
        QVERIFY2(complaint.isEmpty(), qPrintable(complaint));
    }

    void disableRemovesTheUserEntry()
    {
        Home home;
        QVERIFY(home.autostart().enable());
        const auto status = home.autostart().disable();
        QVERIFY(status);
        QVERIFY(!status->enabled);
        QVERIFY(!QFile::exists(home.userEntry()));
    }

    void systemEntryIsShadowedWithHidden()
    {
        Home home;
        home.installSystemEntry();
        QVERIFY(home.autostart().status().enabled); // the package's entry starts the tray
        QCOMPARE(home.autostart().status().decidedBy, home.systemEntry());

        const auto disabled = home.autostart().disable();
        QVERIFY(disabled);
        QVERIFY(!disabled->enabled);
        QCOMPARE(disabled->decidedBy, home.userEntry());
        QVERIFY(readAll(home.userEntry()).contains("\nHidden=true\n"));
        QVERIFY(QFile::exists(home.systemEntry())); // never touched

        const auto enabled = home.autostart().enable();
        QVERIFY(enabled);
        QVERIFY(enabled->enabled);
        QVERIFY(!readAll(home.userEntry()).contains("Hidden"));
    }

    void gnomeDisabledKeyCounts()
    {
        Home home;
        QVERIFY(QDir().mkpath(QFileInfo(home.userEntry()).absolutePath()));
        QFile file(home.userEntry());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "[Desktop Entry]\nType=Application\nExec=claude-peers-tray\nX-GNOME-Autostart-enabled=false\n");
        file.close();
        QVERIFY(!home.autostart().status().enabled);
    }

    // ~/.config is a file: no directory can be made below it, not even by root (CI runs as root,
    // for whom a read-only directory is writable).
    void unwritableConfigIsAnError()
    {
        Home home;
        const QString config = home.path() + QStringLiteral("/.config");
        QFile notADirectory(config);
        QVERIFY(notADirectory.open(QIODevice::WriteOnly));
        notADirectory.close();
        const auto status = home.autostart().enable();
        QVERIFY(!status);
        QCOMPARE(status.error().kind, Broker::ErrorKind::Unwritable);
        QVERIFY(status.error().message.contains(config));
    }

    // The CLI twin, the real binary: the same files, text and --json, exit codes.
    void cliEnableStatusDisable()
    {
        Home home;
        home.installSystemEntry();
        const QProcessEnvironment env = home.environment();
        const QString cli = TestSupport::cliExe();

        auto result = TestSupport::run(cli, {QStringLiteral("autostart"), QStringLiteral("--json")}, env);
        QCOMPARE(result.exitCode, 0);
        QJsonObject status = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(status.value(QStringLiteral("enabled")).toBool(), true);
        QCOMPARE(status.value(QStringLiteral("system_entry")).toString(), home.systemEntry());

        result = TestSupport::run(cli, {QStringLiteral("autostart"), QStringLiteral("disable")}, env);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.startsWith("Autostart: disabled\n"), result.out.constData());
        QVERIFY(readAll(home.userEntry()).contains("\nHidden=true\n"));

        result = TestSupport::run(
            cli, {QStringLiteral("autostart"), QStringLiteral("enable"), QStringLiteral("--json")}, env);
        QCOMPARE(result.exitCode, 0);
        status = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(status.value(QStringLiteral("enabled")).toBool(), true);
        QCOMPARE(status.value(QStringLiteral("decided_by")).toString(), home.userEntry());
        // The CLI sits beside the tray in the build tree: Exec is that tray's absolute path.
        const QString tray = QFileInfo(cli).absolutePath() + QStringLiteral("/claude-peers-tray");
        const QByteArray exec =
            QFileInfo(tray).isExecutable() ? tray.toUtf8() : QByteArray("claude-peers-tray");
        QVERIFY2(readAll(home.userEntry()).contains(QByteArray("\nExec=" + exec + "\n")),
                 readAll(home.userEntry()).constData());
    }

    void cliRejectsUnknownAction()
    {
        Home home;
        const auto result = TestSupport::run(
            TestSupport::cliExe(), {QStringLiteral("autostart"), QStringLiteral("on")}, home.environment());
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains("Unknown action 'on'"));
        QVERIFY(!QFile::exists(home.userEntry()));
    }
};

QTEST_GUILESS_MAIN(tst_Autostart)
#include "tst_autostart.moc"
