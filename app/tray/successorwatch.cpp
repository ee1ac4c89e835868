#include "app/tray/successorwatch.h"

#include "common/brokerapi.h"
#include "common/brokerclient.h"

#include <QDir>

namespace App {

SuccessorWatch::SuccessorWatch(Broker::BrokerClient *client, int intervalMs, QObject *parent)
    : QObject(parent), m_client(client)
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &SuccessorWatch::poll);
}

void SuccessorWatch::start()
{
    m_timer.start();
    poll();
}

void SuccessorWatch::stop()
{
    m_timer.stop();
    ++m_round;
    m_inFlight = false;
}

void SuccessorWatch::poll()
{
    if (m_inFlight)
        return; // a slow broker: one poll at a time
    m_inFlight = true;
    const quint64 round = ++m_round;
    const Broker::BrokerApi api(*m_client);
    const auto goneWith = [this](const Broker::Error &error) {
        stop();
        Q_EMIT gone(error);
    };
    api.health([this, round, api, goneWith](Broker::Result<Broker::HealthAnswer> health) {
        if (round != m_round)
            return;
        if (!health) {
            m_inFlight = false;
            if (health.error().kind == Broker::ErrorKind::Unreachable)
                goneWith(health.error());
            return; // an odd answer: asked again at the next tick
        }
        const qint64 pid = health->pid.value_or(0);
        const qint64 pending = health->pendingMessages.value_or(0);
        Broker::ListPeersRequest request;
        request.scope = QStringLiteral("lan");
        request.cwd = QDir::homePath();
        api.call(request,
                 [this, round, pid, pending, goneWith](Broker::Result<Broker::ListPeersAnswer> peers) {
                     if (round != m_round)
                         return;
                     m_inFlight = false;
                     if (!peers) {
                         if (peers.error().kind == Broker::ErrorKind::Unreachable)
                             goneWith(peers.error());
                         return;
                     }
                     Q_EMIT polled(BrokerSnapshot {peers->peers, pending, {}}, pid);
                 });
    });
}

} // namespace App
