#include "app/tray/notifications/notificationpreferences.h"

#include "common/config.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace App {

namespace {

const QString kNotifications = QStringLiteral("notifications");
const QString kEnabled = QStringLiteral("enabled");
const QString kKinds = QStringLiteral("kinds");
const QString kMutedPeers = QStringLiteral("muted_peers");
const QString kQuietHours = QStringLiteral("quiet_hours");
const QString kStart = QStringLiteral("start");
const QString kEnd = QStringLiteral("end");
const QString kPaused = QStringLiteral("paused");
const QString kPausedUntil = QStringLiteral("paused_until");
const QString kOnlyWaiting = QStringLiteral("only_waiting_for_me");

constexpr qint64 MaxDurationSeconds = 30LL * 24 * 3600;

QTime parseClock(const QString &text)
{
    static const QRegularExpression clock(QStringLiteral("^([01]?\\d|2[0-3]):([0-5]\\d)$"));
    const QRegularExpressionMatch m = clock.match(text.trimmed());
    if (!m.hasMatch())
        return {};
    return QTime(m.captured(1).toInt(), m.captured(2).toInt());
}

} // namespace

bool QuietHours::contains(QTime t) const
{
    if (!start.isValid() || !end.isValid() || start == end)
        return false;
    if (start < end)
        return t >= start && t < end;
    return t >= start || t < end; // crosses midnight
}

QString QuietHours::toText() const
{
    return start.toString(QStringLiteral("HH:mm")) + QLatin1Char('-') + end.toString(QStringLiteral("HH:mm"));
}

Broker::Result<QuietHours> QuietHours::parse(const QString &text)
{
    const QStringList parts = text.split(QLatin1Char('-'));
    const QTime start = parts.size() == 2 ? parseClock(parts.at(0)) : QTime();
    const QTime end = parts.size() == 2 ? parseClock(parts.at(1)) : QTime();
    if (!start.isValid() || !end.isValid())
        return Broker::fail(Broker::ErrorKind::Usage,
                            QStringLiteral("Quiet hours must be HH:MM-HH:MM in 24-hour local time, e.g. "
                                           "22:00-07:00 (got '%1').")
                                .arg(text));
    if (start == end)
        return Broker::fail(Broker::ErrorKind::Usage,
                            QStringLiteral("Quiet hours %1 start and end at the same time; to turn them "
                                           "off, say 'off'.")
                                .arg(text));
    return QuietHours {start, end};
}

QString suppressionKey(Suppression s)
{
    switch (s) {
    case Suppression::Shown:
        return QStringLiteral("shown");
    case Suppression::AllOff:
        return QStringLiteral("off");
    case Suppression::Paused:
        return QStringLiteral("paused");
    case Suppression::KindOff:
        return QStringLiteral("kind_off");
    case Suppression::PeerMuted:
        return QStringLiteral("peer_muted");
    case Suppression::NotWaitingForYou:
        return QStringLiteral("not_waiting_for_you");
    case Suppression::QuietHours:
        return QStringLiteral("quiet_hours");
    }
    return {};
}

bool NotificationPreferences::kindEnabled(NotificationKind kind) const
{
    return kinds.value(kind, notificationKindOnByDefault(kind));
}

void NotificationPreferences::setKindEnabled(NotificationKind kind, bool on)
{
    if (on == notificationKindOnByDefault(kind))
        kinds.remove(kind);
    else
        kinds.insert(kind, on);
}

void NotificationPreferences::mute(const QString &peerId)
{
    if (peerId.isEmpty() || mutedPeers.contains(peerId))
        return;
    mutedPeers << peerId;
    mutedPeers.sort();
}

void NotificationPreferences::unmute(const QString &peerId)
{
    mutedPeers.removeAll(peerId);
}

bool NotificationPreferences::isPaused(const QDateTime &now) const
{
    return paused && (!pausedUntil.isValid() || now < pausedUntil);
}

void NotificationPreferences::pause(const QDateTime &until)
{
    paused = true;
    pausedUntil = until.isValid() ? until.toUTC() : QDateTime();
}

void NotificationPreferences::resume()
{
    paused = false;
    pausedUntil = {};
}

Suppression NotificationPreferences::decide(NotificationKind kind, const QString &peerId,
                                            const QDateTime &now) const
{
    if (!enabled)
        return Suppression::AllOff;
    if (isPaused(now))
        return Suppression::Paused;
    if (!kindEnabled(kind))
        return Suppression::KindOff;
    if (!peerId.isEmpty() && isMuted(peerId))
        return Suppression::PeerMuted;
    if (onlyWaitingForYou && !notificationKindWaitsForYou(kind))
        return Suppression::NotWaitingForYou;
    if (quietHours && quietHours->contains(now.toLocalTime().time()))
        return Suppression::QuietHours;
    return Suppression::Shown;
}

