#include "common/launcher.h"

#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

namespace Launcher = Broker::Launcher;

namespace {

Broker::Location locationIn(const QTemporaryDir &dir)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), dir.path());
    return Broker::Location::fromEnvironment(env);
}

void writeRaw(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

QByteArray readRaw(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class tst_Launcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsPidFile_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<qint64>("expected"); // 0 = none
        QTest::newRow("plain") << QByteArray("1234\n") << qint64(1234);
        QTest::newRow("no newline") << QByteArray("77") << qint64(77);
        QTest::newRow("spaces") << QByteArray("  42  \n") << qint64(42);
        QTest::newRow("json") << QByteArray(R"({"pid": 99})") << qint64(99);
        QTest::newRow("empty") << QByteArray() << qint64(0);
        QTest::newRow("text") << QByteArray("none\n") << qint64(0);
        QTest::newRow("zero") << QByteArray("0\n") << qint64(0);
        QTest::newRow("overflow") << QByteArray("99999999999999999999999") << qint64(0);
    }
    void readsPidFile()
    {
        QFETCH(QByteArray, content);
        QFETCH(qint64, expected);
        QTemporaryDir dir;
        const Broker::Location loc = locationIn(dir);
        writeRaw(loc.pidPath(), content);
        QCOMPARE(Launcher::readPidFile(loc).value_or(0), expected);
    }

    void missingPidFile()
    {
        QTemporaryDir dir;
        QVERIFY(!Launcher::readPidFile(locationIn(dir)));
    }

    void refusesToSignalNonPositivePids()
    {
        QVERIFY(!Launcher::sendSignal(0, SIGTERM));
        QVERIFY(!Launcher::sendSignal(-1, SIGTERM));
        QVERIFY(!Launcher::sendSignal(qint64(1) << 40, SIGTERM)); // would wrap to another pid_t
        QVERIFY(Launcher::sendSignal(QCoreApplication::applicationPid(), 0));
    }

    void findsBrokerOnPath()
    {
        QTemporaryDir dir;
        const QString exe = dir.filePath(QLatin1String(Launcher::BrokerExecutableName));
        writeRaw(exe, "#!/bin/sh\nexit 0\n");
        QFile::setPermissions(exe, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", QFile::encodeName(dir.path()) + ":/usr/bin:/bin");
        QCOMPARE(Launcher::findBrokerExecutable(), exe);
        qputenv("PATH", "/nonexistent");
        QVERIFY(Launcher::findBrokerExecutable().isEmpty());
        qputenv("PATH", path);
    }

    void startDetachedRunsInItsOwnSession()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const QString script = dir.filePath(QStringLiteral("probe.sh"));
        // Records its session id, whether stdout is /dev/null, and its working directory.
        writeRaw(script,
                 "#!/bin/sh\n"
                 "sid=$(ps -o sid= -p $$ | tr -d ' ')\n"
                 "echo \"$sid $(readlink /proc/$$/fd/1) $(pwd) $PROBE_VALUE\" > \"$1.tmp\"\n"
                 "mv \"$1.tmp\" \"$1\"\n");
        QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PROBE_VALUE"), QStringLiteral("inherited"));
        auto pid = Launcher::startDetached(script, {out}, env);
        QVERIFY2(pid, pid ? "" : qPrintable(pid.error().message));
        QVERIFY(*pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(out), TestSupport::scaled(10000));
        const QList<QByteArray> fields = readRaw(out).trimmed().split(' ');
        QCOMPARE(fields.size(), 4);
        QVERIFY(fields.at(0).toLongLong() != qint64(::getsid(0)));
        QCOMPARE(fields.at(1), QByteArray("/dev/null"));
        QCOMPARE(fields.at(2), QByteArray("/"));
        QCOMPARE(fields.at(3), QByteArray("inherited"));
    }

    void startDetachedReportsMissingProgram()
    {
        QVERIFY(!Launcher::startDetached(QString()));
        QVERIFY(!Launcher::startDetached(QStringLiteral("/nonexistent/claude-peers-broker")));
    }
};

QTEST_GUILESS_MAIN(tst_Launcher)
#include "tst_launcher.moc"
