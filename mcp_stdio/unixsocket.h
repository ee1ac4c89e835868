#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>

class QSocketNotifier;
class QTimer;

// Unix domain stream sockets for the helper with Qt Core only (the helper links no QtNetwork,
// as BrokerClient explains): non-blocking POSIX sockets driven by QSocketNotifier.
namespace Mcp::UnixSocket {

// Connects to path, writes bytes, closes: the peer reads what was written and then EOF.
// done is called once, from the event loop: ok when every byte was handed to the peer.
void sendAndClose(const QString &path, const QByteArray &bytes, int timeoutMs, QObject *context,
                  std::function<void(Broker::Result<void>)> done);

// Listens at path (0600; a stale socket file there is replaced) and hands over each complete
// line of every connection. A connection ends at EOF, after maxLineBytes without a line end, or
// after idleTimeoutMs without data.
class LineListener : public QObject
{
    Q_OBJECT
public:
    LineListener(qsizetype maxLineBytes, int idleTimeoutMs, QObject *parent = nullptr);
    ~LineListener() override; // closes and removes the socket file

    Broker::Result<void> listen(const QString &path);
    QString path() const { return m_path; }

Q_SIGNALS:
    void lineReceived(const QByteArray &line);

private:
    void accept();

    qsizetype m_maxLineBytes;
    int m_idleTimeoutMs;
    int m_fd = -1;
    QString m_path;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace Mcp::UnixSocket
