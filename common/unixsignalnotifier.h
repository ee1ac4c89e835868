#pragma once

#include <QList>
#include <QObject>

class QSocketNotifier;

namespace Broker {

// Unix signals as a Qt signal, through the self-pipe pattern: the async-signal handler only
// writes the signal number into a socket pair; the event loop reads it and emits
// signalReceived() where any slot may run. One instance per process (the handlers are
// process-wide; a second one warns and stays inert): the headless broker, the tray and the helper.
class UnixSignalNotifier : public QObject
{
    Q_OBJECT
public:
    explicit UnixSignalNotifier(const QList<int> &signalNumbers, QObject *parent = nullptr);
    ~UnixSignalNotifier() override; // restores the default dispositions

    bool isValid() const { return m_notifier != nullptr; }

    // SIGPIPE would kill a process writing to a closed socket or pipe; we want EPIPE instead.
    static void ignoreSigPipe();

Q_SIGNALS:
    void signalReceived(int signalNumber);

private:
    void readSignals();

    QList<int> m_signals;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace Broker
