#pragma once

#include "app/tray/notifications/desktopnotifications.h"
#include "app/tray/notifications/notificationkind.h"
#include "app/tray/notifications/notificationlistmodel.h"
#include "app/tray/notifications/notificationpreferences.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

#include <functional>

namespace App {

// Decides whether and how each notification reaches the user; the presenter (and the pages)
// decide what to say. Every event is recorded in the in-app list. If the preferences let it
// through, it goes to the desktop's notification server — with Open, Reply and Mute peer actions
// where the server shows actions, replacing the same peer's previous notification instead of
// stacking another — else, when no server answers or a call fails, through the tray icon
// (trayMessageRequested) when there is one; the list always has it.
//
// Preferences live in the config file (NotificationPreferences); they are re-read when the file
// changed on disk (`claude-peers notifications …` edits it), checked before each decision.
class Notifier : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString configPath; // ~/.claude-peers-config.json; empty: preferences in memory only
        QString appName = QStringLiteral("claude-peers");
        QString appIcon = QStringLiteral("claude-peers");
        QString desktopEntry = QStringLiteral("claude-peers-tray"); // resources/claude-peers-tray.desktop
        int expireTimeoutMs = -1; // the server's default
    };

    // The action keys we send (besides "default", a click on the bubble, which opens too).
    static constexpr const char *OpenAction = "open";
    static constexpr const char *ReplyAction = "reply";
    static constexpr const char *MuteAction = "mute";

    // desktop may be null (no D-Bus at all): the tray and the list then carry everything.
    Notifier(DesktopNotifications *desktop, Options options, QObject *parent = nullptr);

    NotificationListModel *list() const { return m_list; }
    DesktopNotifications *desktop() const { return m_desktop; }

    // The tray's fallback exists (a system tray is shown).
    void setTrayAvailable(bool available) { m_trayAvailable = available; }
    // Whether "Reply" can send the text as the operator; without a sender, Reply opens the window.
    void setCanSendReplies(bool can) { m_canSendReplies = can; }
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }
    QDateTime now() const { return m_clock ? m_clock() : QDateTime::currentDateTimeUtc(); }

    // The preferences as of now (re-read from the file when it changed).
    NotificationPreferences preferences();
    // Saves them (the file keeps its other keys); an error in plain words when it cannot.
    Broker::Result<void> setPreferences(const NotificationPreferences &preferences);
    // Applies edit to what the file says now, under its lock (NotificationPreferences::update):
    // a preference changed meanwhile elsewhere (the CLI) is kept.
    Broker::Result<void> editPreferences(const std::function<void(NotificationPreferences &)> &edit);
    // The decision alone, without showing anything.
    Suppression decide(const NotificationEvent &event);

    // Records event and shows it if the preferences let it through. Returns its list entry's id.
    quint64 notify(const NotificationEvent &event);

    // The user's answers, from the desktop, the tray or the window.
    void open(quint64 entryId);
    void mutePeer(quint64 entryId);
    // The tray's message (the fallback) was clicked: opens what it said.
    void trayMessageClicked();
    // Pause until `until` (invalid: until resume()).
    Broker::Result<void> pause(const QDateTime &until = {});
    Broker::Result<void> resume();

Q_SIGNALS:
    // Fallback: the tray shows it with QSystemTrayIcon::showMessage.
    void trayMessageRequested(const QString &title, const QString &body, App::NotificationKind kind);
    // Open: show the window on what the event is about (its subject and peerId; an empty id:
    // the window itself).
    void openRequested(const App::NotificationEvent &event);
    // An inline reply typed in the notification: send it to the peer as the operator.
    // messageId: the message the notification was about (0: none), which the reply answers.
    void replyRequested(const QString &peerId, const QString &text, qint64 messageId);
    // Preferences changed (here or on disk): pause state, mutes, …
    void preferencesChanged();
    // A preference could not be saved (shown by the tray).
    void errorOccurred(const QString &message);

private:
    struct Shown
    {
        quint64 entryId = 0;
        QString peerId;
        bool canReply = false;
        qint64 messageId = 0;
    };

    void adopt(const NotificationPreferences &preferences); // emits preferencesChanged on a change
    void sendToDesktop(quint64 entryId, const NotificationEvent &event);
    void fallBack(quint64 entryId, const NotificationEvent &event);
    void flushWaiting();
    void onAction(uint serverId, const QString &actionKey);
    void onClosed(uint serverId);
    void onReplied(uint serverId, const QString &text);
    QString peerKey(const NotificationEvent &event) const;
    void reloadIfChanged();

    DesktopNotifications *m_desktop;
    Options m_options;
    NotificationListModel *m_list;
    std::function<QDateTime()> m_clock;
    bool m_trayAvailable = false;
    bool m_canSendReplies = false;

    NotificationPreferences m_preferences;
    QDateTime m_fileTime; // of the config file when last read
    qint64 m_fileSize = -1;

    QList<std::pair<quint64, NotificationEvent>> m_waiting; // while the server is probed
    QHash<uint, Shown> m_byServerId; // our notifications on the server
    QHash<QString, uint> m_serverIdByPeer; // the one notification per peer (replaces_id)
    quint64 m_lastTrayEntry = 0; // what a click on the tray's message opens
};

} // namespace App
