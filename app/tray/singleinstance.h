#pragma once

#include "common/result.h"

#include <QLockFile>
#include <QObject>

#include <memory>

class QLocalServer;

namespace App {

// One tray per user and broker port: the first start holds a lock file and listens on a local
// socket (both in XDG_RUNTIME_DIR); a second start asks it to show its window and exits 0.
// The lock decides who is first, so two starts at once cannot both listen, and a crashed
// first instance's lock (dead pid) and socket file are taken over instead of blocking.
class SingleInstance : public QObject
{
    Q_OBJECT
public:
    enum class Role { Primary, Secondary };

    // runtimeDir: XDG_RUNTIME_DIR (per user); port: the broker's port the tray hosts.
    SingleInstance(const QString &runtimeDir, quint16 port, QObject *parent = nullptr);
    ~SingleInstance() override;

    // Primary: this process is the tray and listens for raise requests. Secondary: the running
    // tray was asked to show its window. An error when neither works (say what to do).
    Broker::Result<Role> claim(int timeoutMs = 5000);

    QString socketPath() const { return m_socketPath; }
    QString lockPath() const { return m_lock.fileName(); }

    // The most a raise request may be (one short line); anything else is dropped.
    static constexpr qsizetype kMaxRequest = 64;

Q_SIGNALS:
    void raiseRequested(); // a second start asked the primary to show its window

private:
    Broker::Result<Role> becomePrimary();
    Broker::Result<Role> askPrimary(int timeoutMs);

    QString m_socketPath;
    QLockFile m_lock;
    QLocalServer *m_server = nullptr;
};

} // namespace App
