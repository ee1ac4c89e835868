#pragma once

#include "brokerhost.h"

#include <QObject>
#include <QString>

namespace App {

// What the tray shows, computed without any GUI code: the status line, the tooltip, the icon
// state, whether "Retry" makes sense, and which failures deserve a notification. The tray
// icon and the Peers window are thin adapters over it; tests drive it directly.
class TrayPresenter : public QObject
{
    Q_OBJECT
public:
    enum class IconState { Running, Busy, Stopped };
    Q_ENUM(IconState)

    explicit TrayPresenter(BrokerHost *host, QObject *parent = nullptr);

    QString statusText() const { return m_statusText; }
    QString toolTip() const { return m_toolTip; }
    IconState iconState() const { return m_iconState; }
    bool canRetry() const { return m_canRetry; }
    int peerCount() const { return m_peerCount; }
    qint64 pendingCount() const { return m_pendingCount; }

    // Recomputes everything from the host's state and snapshot (done on each of their signals).
    void refresh();

Q_SIGNALS:
    // Any of the values above changed.
    void changed();
    // Something the user should be told even when no window is open (the broker could not
    // start or take over).
    void notificationRequested(const QString &title, const QString &message);

private:
    BrokerHost *m_host;
    QString m_statusText;
    QString m_toolTip;
    IconState m_iconState = IconState::Stopped;
    bool m_canRetry = false;
    int m_peerCount = 0;
    qint64 m_pendingCount = 0;
};

} // namespace App
