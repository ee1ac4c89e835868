#include "app/tray/notifications/notifier.h"

#include "app/tray/notifications/notificationlogging.h"

#include <QFileInfo>

namespace App {

namespace {

using Delivery = NotificationListModel::Delivery;
using Action = NotificationListModel::Action;

const QString kDefaultAction = QStringLiteral("default");
const QString kInlineReplyAction = QStringLiteral("inline-reply"); // the "inline-reply" capability's key

// Desktop Notifications Specification: urgency 0 low, 1 normal, 2 critical (stays until dismissed).
uchar urgencyOf(NotificationKind kind)
{
    switch (kind) {
    case NotificationKind::NeedsYou:
    case NotificationKind::BrokerProblem:
        return 2;
    case NotificationKind::PeerJoined:
    case NotificationKind::PeerLeft:
    case NotificationKind::SessionDone:
        return 0;
    default:
        return 1;
    }
}

// The specification's categories.
QString categoryOf(NotificationKind kind)
{
    switch (kind) {
    case NotificationKind::NeedsYou:
        return QStringLiteral("im");
    case NotificationKind::MessageReceived:
        return QStringLiteral("im.received");
    case NotificationKind::PeerJoined:
        return QStringLiteral("presence.online");
    case NotificationKind::PeerLeft:
        return QStringLiteral("presence.offline");
    case NotificationKind::PairingRequest:
        return QStringLiteral("network");
    case NotificationKind::SessionDone:
        return QStringLiteral("transfer.complete");
    case NotificationKind::ScheduleFailed:
        return QStringLiteral("transfer.error");
    case NotificationKind::FederationWarning:
    case NotificationKind::BrokerProblem:
        return QStringLiteral("network.error");
    }
    return {};
}

} // namespace

Notifier::Notifier(DesktopNotifications *desktop, Options options, QObject *parent)
    : QObject(parent),
      m_desktop(desktop),
      m_options(std::move(options)),
      m_list(new NotificationListModel(this))
{
    reloadIfChanged();
    if (!m_desktop)
        return;
    connect(m_desktop, &DesktopNotifications::serverChanged, this, [this] {
        // A new server (or none) knows none of our notifications: nothing to replace any more.
        m_byServerId.clear();
        m_serverIdByPeer.clear();
        flushWaiting();
    });
    connect(m_desktop, &DesktopNotifications::actionInvoked, this, &Notifier::onAction);
    connect(m_desktop, &DesktopNotifications::notificationClosed, this,
            [this](uint id, uint) { onClosed(id); });
    connect(m_desktop, &DesktopNotifications::notificationReplied, this, &Notifier::onReplied);
}

void Notifier::reloadIfChanged()
{
    if (m_options.configPath.isEmpty())
        return;
    const QFileInfo info(m_options.configPath);
    const QDateTime time = info.exists() ? info.lastModified() : QDateTime();
    const qint64 size = info.exists() ? info.size() : -1;
    if (time == m_fileTime && size == m_fileSize)
        return;
    m_fileTime = time;
    m_fileSize = size;
    auto loaded = NotificationPreferences::load(m_options.configPath);
    if (!loaded) {
        qCWarning(lcNotify).noquote()
            << loaded.error().message << "Keeping the notification preferences as they were.";
        return;
    }
    if (*loaded == m_preferences)
        return;
    m_preferences = *loaded;
    Q_EMIT preferencesChanged();
}

NotificationPreferences Notifier::preferences()
{
    reloadIfChanged();
    return m_preferences;
}

Broker::Result<void> Notifier::setPreferences(const NotificationPreferences &preferences)
{
    reloadIfChanged();
    if (!m_options.configPath.isEmpty()) {
        if (auto saved = preferences.save(m_options.configPath); !saved)
            return saved;
        const QFileInfo info(m_options.configPath);
        m_fileTime = info.lastModified();
        m_fileSize = info.size();
    }
    adopt(preferences);
    return {};
}

Broker::Result<void> Notifier::editPreferences(const std::function<void(NotificationPreferences &)> &edit)
{
    reloadIfChanged();
    if (m_options.configPath.isEmpty()) {
        NotificationPreferences p = m_preferences;
        edit(p);
        adopt(p);
        return {};
    }
    const auto saved =
        NotificationPreferences::update(m_options.configPath, [&edit](NotificationPreferences &p) {
            edit(p);
            return true;
        });
    if (!saved)
        return std::unexpected(saved.error());
    const QFileInfo info(m_options.configPath);
    m_fileTime = info.lastModified();
    m_fileSize = info.size();
    adopt(*saved);
    return {};
}

void Notifier::adopt(const NotificationPreferences &preferences)
{
    if (preferences == m_preferences)
        return;
    m_preferences = preferences;
    Q_EMIT preferencesChanged();
}

Suppression Notifier::decide(const NotificationEvent &event)
{
    reloadIfChanged();
    return m_preferences.decide(event.kind, event.peerId, now());
}

quint64 Notifier::notify(const NotificationEvent &event)
{
    const Suppression decision = decide(event);
    if (decision != Suppression::Shown) {
        qCDebug(lcNotify) << "not shown:" << notificationKindKey(event.kind) << event.peerId
                          << suppressionKey(decision);
        return m_list->add(event, now(), Delivery::Suppressed, decision);
    }
    const quint64 entryId = m_list->add(event, now(), Delivery::ListOnly);
    if (!m_desktop || m_desktop->state() == DesktopNotifications::State::Unavailable)
        fallBack(entryId, event);
    else if (m_desktop->state() == DesktopNotifications::State::Probing)
        m_waiting.append({entryId, event}); // shown once the server's capabilities are known
    else
        sendToDesktop(entryId, event);
    return entryId;
}

void Notifier::flushWaiting()
{
    if (!m_desktop || m_desktop->state() == DesktopNotifications::State::Probing)
        return;
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &[entryId, event] : waiting) {
        if (m_desktop->state() == DesktopNotifications::State::Available)
            sendToDesktop(entryId, event);
        else
            fallBack(entryId, event);
    }
}

