#pragma once

#include "traypresenter.h"

#include <QObject>

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace App {

// Thin adapter: shows the presenter's state as a QSystemTrayIcon with its menu and turns
// clicks into requests. Only created where a system tray exists.
class TrayIcon : public QObject
{
    Q_OBJECT
public:
    explicit TrayIcon(TrayPresenter *presenter, QObject *parent = nullptr);
    ~TrayIcon() override;

    void show();
    QMenu *menu() const { return m_menu; }

Q_SIGNALS:
    void peersRequested();
    void retryRequested();
    void quitRequested();

private:
    void update();

    TrayPresenter *m_presenter;
    QMenu *m_menu;
    QSystemTrayIcon *m_icon;
    QAction *m_status;
    QAction *m_retry;
    TrayPresenter::IconState m_iconState = TrayPresenter::IconState::Stopped;
};

} // namespace App
