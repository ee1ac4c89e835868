#pragma once

#include "broker/handover/fdpassing.h"
#include "broker/handover/handoverwire.h"
#include "common/result.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

#include <sys/types.h>

class QSocketNotifier;

namespace Broker::Handover {

// The running broker's side of the hand-over socket: an owner-only AF_UNIX SOCK_SEQPACKET
// socket in the runtime dir. A connection from another uid (SO_PEERCRED) is refused; a
// connection that sends no valid request within kRequestTimeoutMs is dropped. A valid request
// goes to the handler with the connection, which it answers (Fd::send) and keeps as long as it
// needs. Driven by the event loop (QSocketNotifier); never blocks.
class HandoverServer : public QObject
{
    Q_OBJECT
public:
    static constexpr int kRequestTimeoutMs = 2000;
    static constexpr int kMaxPending = 4;

    using Handler = std::function<void(const Request &request, Fd::Owned connection)>;

    explicit HandoverServer(Handler handler, QObject *parent = nullptr);
    ~HandoverServer() override; // close()

    // Replaces a stale socket file (one nobody answers on); refuses when a broker answers there.
    Result<void> listen(const QString &path);
    // Stops listening and removes the socket file if it is still the one we created (a
    // successor may already have put its own there).
    void close();
    bool isListening() const { return m_fd.isValid(); }
    QString path() const { return m_path; }

    // Tests: the uid a successor must have (default: ours).
    void setAllowedUid(uid_t uid) { m_allowedUid = uid; }

private:
    struct Pending;
    void onAcceptable();
    void onReadable(Pending *pending);
    void drop(Pending *pending);

    Handler m_handler;
    Fd::Owned m_fd;
    QString m_path;
    dev_t m_device = 0;
    ino_t m_inode = 0;
    uid_t m_allowedUid;
    QSocketNotifier *m_notifier = nullptr;
    std::vector<std::unique_ptr<Pending>> m_pending;
};

} // namespace Broker::Handover
