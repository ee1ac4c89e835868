#include "app/tray/brokerthread.h"

#include "app/tray/snapshotpublisher.h"

#include <openssl/crypto.h>

namespace App {

HostedBroker::HostedBroker(Broker::Settings settings, QObject *parent)
    : QObject(parent), m_server(new Broker::BrokerServer(std::move(settings), this))
{
    m_publisher = new SnapshotPublisher([this] { return BrokerSnapshot::of(*m_server); }, this);
    using Broker::BrokerServer;
    for (auto signal :
         {&BrokerServer::peerRegistered, &BrokerServer::peerUpdated, &BrokerServer::peerRemoved})
        connect(m_server, signal, m_publisher, &SnapshotPublisher::markDirty);
    connect(m_server, &BrokerServer::messageStored, m_publisher, &SnapshotPublisher::markDirty);
    connect(m_server, &BrokerServer::messageDelivered, m_publisher, &SnapshotPublisher::markDirty);
    connect(m_server, &BrokerServer::remotePeersChanged, m_publisher, &SnapshotPublisher::markDirty);
}

HostedBroker::~HostedBroker()
{
    stop();
}

Broker::Result<void> HostedBroker::start()
{
    auto started = m_server->start();
    if (started)
        m_publisher->markDirty();
    return started;
}

void HostedBroker::stop()
{
    m_server->stop();
    m_publisher->reset();
}

BrokerThread::BrokerThread(Broker::Settings settings, QObject *parent)
    : QThread(parent), m_settings(std::move(settings))
{
    setObjectName(QStringLiteral("broker"));
}

BrokerThread::~BrokerThread()
{
    quit();
    wait();
}

void BrokerThread::launch()
{
    if (isRunning())
        return;
    start();
    m_ready.acquire();
}

void BrokerThread::run()
{
    serve();
    // The broker's TLS (federation) gave this thread OpenSSL state of its own: its random
    // generators. OpenSSL's release of them at thread exit did not happen here (LeakSanitizer
    // found 9 KB after every tray run; make test-asan), so the thread hands them back itself,
    // once everything that used them is gone. A restarted broker gets a new thread.
    OPENSSL_thread_stop();
}

void BrokerThread::serve()
{
    HostedBroker broker(m_settings);
    connect(&broker.publisher(), &SnapshotPublisher::published, this, &BrokerThread::snapshotPublished,
            Qt::DirectConnection);
    connect(&broker.server(), &Broker::BrokerServer::shutdownRequested, this,
            &BrokerThread::shutdownRequested, Qt::DirectConnection);
    connect(&broker.server(), &Broker::BrokerServer::handedOver, this, &BrokerThread::handedOver,
            Qt::DirectConnection);
    m_broker = &broker;
    m_ready.release();
    exec();
    m_broker = nullptr;
}

void BrokerThread::post(std::function<void(HostedBroker &)> job)
{
    Q_ASSERT(m_broker);
    QMetaObject::invokeMethod(
        m_broker, [broker = m_broker, job = std::move(job)] { job(*broker); }, Qt::QueuedConnection);
}

void BrokerThread::postAndWait(std::function<void(HostedBroker &)> job)
{
    Q_ASSERT(m_broker);
    Q_ASSERT(QThread::currentThread() != this);
    QMetaObject::invokeMethod(
        m_broker, [broker = m_broker, &job] { job(*broker); }, Qt::BlockingQueuedConnection);
}

} // namespace App
