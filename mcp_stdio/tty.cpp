#include "tty.h"

#include "dto.h"

#include <QFile>
#include <QFileInfo>
#include <QList>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace Mcp::Tty {

QString nameFromDeviceNumber(quint64 ttyNr)
{
    if (ttyNr == 0)
        return {};
    const unsigned maj = major(dev_t(ttyNr));
    const unsigned min = minor(dev_t(ttyNr));
    if (maj >= 136 && maj <= 143) // Unix98 pseudo-terminals
        return QStringLiteral("pts/%1").arg((maj - 136) * 256 + min);
    if (maj == 4)
        return min < 64 ? QStringLiteral("tty%1").arg(min) : QStringLiteral("ttyS%1").arg(min - 64);
    return {};
}

qint64 ttyNrFromStat(const QByteArray &statLine)
{
    const qsizetype close = statLine.lastIndexOf(')');
    if (close < 0)
        return -1;
    const QList<QByteArray> fields = statLine.mid(close + 1).simplified().split(' ');
    // After ")": state ppid pgrp session tty_nr …
    if (fields.size() < 5)
        return -1;
    bool ok = false;
    const qint64 nr = fields.at(4).toLongLong(&ok);
    return ok ? nr : -1;
}

QString forProcess(qint64 pid)
{
    if (pid <= 0)
        return {};
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    const qint64 nr = ttyNrFromStat(stat.read(4096));
    if (nr <= 0)
        return {};
    const QString name = nameFromDeviceNumber(quint64(nr));
    if (!name.isEmpty())
        return name;
    // An unusual terminal driver: find it among the process's standard descriptors.
    for (int fd = 0; fd <= 2; ++fd) {
        const QString target = QFileInfo(QStringLiteral("/proc/%1/fd/%2").arg(pid).arg(fd)).symLinkTarget();
        struct stat st
        {
        };
        if (target.startsWith(QLatin1String("/dev/")) &&
            ::stat(QFile::encodeName(target).constData(), &st) == 0 && S_ISCHR(st.st_mode) &&
            quint64(st.st_rdev) == quint64(nr))
            return target.mid(5);
    }
    return {};
}

QString detect()
{
    if (qEnvironmentVariableIsSet("CLAUDE_PEERS_TTY"))
        return qEnvironmentVariable("CLAUDE_PEERS_TTY").trimmed();
    return forProcess(qint64(::getppid()));
}

QString peerIdForTty(const QString &tty)
{
    if (tty.isEmpty())
        return {};
    return Broker::peerIdForTty(tty);
}

QString stableIdWithoutTty(const QString &clientName, const QString &cwd)
{
    const QString client = clientName.isEmpty() ? QStringLiteral("mcp-client") : clientName;
    return Broker::peerIdForTty(QStringLiteral("client:%1:%2").arg(client, cwd));
}

} // namespace Mcp::Tty
