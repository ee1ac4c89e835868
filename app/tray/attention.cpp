#include "app/tray/attention.h"

#include <algorithm>

namespace App {

using Broker::Attention;

QDateTime parseBrokerTime(const QString &iso)
{
    if (iso.isEmpty())
        return {};
    QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(iso, Qt::ISODate);
    return time;
}

AttentionSummary AttentionSummary::of(const QList<Broker::Peer> &peers, const QList<AttentionItem> &sessions)
{
    AttentionSummary summary;
    for (const Broker::Peer &peer : peers)
        summary.items.append({peer.id, peer.displayName(), peer.attention,
                              parseBrokerTime(peer.attentionSince), peer.attentionMessage});
    summary.items.append(sessions);
    for (const AttentionItem &item : std::as_const(summary.items)) {
        switch (item.state) {
        case Attention::NeedsYou:
            ++summary.needsYou;
            break;
        case Attention::Busy:
            ++summary.busy;
            break;
        case Attention::Idle:
            ++summary.idle;
            break;
        case Attention::Unknown:
            break;
        }
    }
    // Most urgent state first; within it, who has waited longest; then by name for a stable order.
    std::stable_sort(summary.items.begin(), summary.items.end(),
                     [](const AttentionItem &a, const AttentionItem &b) {
                         if (a.state != b.state)
                             return a.state < b.state;
                         if (a.since.isValid() != b.since.isValid())
                             return a.since.isValid();
                         if (a.since != b.since)
                             return a.since < b.since;
                         return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
                     });
    return summary;
}

TrayState AttentionSummary::trayState(bool brokerFailed, bool brokerStarting, qint64 pendingMessages) const
{
    if (needsYou > 0)
        return TrayState::NeedsYou;
    if (brokerFailed)
        return TrayState::Error;
    if (busy > 0 || brokerStarting)
        return TrayState::Busy;
    if (pendingMessages > 0)
        return TrayState::Unread;
    return TrayState::Idle;
}

QString AttentionText::stateName(Attention state)
{
    switch (state) {
    case Attention::NeedsYou:
        //: a session's state: it waits for the user (a permission, a question)
        return tr("needs you");
    case Attention::Busy:
        //: a session's state: it is working on a prompt
        return tr("busy");
    case Attention::Idle:
        //: a session's state: it waits for the next prompt
        return tr("idle");
    case Attention::Unknown:
        break;
    }
    return {};
}

QString AttentionText::stateAndTime(Attention state, const QDateTime &since, const QDateTime &now)
{
    const QString name = stateName(state);
    const QString time = timeInState(since, now);
    if (name.isEmpty() || time.isEmpty())
        return name;
    //: a session's state · time in that state
    return tr("%1 · %2").arg(name, time);
}

QString AttentionText::timeInState(const QDateTime &since, const QDateTime &now)
{
    if (!since.isValid())
        return {};
    const qint64 seconds = std::max<qint64>(0, since.secsTo(now));
    if (seconds < 60)
        //: time in a state, abbreviated: seconds
        return tr("%n s", nullptr, int(seconds));
    const qint64 minutes = seconds / 60;
    if (minutes < 60)
        //: time in a state, abbreviated: minutes
        return tr("%n min", nullptr, int(minutes));
    const qint64 hours = minutes / 60;
    if (hours < 24)
        //: time in a state, abbreviated: hours
        return minutes % 60 == 0 ? tr("%n h", nullptr, int(hours))
                                 //: time in a state, abbreviated: hours and minutes
                                 : tr("%1 h %2 min").arg(hours).arg(minutes % 60);
    //: time in a state, abbreviated: days
    return tr("%n d", nullptr, int(hours / 24));
}

QString AttentionText::menuEntry(const AttentionItem &item, const QDateTime &now)
{
    const QString state = stateName(item.state);
    if (state.isEmpty())
        return item.name;
    const QString time = timeInState(item.since, now);
    //: a tray menu entry: session name — state · time in state
    return time.isEmpty() ? tr("%1 — %2").arg(item.name, state)
                          : tr("%1 — %2 · %3").arg(item.name, state, time);
}

} // namespace App
