#pragma once

#include "brokerserver.h"

#include <QObject>

#include <memory>

namespace Broker {
class BrokerClient;
class UnixSignalNotifier;
} // namespace Broker

namespace App {

class Autostart;
class BrokerHost;
class Notifier;
class PeersModel;
class PeersWindow;
class TrayIcon;
class TrayPresenter;

// The composition root of claude-peers-tray: the in-process broker (with hand-over), the
// presenter, the peers model and window, the tray icon and Unix signals, wired once here.
// main() only builds it and runs the event loop.
class TrayComposition : public QObject
{
    Q_OBJECT
public:
    explicit TrayComposition(Broker::Settings settings, QObject *parent = nullptr);
    ~TrayComposition() override;

    // Shows the tray icon (or the Peers window where no system tray exists) and starts the
    // broker, taking over from one that already runs.
    void start();
    // Shows and raises the Peers window (a second start of the tray asked for it).
    void showWindow();
    // "Start at login": writes or removes the user's XDG autostart entry.
    void setAutostart(bool enabled);
    // Stops the broker, then ends the event loop with exitCode.
    void quit(int exitCode = 0);

    BrokerHost *host() const { return m_host; }
    TrayPresenter *presenter() const { return m_presenter; }
    PeersModel *peersModel() const { return m_model; }
    PeersWindow *peersWindow() const { return m_window.get(); }
    // Decides and shows notifications; its list() is the in-app history.
    Notifier *notifier() const { return m_notifier; }
    // The operator's inline reply from a notification: sent to the peer (from_id "operator").
    void sendReply(const QString &peerId, const QString &text);

private:
    void onUnixSignal(int signalNumber);
    Autostart autostart() const;
    void wireNotifications();
    void showPauseState();

    BrokerHost *m_host;
    TrayPresenter *m_presenter;
    PeersModel *m_model;
    std::unique_ptr<PeersWindow> m_window; // a top-level widget: no QObject parent
    Notifier *m_notifier;
    Broker::BrokerClient *m_client; // the operator's replies
    TrayIcon *m_tray = nullptr;
    Broker::UnixSignalNotifier *m_signals = nullptr;
};

} // namespace App
