#include "traypresenter.h"

namespace App {

TrayPresenter::TrayPresenter(BrokerHost *host, QObject *parent) : QObject(parent), m_host(host)
{
    // Snapshots come already coalesced and throttled from the broker thread.
    connect(host, &BrokerHost::snapshotChanged, this, &TrayPresenter::refresh);
    connect(host, &BrokerHost::stateChanged, this, &TrayPresenter::refresh);
    connect(host, &BrokerHost::failed, this, [this](const Broker::Error &error) {
        Q_EMIT notificationRequested(tr("claude-peers: broker not running"), error.message);
    });
    refresh();
}

void TrayPresenter::refresh()
{
    const quint16 port = m_host->port();
    const BrokerHost::State state = m_host->state();

    int peers = 0;
    qint64 pending = 0;
    QString status;
    IconState icon = IconState::Stopped;
    switch (state) {
    case BrokerHost::State::Running: {
        peers = int(m_host->snapshot().peers.size());
        pending = m_host->snapshot().pendingMessages;
        const QString peerText = peers == 1 ? tr("1 peer") : tr("%1 peers").arg(peers);
        status = tr("Broker running on port %1 — %2, %3 pending").arg(port).arg(peerText).arg(pending);
        icon = IconState::Running;
        break;
    }
    case BrokerHost::State::Starting:
        status = tr("Starting the broker on port %1…").arg(port);
        icon = IconState::Busy;
        break;
    case BrokerHost::State::HandingOver:
        status = tr("Taking port %1 over from the running broker…").arg(port);
        icon = IconState::Busy;
        break;
    case BrokerHost::State::Failed:
        status = tr("Broker not running: %1").arg(m_host->lastError().message);
        break;
    case BrokerHost::State::Stopped:
        status = tr("Broker not running: stopped");
        break;
    }
    const bool canRetry = state == BrokerHost::State::Failed || state == BrokerHost::State::Stopped;
    const QString toolTip = QStringLiteral("claude-peers\n") + status;

    if (status == m_statusText && toolTip == m_toolTip && icon == m_iconState && canRetry == m_canRetry &&
        peers == m_peerCount && pending == m_pendingCount)
        return;
    m_statusText = status;
    m_toolTip = toolTip;
    m_iconState = icon;
    m_canRetry = canRetry;
    m_peerCount = peers;
    m_pendingCount = pending;
    Q_EMIT changed();
}

} // namespace App
