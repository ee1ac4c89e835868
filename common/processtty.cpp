#include "common/processtty.h"

#include <QFile>
#include <QFileInfo>
#include <QList>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace Broker::ProcessTty {

namespace {

// The fields after the parenthesised comm: state ppid pgrp session tty_nr …
QList<QByteArray> fieldsAfterComm(const QByteArray &statLine)
{
    const qsizetype close = statLine.lastIndexOf(')');
    if (close < 0)
        return {};
    return statLine.mid(close + 1).simplified().split(' ');
}

qint64 field(const QByteArray &statLine, int index)
{
    const QList<QByteArray> fields = fieldsAfterComm(statLine);
    if (fields.size() <= index)
        return -1;
    bool ok = false;
    const qint64 value = fields.at(index).toLongLong(&ok);
    return ok ? value : -1;
}

QByteArray statOf(qint64 pid)
{
    if (pid <= 0)
        return {};
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    return stat.read(4096);
}

} // namespace

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
    return field(statLine, 4);
}

qint64 parentPidFromStat(const QByteArray &statLine)
{
    return field(statLine, 1);
}

QString forProcess(qint64 pid)
{
    const qint64 nr = ttyNrFromStat(statOf(pid));
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

qint64 parentOf(qint64 pid)
{
    return parentPidFromStat(statOf(pid));
}

} // namespace Broker::ProcessTty
