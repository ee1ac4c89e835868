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
class MainWindow;
class Notifier;
class PeersModel;
class PeersWindow;
class TrayIcon;
class TrayPresenter;

// The composition root of claude-peers-tray: the in-process broker (with hand-over), the
// presenter, the peers model, the main window and its pages, the tray icon and Unix signals,
// wired once here. main() only builds it and runs the event loop.
class TrayComposition : public QObject
{
    Q_OBJECT
public:
    explicit TrayComposition(Broker::Settings settings, QObject *parent = nullptr);
    ~TrayComposition() override;

    // Shows the tray icon (or the Peers window where no system tray exists) and starts the
    // broker, taking over from one that already runs.
    void start();
    // Shows and raises the main window (a second start of the tray asked for it).
    void showWindow();
    // "Start at login": writes or removes the user's XDG autostart entry.
    void setAutostart(bool enabled);
    // Stops the broker, then ends the event loop with exitCode.
    void quit(int exitCode = 0);

    BrokerHost *host() const { return m_host; }
    TrayPresenter *presenter() const { return m_presenter; }
    PeersModel *peersModel() const { return m_model; }
    MainWindow *mainWindow() const { return m_window.get(); }
    PeersWindow *peersPage() const { return m_peersPage; }
    // The GUI thread's client of the broker: the routes the CLI uses, so every action a page
    // takes has a `claude-peers … --json` twin. It reads the token file as the CLI does, so it
    // works whether this tray hosts the broker or another process does.
    Broker::BrokerClient *client() const { return m_client; }
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
    Broker::BrokerClient *m_client;
    Notifier *m_notifier;
    std::unique_ptr<MainWindow> m_window; // a top-level widget: no QObject parent
    PeersWindow *m_peersPage; // owned by m_window
    TrayIcon *m_tray = nullptr;
    Broker::UnixSignalNotifier *m_signals = nullptr;
};

} // namespace App
