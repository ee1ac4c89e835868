#include "common/launcher.h"

#include "common/clientlogging.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>
#include <sys/types.h>
#include <unistd.h>

namespace Broker::Launcher {

std::optional<qint64> readPidFile(const Location &location)
{
    QFile file(location.pidPath());
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray head = file.read(256);
    static const QRegularExpression number(QStringLiteral("\\d+"));
    const QRegularExpressionMatch match = number.match(QString::fromLatin1(head));
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 pid = match.captured().toLongLong(&ok);
    if (!ok || pid <= 0)
        return std::nullopt;
    return pid;
}

Result<void> sendSignal(qint64 pid, int signal)
{
    if (pid <= 0 || pid > std::numeric_limits<pid_t>::max())
        return fail(ErrorKind::BadPid, QStringLiteral("Refusing to signal pid %1").arg(pid));
    if (::kill(pid_t(pid), signal) != 0)
        return fail(ErrorKind::SignalFailed,
                    QStringLiteral("Cannot send signal %1 to pid %2: %3")
                        .arg(signal)
                        .arg(pid)
                        .arg(QString::fromLocal8Bit(std::strerror(errno))));
    return {};
}

QString findBrokerExecutable()
{
    if (qEnvironmentVariableIsSet(BrokerExecutableVariable)) {
        const QFileInfo named(qEnvironmentVariable(BrokerExecutableVariable));
        return named.isFile() && named.isExecutable() ? named.absoluteFilePath() : QString();
    }
    const QString name = QString::fromLatin1(BrokerExecutableName);
    if (QCoreApplication::instance()) {
        const QFileInfo beside(QDir(QCoreApplication::applicationDirPath()).filePath(name));
        if (beside.isFile() && beside.isExecutable())
            return beside.absoluteFilePath();
    }
    return QStandardPaths::findExecutable(name);
}

QString brokerSearchDescription(const QString &programName)
{
    if (qEnvironmentVariableIsSet(BrokerExecutableVariable))
        return QStringLiteral("%1=%2 is not an executable file")
            .arg(QLatin1String(BrokerExecutableVariable), qEnvironmentVariable(BrokerExecutableVariable));
    return QStringLiteral("%1 not found next to %2 or on PATH")
        .arg(QLatin1String(BrokerExecutableName), programName);
}

Result<qint64> startDetached(const QString &program, const QStringList &arguments,
                             const QProcessEnvironment &environment)
{
    if (program.isEmpty())
        return fail(ErrorKind::NotFound,
                    QStringLiteral("%1 not found next to this program or on PATH.")
                        .arg(QLatin1String(BrokerExecutableName)));
    QProcess process;
    process.setProgram(program);
    process.setArguments(arguments);
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QDir::rootPath());
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    // Runs in the forked child before exec (Qt 6 applies it to startDetached too): only
    // async-signal-safe calls here.
    process.setChildProcessModifier([] {
        ::setsid();
        ::signal(SIGPIPE, SIG_IGN);
    });
    qint64 pid = 0;
    if (!process.startDetached(&pid))
        return fail(ErrorKind::StartFailed,
                    QStringLiteral("Cannot start %1: %2").arg(program, process.errorString()));
    qCDebug(lcClientLauncher) << "started" << program << "pid" << pid;
    return pid;
}

} // namespace Broker::Launcher
