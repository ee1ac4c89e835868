#pragma once

#include <QWidget>

class QLabel;
class QListView;
class QPushButton;

namespace App {

class Notifier;

// The in-app notification list (page "notifications"): every notification, newest first, shown on
// the desktop or not (muted, paused, quiet hours say so), unread in bold. Activating one opens it
// (as the notification's Open would); "Mute peer" mutes the selected one's peer. It is the
// fallback where the desktop shows nothing, and the history.
class NotificationsPage : public QWidget
{
    Q_OBJECT
public:
    explicit NotificationsPage(Notifier *notifier, QWidget *parent = nullptr);

    QListView *view() const { return m_view; }
    QPushButton *muteButton() const { return m_mute; }
    QPushButton *markAllReadButton() const { return m_markAllRead; }
    QLabel *statusLabel() const { return m_status; }

    // "Notifications paused until 14:30", "Quiet hours 22:00-07:00", … (read when shown).
    void refreshStatus();

protected:
    void showEvent(QShowEvent *event) override;

private:
    quint64 selectedEntry() const;
    void updateButtons();

    Notifier *m_notifier;
    QLabel *m_status;
    QListView *m_view;
    QPushButton *m_mute;
    QPushButton *m_markAllRead;
    QPushButton *m_clear;
};

} // namespace App
