#include "common/secretfile.h"
#include "common/clientlogging.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Broker::SecretFile {

namespace {

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

bool writeAll(int fd, const QByteArray &data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

void warnIfNotPrivate(int fd, const QString &path)
{
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
        return;
    if (st.st_uid != ::geteuid())
        qCWarning(lcClientSecrets).noquote()
            << QStringLiteral("%1 holds a secret but is owned by uid %2, not by you (uid %3): someone else "
                              "may have written or read it. Check the file, remove it and let the broker "
                              "create a new one.")
                   .arg(path)
                   .arg(st.st_uid)
                   .arg(::geteuid());
    if ((st.st_mode & 0177) != 0) {
        const bool othersMayRead = (st.st_mode & 0077) != 0;
        qCWarning(lcClientSecrets).noquote()
            << QStringLiteral(
                   "%1 holds a secret but has mode 0%2, wider than 0600%3. Fix it with: chmod 600 %1%4")
                   .arg(path)
                   .arg(st.st_mode & 0777, 0, 8)
                   .arg(othersMayRead ? QStringLiteral(": other users may read it") : QString(),
                        othersMayRead ? QStringLiteral(", and rotate the secret (claude-peers rotate-token).")
                                      : QStringLiteral("."));
    }
}

} // namespace

Result<void> write(const QString &path, const QByteArray &data)
{
    const QFileInfo info(path);
    const QString target = info.isSymLink() ? info.symLinkTarget() : path;
    const auto unwritable = [&](const QString &why) {
        return fail(ErrorKind::Unwritable, QStringLiteral("Cannot write %1: %2").arg(target, why));
    };
    QString temporary;
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        temporary =
            target + QStringLiteral(".tmp-") + QString::number(QRandomGenerator::system()->generate64(), 36);
        fd = ::open(QFile::encodeName(temporary).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            return unwritable(errnoText(errno));
    }
    if (fd < 0)
        return unwritable(QStringLiteral("no free temporary name beside it"));
    const QByteArray temporaryName = QFile::encodeName(temporary);
    const bool written = writeAll(fd, data) && ::fsync(fd) == 0;
    const int writeError = errno;
    ::close(fd);
    if (!written) {
        ::unlink(temporaryName.constData());
        return unwritable(errnoText(writeError));
    }
    if (::rename(temporaryName.constData(), QFile::encodeName(target).constData()) != 0) {
        const int renameError = errno;
        ::unlink(temporaryName.constData());
        return unwritable(errnoText(renameError));
    }
    return {};
}

Result<QByteArray> read(const QString &path, qint64 maxBytes)
{
    QFile file(path);
    if (!file.exists())
        return fail(ErrorKind::Missing, QStringLiteral("%1 does not exist.").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return fail(ErrorKind::Unreadable,
                    QStringLiteral("Cannot read %1: %2").arg(path, file.errorString()));
    warnIfNotPrivate(file.handle(), path);
    const QByteArray data = file.read(maxBytes);
    if (file.error() != QFileDevice::NoError)
        return fail(ErrorKind::Unreadable,
                    QStringLiteral("Cannot read %1: %2").arg(path, file.errorString()));
    return data;
}

} // namespace Broker::SecretFile
