#include "app/tray/notifications/notificationkind.h"

#include <array>
#include <utility>

namespace App {

namespace {

using enum NotificationKind;

constexpr std::array<std::pair<NotificationKind, const char *>, 9> kKeys {{
    {NeedsYou, "needs_you"},
    {MessageReceived, "message_received"},
    {PeerJoined, "peer_joined"},
    {PeerLeft, "peer_left"},
    {FederationWarning, "federation_warning"},
    {PairingRequest, "pairing_request"},
    {SessionDone, "session_done"},
    {ScheduleFailed, "schedule_failed"},
    {BrokerProblem, "broker_problem"},
}};

} // namespace

QList<NotificationKind> allNotificationKinds()
{
    QList<NotificationKind> kinds;
    for (const auto &[kind, key] : kKeys)
        kinds << kind;
    return kinds;
}

QString notificationKindKey(NotificationKind kind)
{
    for (const auto &[k, key] : kKeys)
        if (k == kind)
            return QLatin1String(key);
    Q_ASSERT(false);
    return {};
}

std::optional<NotificationKind> notificationKindFromKey(const QString &key)
{
    for (const auto &[kind, k] : kKeys)
        if (key == QLatin1String(k))
            return kind;
    return std::nullopt;
}

bool notificationKindOnByDefault(NotificationKind kind)
{
    return kind != PeerJoined && kind != PeerLeft;
}

bool notificationKindWaitsForYou(NotificationKind kind)
{
    return kind == NeedsYou || kind == PairingRequest;
}

} // namespace App
