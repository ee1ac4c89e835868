#pragma once

#include "broker/brokerserver.h"

#include <QObject>

#include <functional>
#include <memory>

namespace Broker {
class BrokerClient;
class UnixSignalNotifier;
} // namespace Broker

namespace App {

class ActivityNotifications;
class Autostart;
class BrokerHost;
class FederationPage;
class FirstRunWizard;
class MainWindow;
class MessagesPage;
class OperatorPeer;
class OpenCodeActivity;
class SchedulesPage;
class SessionsPage;
class Notifier;
struct NotificationEvent;
class PeersModel;
class PeersPage;
class SettingsPage;
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

    // No tray icon: the window is the app (closing it quits). `claude-peers-tray --windowed`.
    void setWindowed(bool windowed) { m_windowed = windowed; }
    // Whether a system tray exists now (default QSystemTrayIcon::isSystemTrayAvailable), and how
    // long to wait for one that appears late (the panel starts after the app at login): asked
    // every pollMs, at most attempts times, then the window stays the app.
    void setTrayAvailability(std::function<bool()> available, int pollMs = 2000, int attempts = 30);
    // `claude-peers-tray --wait`: with no system tray at start, show no window and wait for one
    // (asked every pollMs, without a limit); the broker runs meanwhile.
    void setWaitForTray(bool wait) { m_waitForTray = wait; }

    // Shows the tray icon (or the window where no system tray exists, watching for one that
    // appears late) and starts the broker, taking over from one that already runs.
    void start();
    // The first-run wizard (keychain, start at login, connect sessions, federation), shown
    // once per user; main() asks for it (or `--first-run`).
    void showFirstRunWizard();
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
    PeersPage *peersPage() const { return m_peersPage; }
    SettingsPage *settingsPage() const { return m_settingsPage; }
    // The GUI thread's client of the broker: the routes the CLI uses, so every action a page
    // takes has a `claude-peers … --json` twin. It reads the token file as the CLI does, so it
    // works whether this tray hosts the broker or another process does.
    Broker::BrokerClient *client() const { return m_client; }
    // The human at the tray as a peer (sends, replies, receives); started with the broker.
    OperatorPeer *operatorPeer() const { return m_operator; }
    MessagesPage *messagesPage() const { return m_messagesPage; }
    TrayIcon *trayIcon() const { return m_tray; } // null while no tray exists
    FirstRunWizard *firstRunWizard() const { return m_wizard; } // null unless shown
    // OpenCode sessions' live state (the control service's session watcher) and their pages.
    OpenCodeActivity *openCodeActivity() const { return m_openCode; }
    SessionsPage *sessionsPage() const { return m_sessionsPage; }
    SchedulesPage *schedulesPage() const { return m_schedulesPage; }
    // Decides and shows notifications; its list() is the in-app history.
    Notifier *notifier() const { return m_notifier; }
    FederationPage *federationPage() const { return m_federationPage; }
    // A notification's Open: the page and item it is about.
    void openNotification(const NotificationEvent &event);
    // The operator's inline reply from a notification: sent to the peer by the operator peer.
    void sendReply(const QString &peerId, const QString &text, qint64 messageId);
    // What a message to the operator raises: the sender by name, a quote of the text.
    NotificationEvent messageNotification(const Broker::Message &message) const;

private:
    void onUnixSignal(int signalNumber);
    Autostart autostart() const;
    void createTrayIcon();
    // The Sessions page on an OpenCode session (its send, fork and wait live there).
    void openSession(const QString &directory, const QString &sessionId);
    void pollForTray();
    void wireNotifications();
    void showPauseState();

    BrokerHost *m_host;
    TrayPresenter *m_presenter;
    PeersModel *m_model;
    Broker::BrokerClient *m_client;
    OperatorPeer *m_operator;
    MessagesPage *m_messagesPage = nullptr; // owned by m_window
    Notifier *m_notifier;
    std::unique_ptr<MainWindow> m_window; // a top-level widget: no QObject parent
    PeersPage *m_peersPage; // owned by m_window
    SettingsPage *m_settingsPage; // owned by m_window
    OpenCodeActivity *m_openCode;
    ActivityNotifications *m_activityNotifications;
    FederationPage *m_federationPage = nullptr; // owned by m_window
    SessionsPage *m_sessionsPage; // owned by m_window
    SchedulesPage *m_schedulesPage; // owned by m_window
    TrayIcon *m_tray = nullptr;
    Broker::UnixSignalNotifier *m_signals = nullptr;
    FirstRunWizard *m_wizard = nullptr; // deletes itself on close
    bool m_windowed = false;
    bool m_waitForTray = false;
    std::function<bool()> m_trayAvailable;
    int m_trayPollMs = 2000;
    int m_trayPollAttemptsLeft = 30;
};

} // namespace App
