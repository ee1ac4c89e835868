#pragma once

#include "app/tray/notifications/notificationkind.h"
#include "app/tray/notifications/notificationpreferences.h"

#include <QFileSystemWatcher>
#include <QGroupBox>
#include <QHash>

#include <functional>

class QCheckBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTimeEdit;

namespace App {

// The Settings page's notification preferences (docs/spec/gui-anchors.md rows 11-12, "none of them has" #8):
// notifications on/off, each kind on/off, "only when something waits for me", quiet hours, pause
// and the muted peers (with unmute). They live in ~/.claude-peers-config.json under
// "notifications", the object `claude-peers notifications` edits: every change here is written at
// once, read-modify-write of that one field (an edit the CLI made meanwhile is kept), and the
// boxes follow the file when it changes on disk or the page is shown.
class NotificationSettings : public QGroupBox
{
    Q_OBJECT
public:
    explicit NotificationSettings(const QString &configPath, QWidget *parent = nullptr);

    // Re-reads the file into the boxes.
    void load();

    QCheckBox *enabledBox() const { return m_enabled; }
    QCheckBox *kindBox(NotificationKind kind) const { return m_kinds.value(kind); }
    QCheckBox *onlyWaitingBox() const { return m_onlyWaiting; }
    QCheckBox *quietHoursBox() const { return m_quiet; }
    QTimeEdit *quietFromEdit() const { return m_quietFrom; }
    QTimeEdit *quietToEdit() const { return m_quietTo; }
    QCheckBox *pausedBox() const { return m_paused; }
    QListWidget *mutedList() const { return m_muted; }
    QPushButton *unmuteButton() const { return m_unmute; }
    QLabel *statusLabel() const { return m_status; }

    // What a kind is called here ("A session needs you", …).
    static QString kindLabel(NotificationKind kind);

Q_SIGNALS:
    // A change was written (or refused: statusLabel() says why).
    void changed(bool ok);

private:
    // Applies edit to the preferences as they are in the file now, and writes them.
    void change(const std::function<void(NotificationPreferences &)> &edit);
    void watchFile();
    void updateEnabledState();

    QString m_configPath;
    QFileSystemWatcher m_watcher;
    bool m_loading = false;
    QCheckBox *m_enabled;
    QHash<NotificationKind, QCheckBox *> m_kinds;
    QCheckBox *m_onlyWaiting;
    QCheckBox *m_quiet;
    QTimeEdit *m_quietFrom;
    QTimeEdit *m_quietTo;
    QCheckBox *m_paused;
    QListWidget *m_muted;
    QPushButton *m_unmute;
    QLabel *m_status;
};

} // namespace App
