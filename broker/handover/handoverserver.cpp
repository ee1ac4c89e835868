#include "broker/handover/handoverserver.h"

#include "broker/brokerlogging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace Broker::Handover {

struct HandoverServer::Pending
{
    Fd::Owned fd;
    std::unique_ptr<QSocketNotifier> notifier;
    std::unique_ptr<QTimer> timer;
};

HandoverServer::HandoverServer(Handler handler, QObject *parent)
    : QObject(parent), m_handler(std::move(handler)), m_allowedUid(::getuid())
{
}

HandoverServer::~HandoverServer()
{
    close();
}

Result<void> HandoverServer::listen(const QString &path)
{
    close();
    const QByteArray name = QFile::encodeName(path);
    const auto where = Fd::unixAddress(path);
    if (!where)
        return fail(ErrorKind::Listen, where.error().message);
    const sockaddr_un address = *where;
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return fail(ErrorKind::Listen, QStringLiteral("Cannot create the directory of %1").arg(path));

    if (QFileInfo::exists(path) || QFileInfo(path).isSymLink()) {
        auto other = Fd::connectTo(path);
        if (other)
            return fail(ErrorKind::Locked,
                        QStringLiteral("Another broker answers on the hand-over socket %1").arg(path));
        qCInfo(lcServer).noquote() << "Removing a stale hand-over socket" << path;
        ::unlink(name.constData());
    }
    Fd::Owned fd(::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd.isValid())
        return fail(ErrorKind::Listen,
                    QStringLiteral("socket(): %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    // Owner-only from the first moment: the runtime dir is 0700 already, the file too.
    const mode_t oldMask = ::umask(0177);
    const int bound = ::bind(fd.get(), reinterpret_cast<const sockaddr *>(&address), sizeof(address));
    const int bindErrno = errno;
    ::umask(oldMask);
    if (bound != 0)
        return fail(ErrorKind::Listen,
                    QStringLiteral("Cannot bind the hand-over socket %1: %2")
                        .arg(path, QString::fromLocal8Bit(std::strerror(bindErrno))));
    struct stat info
    {
    };
    if (::chmod(name.constData(), 0600) != 0 || ::listen(fd.get(), kMaxPending) != 0 ||
        ::stat(name.constData(), &info) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        ::unlink(name.constData());
        return fail(ErrorKind::Listen,
                    QStringLiteral("Cannot listen on the hand-over socket %1: %2").arg(path, why));
    }
    m_device = info.st_dev;
    m_inode = info.st_ino;
    m_path = path;
    m_fd = std::move(fd);
    m_notifier = new QSocketNotifier(m_fd.get(), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &HandoverServer::onAcceptable);
    return {};
}

void HandoverServer::close()
{
    delete std::exchange(m_notifier, nullptr);
    m_pending.clear();
    if (!m_fd.isValid())
        return;
    m_fd.reset();
    const QByteArray name = QFile::encodeName(m_path);
    struct stat info
    {
    };
    if (::stat(name.constData(), &info) == 0 && info.st_dev == m_device && info.st_ino == m_inode)
        ::unlink(name.constData());
}

void HandoverServer::onAcceptable()
{
    for (;;) {
        Fd::Owned connection(::accept4(m_fd.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
        if (!connection.isValid())
            return; // EAGAIN, or an error the next activation reports again
        if (int(m_pending.size()) >= kMaxPending) {
            (void)Fd::send(connection.get(), encode(Refusal {QStringLiteral("busy")}), {},
                           QDeadlineTimer(100));
            continue;
        }
        auto pending = std::make_unique<Pending>();
        Pending *raw = pending.get();
        pending->fd = std::move(connection);
        pending->notifier = std::make_unique<QSocketNotifier>(raw->fd.get(), QSocketNotifier::Read);
        connect(raw->notifier.get(), &QSocketNotifier::activated, this, [this, raw] { onReadable(raw); });
        pending->timer = std::make_unique<QTimer>();
        pending->timer->setSingleShot(true);
        connect(raw->timer.get(), &QTimer::timeout, this, [this, raw] {
            qCInfo(lcServer) << "Hand-over socket: no request in time; closed";
            drop(raw);
        });
        pending->timer->start(kRequestTimeoutMs);
        m_pending.push_back(std::move(pending));
    }
}

void HandoverServer::onReadable(Pending *pending)
{
    auto received = Fd::receive(pending->fd.get(), QDeadlineTimer(0));
    if (!received && received.error().kind == ErrorKind::HandoverTimeout)
        return; // a spurious wake-up
    Fd::Owned connection = std::move(pending->fd);
    drop(pending);
    if (!received) {
        qCInfo(lcServer).noquote() << "Hand-over socket:" << received.error().message;
        return;
    }
    // Checked after the request is read: closing with it unread would reset the connection
    // before the successor could read why.
    const auto uid = Fd::peerUid(connection.get());
    if (!uid || !Fd::mayHandOver(*uid, m_allowedUid)) {
        qCWarning(lcServer).noquote()
            << QStringLiteral("Hand-over refused: the process asking runs as uid %1, not %2")
                   .arg(uid ? QString::number(*uid) : uid.error().message)
                   .arg(m_allowedUid);
        (void)Fd::send(connection.get(), encode(Refusal {QStringLiteral("another user")}), {},
                       QDeadlineTimer(100));
        return;
    }
    auto message = decode(received->bytes);
    if (!message || !std::holds_alternative<Request>(*message) || !received->fds.empty()) {
        const QString why = message ? QStringLiteral("not a hand-over request") : message.error().message;
        qCWarning(lcServer).noquote() << "Hand-over refused:" << why;
        (void)Fd::send(connection.get(), encode(Refusal {why}), {}, QDeadlineTimer(100));
        return;
    }
    m_handler(std::get<Request>(*message), std::move(connection));
}

void HandoverServer::drop(Pending *pending)
{
    const auto it = std::find_if(m_pending.begin(), m_pending.end(),
                                 [pending](const auto &p) { return p.get() == pending; });
    if (it == m_pending.end())
        return;
    // Deleted later: this may run inside the notifier's or timer's own signal.
    std::unique_ptr<Pending> gone = std::move(*it);
    m_pending.erase(it);
    gone->notifier->setEnabled(false);
    gone->timer->stop();
    gone->notifier.release()->deleteLater();
    gone->timer.release()->deleteLater();
}

} // namespace Broker::Handover
