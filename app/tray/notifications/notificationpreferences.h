#pragma once

#include "app/tray/notifications/notificationkind.h"
#include "common/result.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QStringList>
#include <QTime>

#include <functional>
#include <optional>

namespace App {

// Local-time window in which nothing pops up (the in-app list still records). A window whose
// end is before its start crosses midnight (22:00-07:00); start == end is no window at all.
struct QuietHours
{
    QTime start;
    QTime end;

    bool contains(QTime localTime) const;
    QString toText() const; // "22:00-07:00"
    // "HH:MM-HH:MM" (24-hour); an error in plain words otherwise.
    static Broker::Result<QuietHours> parse(const QString &text);
    bool operator==(const QuietHours &) const = default;
};

// Why a notification was not shown (Shown = it was).
enum class Suppression { Shown, AllOff, Paused, KindOff, PeerMuted, NotWaitingForYou, QuietHours };
QString suppressionKey(Suppression s); // "shown", "off", "paused", "kind_off", "peer_muted", …

// What the user chose about notifications: the tray's menu and pages, and
// `claude-peers notifications`, edit the same object in ~/.claude-peers-config.json under
// "notifications" (docs/protocol.md, "Config keys we add"). Value type; decide() is the one place
// that says whether a notification shows.
struct NotificationPreferences
{
    bool enabled = true; // "notifications off" turns every kind off at once
    QHash<NotificationKind, bool> kinds; // the user's choices; others: notificationKindOnByDefault
    QStringList mutedPeers; // peer ids, sorted
    std::optional<QuietHours> quietHours;
    bool paused = false;
    QDateTime pausedUntil; // invalid while paused = until turned back on
    bool onlyWaitingForYou = false;

    bool operator==(const NotificationPreferences &) const = default;

    bool kindEnabled(NotificationKind kind) const;
    void setKindEnabled(NotificationKind kind, bool on);
    bool isMuted(const QString &peerId) const { return mutedPeers.contains(peerId); }
    void mute(const QString &peerId);
    void unmute(const QString &peerId);
    // Paused now? A pause whose time has come is over (now is UTC or local, any will do).
    bool isPaused(const QDateTime &now) const;
    void pause(const QDateTime &until = {}); // invalid: until resume()
    void resume();

    // Whether an event of kind about peerId shows now; the first reason that holds when not.
    Suppression decide(NotificationKind kind, const QString &peerId, const QDateTime &now) const;

    QJsonObject toJson() const;
    // Unknown or mistyped entries are skipped (the defaults hold), never an error: the file is
    // the user's, and a tray must start anyway.
    static NotificationPreferences fromJson(const QJsonObject &object);

    // The "notifications" object of the config file at path (defaults when absent). An
    // unreadable or malformed file is an error: the caller shows it and keeps its defaults.
    static Broker::Result<NotificationPreferences> load(const QString &configPath);
    // Writes the "notifications" object, keeping every other key of the file; refuses to touch
    // a file it cannot parse (nothing is changed).
    Broker::Result<void> save(const QString &configPath) const;
    // Read, edited and written under the config file's lock (Broker::ConfigFile::update), so
    // concurrent edits of other preferences are kept: the way to change one preference. An edit
    // that returns false, or changes nothing, writes nothing. Returns the preferences as saved.
    static Broker::Result<NotificationPreferences>
    update(const QString &configPath, const std::function<bool(NotificationPreferences &)> &edit);
};

// "90s", "45m", "2h", "1h30m", "1d" → seconds; an error in plain words otherwise (at most 30 days).
Broker::Result<qint64> parseDuration(const QString &text);

} // namespace App
