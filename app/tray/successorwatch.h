#pragma once

#include "app/tray/brokersnapshot.h"
#include "common/result.h"

#include <QObject>
#include <QTimer>

namespace Broker {
class BrokerClient;
}

namespace App {

// The tray after it handed its port to another broker process (`claude-peers restart`, a
// package upgrade starting a headless broker): it stays open as that broker's client. This
// polls the broker over HTTP (GET /health, POST /list-peers scope "lan" with the main token, as
// `claude-peers peers` does) and turns the answers into the same BrokerSnapshot the hosted
// broker publishes, so the presenter and the Peers list go on unchanged. Federation warnings
// are the hosting process's to show: empty here.
class SuccessorWatch : public QObject
{
    Q_OBJECT
public:
    SuccessorWatch(Broker::BrokerClient *client, int intervalMs, QObject *parent = nullptr);

    // Polls now and then every intervalMs until stop().
    void start();
    void stop();
    bool isWatching() const { return m_timer.isActive(); }
    void setIntervalMs(int ms) { m_timer.setInterval(ms); }

Q_SIGNALS:
    // A poll answered; pid is the process that serves the port now (it may change: a further
    // hand-over between brokers the tray does not host).
    void polled(const App::BrokerSnapshot &snapshot, qint64 pid);
    // Nobody answers on the port any more (the broker stopped or died): the watch has stopped.
    void gone(const Broker::Error &error);

private:
    void poll();

    Broker::BrokerClient *m_client;
    QTimer m_timer;
    quint64 m_round = 0; // answers of a poll before stop() are ignored
    bool m_inFlight = false;
};

} // namespace App