QString Notifier::peerKey(const NotificationEvent &event) const
{
    // One notification per peer (session, schedule, request); events about no peer replace
    // their own kind's last one.
    if (event.peerId.isEmpty())
        return QStringLiteral("kind:") + notificationKindKey(event.kind);
    return QString::number(int(event.subject)) + QLatin1Char(':') + event.peerId;
}

void Notifier::sendToDesktop(quint64 entryId, const NotificationEvent &event)
{
    DesktopNotifications::Message m;
    m.appName = m_options.appName;
    m.appIcon = m_options.appIcon;
    m.summary = event.title;
    // A server with body-markup reads the body as markup: our text is plain, so it is escaped
    // there; elsewhere it is shown as is, and escaping would show "&lt;".
    m.body = m_desktop->hasCapability(QStringLiteral("body-markup"))
        ? DesktopNotifications::escapeMarkup(event.body)
        : event.body;
    m.expireTimeoutMs = m_options.expireTimeoutMs;
    const QString key = peerKey(event);
    m.replacesId = m_serverIdByPeer.value(key, 0);
    if (m_desktop->hasCapability(QStringLiteral("actions"))) {
        m.actions << kDefaultAction << tr("Open");
        if (!event.peerId.isEmpty()) {
            m.actions << QLatin1String(OpenAction) << tr("Open");
            switch (event.subject) {
            case NotificationSubject::Peer:
                if (m_canSendReplies && m_desktop->hasCapability(QStringLiteral("inline-reply")))
                    m.actions << kInlineReplyAction << tr("Reply");
                else
                    m.actions << QLatin1String(ReplyAction) << tr("Reply…");
                m.actions << QLatin1String(MuteAction) << tr("Mute peer");
                break;
            case NotificationSubject::OpenCodeSession:
                m.actions << QLatin1String(MuteAction) << tr("Mute session");
                break;
            case NotificationSubject::Schedule:
                m.actions << QLatin1String(MuteAction) << tr("Mute schedule");
                break;
            case NotificationSubject::PairingRequest:
                break; // a security decision is made on its card, not in a bubble
            }
        }
    }
    m.hints.insert(QStringLiteral("desktop-entry"), m_options.desktopEntry);
    m.hints.insert(QStringLiteral("urgency"), QVariant::fromValue(urgencyOf(event.kind)));
    m.hints.insert(QStringLiteral("category"), categoryOf(event.kind));
    if (m.actions.contains(kInlineReplyAction))
        m.hints.insert(QStringLiteral("x-kde-reply-placeholder-text"), tr("Reply to %1").arg(event.peerName));

    m_desktop->notify(m, [this, entryId, event, key](Broker::Result<uint> id) {
        if (!id) {
            fallBack(entryId, event);
            return;
        }
        // The server may hand out a new id even for a replacement: forget the old one.
        if (const uint old = m_serverIdByPeer.value(key, 0); old != 0 && old != *id)
            m_byServerId.remove(old);
        m_serverIdByPeer.insert(key, *id);
        m_byServerId.insert(
            *id, {entryId, event.peerId, event.subject == NotificationSubject::Peer, event.messageId});
        m_list->setDelivery(entryId, Delivery::Desktop);
    });
}

