#include "app/tray/singleinstance.h"

#include "app/tray/traylogging.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QLocalServer>
#include <QLocalSocket>
#include <QThread>
#include <QTimer>

namespace App {

namespace {

constexpr char kRaise[] = "raise\n";
constexpr char kRaised[] = "ok\n";
constexpr int kClientIdleMs = 2000;

} // namespace

SingleInstance::SingleInstance(const QString &runtimeDir, quint16 port, QObject *parent)
    : QObject(parent),
      m_socketPath(QDir(runtimeDir).filePath(QStringLiteral("claude-peers-tray-%1.socket").arg(port))),
      m_lock(QDir(runtimeDir).filePath(QStringLiteral("claude-peers-tray-%1.lock").arg(port)))
{
    // Held as long as the tray runs: never stale by age, only when its process is gone.
    m_lock.setStaleLockTime(0);
}

SingleInstance::~SingleInstance()
{
    if (m_server)
        m_server->close(); // removes the socket file before the lock goes
}

Broker::Result<SingleInstance::Role> SingleInstance::claim(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (true) {
        // tryLock removes a lock whose process is gone (a crashed tray) and takes it.
        if (m_lock.tryLock(0))
            return becomePrimary();
        if (m_lock.error() != QLockFile::LockFailedError)
            return std::unexpected(Broker::Error {
                Broker::ErrorKind::Lock,
                QStringLiteral("Cannot create the lock file %1 (is XDG_RUNTIME_DIR writable?).")
                    .arg(lockPath())});
        auto asked = askPrimary(int(deadline.remainingTime()));
        if (asked || deadline.hasExpired())
            return asked;
        // The holder has not listened yet (it is starting) or just exited: try again.
        QThread::msleep(50);
    }
}

Broker::Result<SingleInstance::Role> SingleInstance::becomePrimary()
{
    // The lock is ours, so a socket file left behind belongs to a dead tray.
    QLocalServer::removeServer(m_socketPath);
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_server->listen(m_socketPath))
        return std::unexpected(Broker::Error {
            Broker::ErrorKind::Listen,
            QStringLiteral("Cannot listen on %1: %2").arg(m_socketPath, m_server->errorString())});
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *client = m_server->nextPendingConnection()) {
            connect(client, &QLocalSocket::disconnected, client, &QObject::deleteLater);
            QTimer::singleShot(kClientIdleMs, client, [client] { client->abort(); });
            connect(client, &QLocalSocket::readyRead, this, [this, client] {
                if (!client->canReadLine()) {
                    if (client->bytesAvailable() > kMaxRequest)
                        client->abort();
                    return;
                }
                const QByteArray request = client->readLine(kMaxRequest + 1);
                if (request != kRaise) {
                    qCWarning(lcUi) << "ignored an unknown request on" << m_socketPath;
                    client->abort();
                    return;
                }
                qCInfo(lcUi) << "another start of claude-peers-tray asked to show the window";
                client->write(kRaised);
                client->disconnectFromServer();
                Q_EMIT raiseRequested();
            });
        }
    });
    qCDebug(lcUi) << "single instance: listening on" << m_socketPath;
    return Role::Primary;
}

Broker::Result<SingleInstance::Role> SingleInstance::askPrimary(int timeoutMs)
{
    // Blocking waits are fine here: the event loop has not started yet.
    const QDeadlineTimer deadline(qMax(timeoutMs, 1));
    QLocalSocket socket;
    socket.connectToServer(m_socketPath);
    if (!socket.waitForConnected(int(deadline.remainingTime())))
        return std::unexpected(Broker::Error {
            Broker::ErrorKind::Unreachable,
            QStringLiteral("Another claude-peers-tray holds %1 but does not answer on %2 (%3). If it hangs, "
                           "end it; a tray that crashed is replaced at the next start.")
                .arg(lockPath(), m_socketPath, socket.errorString())});
    socket.write(kRaise);
    while (!socket.canReadLine() && socket.state() == QLocalSocket::ConnectedState && !deadline.hasExpired())
        socket.waitForReadyRead(int(deadline.remainingTime()));
    if (socket.readLine(kMaxRequest) != kRaised)
        return std::unexpected(
            Broker::Error {Broker::ErrorKind::Unreachable,
                           QStringLiteral("The running claude-peers-tray did not confirm the request on %1.")
                               .arg(m_socketPath)});
    return Role::Secondary;
}

} // namespace App
