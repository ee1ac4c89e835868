#pragma once

#include "app/tray/traypresenter.h"

#include <QDateTime>
#include <QObject>

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace App {

// Thin adapter: shows the presenter's state as a QSystemTrayIcon with its menu and turns
// clicks into requests. Only created where a system tray exists. Every setter is skipped when
// its value did not change: on a StatusNotifierItem tray each one is a D-Bus round trip.
class TrayIcon : public QObject
{
    Q_OBJECT
public:
    explicit TrayIcon(TrayPresenter *presenter, QObject *parent = nullptr);
    ~TrayIcon() override;

    void show();
    QMenu *menu() const { return m_menu; }
    // The menu's peer entries as they are now (for tests: text and the peer each opens).
    QList<QAction *> peerActions() const { return m_peerActions; }
    QAction *autostartAction() const { return m_autostart; }
    QAction *sendAction() const { return m_send; }
    QAction *newSessionAction() const { return m_newSession; }
    // "Send…" and "New OpenCode session…" open pages that may not be built in: disabled then.
    void setPageActionsAvailable(bool send, bool newSession);
    // Ticks "Start at login" without emitting autostartToggled (the file system decides).
    void setAutostartChecked(bool checked);
    void showError(const QString &title, const QString &message);
    // The notifier's fallback: a message without actions (a click on it emits messageClicked).
    void showMessage(const QString &title, const QString &message, bool urgent);
    // "Pause notifications" shows the pause as it is: paused (until a time, or until resumed) or not.
    void setNotificationsPaused(bool paused, const QDateTime &until = {});
    QMenu *pauseMenu() const { return m_pauseMenu; }

Q_SIGNALS:
    void peersRequested();
    void sendRequested(); // "Send…": the Messages page
    void newSessionRequested(); // "New OpenCode session…": the Sessions page
    void peerRequested(const QString &peerId); // a peer entry of the menu was clicked
    void retryRequested();
    void quitRequested();
    void autostartToggled(bool enabled); // the user ticked or unticked "Start at login"
    void menuAboutToShow();
    void messageClicked(); // the fallback message was clicked
    // "Pause notifications": for seconds, or (0) until resumed; "Resume notifications".
    void pauseRequested(qint64 seconds);
    void resumeRequested();

private:
    void update();
    void rebuildPeerEntries();

    TrayPresenter *m_presenter;
    QMenu *m_menu;
    QSystemTrayIcon *m_icon;
    QAction *m_status;
    QAction *m_peersSeparator;
    QAction *m_retry;
    QAction *m_send;
    QAction *m_newSession;
    QAction *m_autostart;
    QMenu *m_pauseMenu;
    QAction *m_resume;
    QList<QAction *> m_pauseFor;
    QList<QAction *> m_peerActions;
    QList<AttentionItem> m_peerItems; // what m_peerActions show
    QString m_toolTip;
    TrayState m_iconState = TrayState::Error;
    int m_iconCount = -1; // none set yet
};

} // namespace App