void Notifier::fallBack(quint64 entryId, const NotificationEvent &event)
{
    if (!m_trayAvailable)
        return; // the list has it (ListOnly)
    m_list->setDelivery(entryId, Delivery::Tray);
    m_lastTrayEntry = entryId;
    Q_EMIT trayMessageRequested(event.title, event.body, event.kind);
}

void Notifier::trayMessageClicked()
{
    if (m_lastTrayEntry != 0)
        open(m_lastTrayEntry);
}

void Notifier::open(quint64 entryId)
{
    const NotificationListModel::Entry *entry = m_list->entry(entryId);
    if (!entry)
        return;
    const NotificationEvent event = entry->event;
    m_list->setAction(entryId, Action::Opened);
    Q_EMIT openRequested(event);
}

void Notifier::mutePeer(quint64 entryId)
{
    const NotificationListModel::Entry *entry = m_list->entry(entryId);
    if (!entry || entry->event.peerId.isEmpty() ||
        entry->event.subject == NotificationSubject::PairingRequest)
        return;
    const QString peerId = entry->event.peerId;
    if (auto saved = editPreferences([&peerId](NotificationPreferences &p) { p.mute(peerId); }); !saved) {
        qCWarning(lcNotify).noquote() << saved.error().message;
        Q_EMIT errorOccurred(saved.error().message);
        return;
    }
    m_list->setAction(entryId, Action::Muted);
}

Broker::Result<void> Notifier::pause(const QDateTime &until)
{
    return editPreferences([&until](NotificationPreferences &p) { p.pause(until); });
}

Broker::Result<void> Notifier::resume()
{
    return editPreferences([](NotificationPreferences &p) { p.resume(); });
}

void Notifier::onAction(uint serverId, const QString &actionKey)
{
    const auto it = m_byServerId.constFind(serverId);
    if (it == m_byServerId.cend())
        return;
    const Shown shown = *it;
    qCDebug(lcNotify) << "action" << actionKey << "on" << serverId;
    if (actionKey == kDefaultAction || actionKey == QLatin1String(OpenAction)) {
        open(shown.entryId);
    } else if (actionKey == QLatin1String(ReplyAction)) {
        // No inline reply here: the window, on this peer, is where the operator writes it.
        open(shown.entryId);
    } else if (actionKey == QLatin1String(MuteAction)) {
        mutePeer(shown.entryId);
    }
}

void Notifier::onReplied(uint serverId, const QString &text)
{
    const auto it = m_byServerId.constFind(serverId);
    if (it == m_byServerId.cend() || it->peerId.isEmpty() || !it->canReply)
        return;
    m_list->setAction(it->entryId, Action::Replied);
    Q_EMIT replyRequested(it->peerId, text, it->messageId);
}

void Notifier::onClosed(uint serverId)
{
    const auto it = m_byServerId.constFind(serverId);
    if (it == m_byServerId.cend())
        return;
    m_byServerId.erase(it);
    for (auto p = m_serverIdByPeer.begin(); p != m_serverIdByPeer.end();) {
        if (p.value() == serverId)
            p = m_serverIdByPeer.erase(p);
        else
            ++p;
    }
}

} // namespace App
