#pragma once

#include "brokerserver.h"

#include <QObject>

#include <memory>

namespace Broker {
class UnixSignalNotifier;
}

namespace App {

class BrokerHost;
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
    // Stops the broker, then ends the event loop with exitCode.
    void quit(int exitCode = 0);

    BrokerHost *host() const { return m_host; }
    TrayPresenter *presenter() const { return m_presenter; }
    PeersModel *peersModel() const { return m_model; }
    PeersWindow *peersWindow() const { return m_window.get(); }

private:
    void onUnixSignal(int signalNumber);

    BrokerHost *m_host;
    TrayPresenter *m_presenter;
    PeersModel *m_model;
    std::unique_ptr<PeersWindow> m_window; // a top-level widget: no QObject parent
    TrayIcon *m_tray = nullptr;
    Broker::UnixSignalNotifier *m_signals = nullptr;
};

} // namespace App