QJsonObject NotificationPreferences::toJson() const
{
    QJsonObject object {{kEnabled, enabled}, {kOnlyWaiting, onlyWaitingForYou}, {kPaused, paused}};
    QJsonObject kindObject;
    for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
        kindObject.insert(notificationKindKey(it.key()), it.value());
    if (!kindObject.isEmpty())
        object.insert(kKinds, kindObject);
    if (!mutedPeers.isEmpty())
        object.insert(kMutedPeers, QJsonArray::fromStringList(mutedPeers));
    if (quietHours)
        object.insert(kQuietHours,
                      QJsonObject {{kStart, quietHours->start.toString(QStringLiteral("HH:mm"))},
                                   {kEnd, quietHours->end.toString(QStringLiteral("HH:mm"))}});
    if (paused && pausedUntil.isValid())
        object.insert(kPausedUntil, pausedUntil.toUTC().toString(Qt::ISODate));
    return object;
}

NotificationPreferences NotificationPreferences::fromJson(const QJsonObject &object)
{
    NotificationPreferences p;
    if (object.value(kEnabled).isBool())
        p.enabled = object.value(kEnabled).toBool();
    if (object.value(kOnlyWaiting).isBool())
        p.onlyWaitingForYou = object.value(kOnlyWaiting).toBool();
    const QJsonObject kindObject = object.value(kKinds).toObject();
    for (auto it = kindObject.begin(); it != kindObject.end(); ++it) {
        const auto kind = notificationKindFromKey(it.key());
        if (kind && it.value().isBool())
            p.setKindEnabled(*kind, it.value().toBool());
    }
    for (const QJsonValue &peer : object.value(kMutedPeers).toArray())
        if (peer.isString())
            p.mute(peer.toString());
    const QJsonObject quiet = object.value(kQuietHours).toObject();
    const QTime start = parseClock(quiet.value(kStart).toString());
    const QTime end = parseClock(quiet.value(kEnd).toString());
    if (start.isValid() && end.isValid() && start != end)
        p.quietHours = QuietHours {start, end};
    if (object.value(kPaused).isBool() && object.value(kPaused).toBool()) {
        const QDateTime until = QDateTime::fromString(object.value(kPausedUntil).toString(), Qt::ISODate);
        p.pause(until); // a missing or unreadable time: paused until turned back on
    }
    return p;
}

Broker::Result<NotificationPreferences> NotificationPreferences::load(const QString &configPath)
{
    const Broker::ConfigFile config = Broker::ConfigFile::load(configPath);
    if (!config.warning().isEmpty())
        return Broker::fail(Broker::ErrorKind::Unreadable, config.warning());
    return fromJson(config.root().value(kNotifications).toObject());
}

Broker::Result<void> NotificationPreferences::save(const QString &configPath) const
{
    const auto saved = update(configPath, [this](NotificationPreferences &p) {
        p = *this;
        return true;
    });
    return saved ? Broker::Result<void> {} : std::unexpected(saved.error());
}

Broker::Result<NotificationPreferences>
NotificationPreferences::update(const QString &configPath,
                                const std::function<bool(NotificationPreferences &)> &edit)
{
    NotificationPreferences p;
    const auto saved = Broker::ConfigFile::update(configPath, [&](Broker::ConfigFile &config) {
        p = fromJson(config.root().value(kNotifications).toObject());
        const NotificationPreferences before = p;
        if (!edit(p) || p == before)
            return false;
        QJsonObject root = config.root();
        root.insert(kNotifications, p.toJson());
        config.setRoot(root);
        return true;
    });
    if (!saved)
        return std::unexpected(saved.error());
    return p;
}

Broker::Result<qint64> parseDuration(const QString &text)
{
    static const QRegularExpression part(QStringLiteral("(\\d+)([smhd])"));
    const QString t = text.trimmed().toLower();
    qint64 seconds = 0;
    qsizetype at = 0;
    bool any = false;
    while (at < t.size()) {
        const QRegularExpressionMatch m =
            part.match(t, at, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
        if (!m.hasMatch() || m.captured(1).size() > 7) {
            any = false;
            break;
        }
        const qint64 n = m.captured(1).toLongLong();
        const QChar unit = m.captured(2).at(0);
        seconds += n * (unit == u's' ? 1 : unit == u'm' ? 60 : unit == u'h' ? 3600 : 86400);
        at = m.capturedEnd();
        any = true;
    }
    if (!any || seconds <= 0)
        return Broker::fail(
            Broker::ErrorKind::Usage,
            QStringLiteral("'%1' is not a duration: say e.g. 30m, 2h, 1h30m or 1d.").arg(text));
    if (seconds > MaxDurationSeconds)
        return Broker::fail(Broker::ErrorKind::Usage,
                            QStringLiteral("%1 is longer than 30 days: pause without --for to pause until "
                                           "`claude-peers notifications resume`.")
                                .arg(text));
    return seconds;
}

} // namespace App
