#pragma once

#include <QObject>

class QSocketNotifier;

namespace Mcp {

// SIGTERM, SIGINT and SIGHUP turned into a Qt signal through a self-pipe: the handler only
// writes one byte, the event loop does the rest (clean shutdown with /unregister). One
// instance per process.
class SignalWatch : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatch(QObject *parent = nullptr);
    ~SignalWatch() override;

Q_SIGNALS:
    void terminationRequested(int signal);

private:
    void onReadable();

    QSocketNotifier *m_notifier = nullptr;
};

} // namespace Mcp
