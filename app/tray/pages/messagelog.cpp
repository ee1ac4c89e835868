#include "app/tray/pages/messagelog.h"

#include <QDateTime>

#include <algorithm>

namespace App {

namespace {

bool byId(const LogEntry &a, const LogEntry &b)
{
    return a.message.id < b.message.id;
}

} // namespace

DeliveryTicks deliveryTicks(const LogEntry &entry, const QString &recipientChannelPush)
{
    DeliveryTicks ticks;
    const Broker::Message &m = entry.message;
    ticks.stored = m.id > 0;
    ticks.acked = m.delivered;
    ticks.pushed = entry.handout.isKnown() || m.delivered;
    ticks.pushedBy = entry.handout.by;
    if (ticks.acked) {
        if (recipientChannelPush == QLatin1String("working"))
            ticks.seenVia = DeliveryTicks::SeenVia::Channel;
        else if (recipientChannelPush == QLatin1String("unverified"))
            ticks.seenVia = DeliveryTicks::SeenVia::ToolResult;
    }
    ticks.bounced = entry.bouncedBy > 0 && !m.delivered;
    ticks.lost = entry.missing && !m.delivered && !ticks.bounced;
    return ticks;
}

bool isBounce(const Broker::Message &message)
{
    return message.fromId == QLatin1String("system") && message.replyTo.has_value();
}

QString threadKey(const QString &a, const QString &b)
{
    return a <= b ? a + QLatin1Char('\n') + b : b + QLatin1Char('\n') + a;
}

QString threadKeyOf(const Broker::Message &message)
{
    return threadKey(message.fromId, message.toId);
}

QStringList threadPeers(const QString &key)
{
    return key.split(QLatin1Char('\n'));
}

// ---- PeerDirectory ----

PeerDirectory::PeerDirectory(QString localMachine) : m_localMachine(std::move(localMachine)) { }

void PeerDirectory::update(const QList<Broker::Peer> &peers)
{
    m_listed.clear();
    for (const Broker::Peer &peer : peers) {
        m_known.insert(peer.id, peer);
        m_listed.insert(peer.id, true);
    }
}

const Broker::Peer *PeerDirectory::peer(const QString &id) const
{
    if (!m_listed.contains(id))
        return nullptr;
    const auto it = m_known.constFind(id);
    return it == m_known.cend() ? nullptr : &*it;
}

QList<Broker::Peer> PeerDirectory::listed() const
{
    QList<Broker::Peer> peers;
    for (auto it = m_listed.cbegin(); it != m_listed.cend(); ++it)
        peers.append(m_known.value(it.key()));
    std::sort(peers.begin(), peers.end(),
              [](const Broker::Peer &a, const Broker::Peer &b) { return a.displayName() < b.displayName(); });
    return peers;
}

QString PeerDirectory::machineOf(const QString &id) const
{
    const qsizetype colon = id.indexOf(QLatin1Char(':'));
    return colon > 0 ? id.left(colon) : m_localMachine;
}

QString PeerDirectory::channelPushOf(const QString &id) const
{
    const auto it = m_known.constFind(id);
    return it == m_known.cend() ? QString() : it->channelPush;
}

QString PeerDirectory::label(const QString &id) const
{
    if (id == QLatin1String("system") || id == QLatin1String("cli"))
        return id;
    const auto it = m_known.constFind(id);
    const QString name = it == m_known.cend() ? QString() : it->sessionName;
    const QString machine = machineOf(id);
    QString text = name.isEmpty() ? id : QStringLiteral("%1 (%2)").arg(name, id);
    if (!machine.isEmpty())
        text += QStringLiteral(" \u00b7 ") + machine;
    return text;
}

// ---- MessageLogModel ----

MessageLogModel::MessageLogModel(const PeerDirectory *peers, QObject *parent)
    : QAbstractTableModel(parent), m_peers(peers)
{
}

void MessageLogModel::merge(const QList<Broker::Message> &messages,
                            const QHash<qint64, Broker::MessageHandout> &handouts)
{
    QList<LogEntry> fresh;
    for (const Broker::Message &m : messages) {
        const int row = rowOfId(m.id);
        const Broker::MessageHandout handout = handouts.value(m.id);
        if (row >= 0) {
            LogEntry &entry = m_rows[row];
            const bool changed = entry.message.delivered != m.delivered ||
                (handout.isKnown() && !(entry.handout == handout)) || entry.missing;
            if (changed) {
                entry.message.delivered = m.delivered;
                if (handout.isKnown())
                    entry.handout = handout;
                entry.missing = false;
                rowChanged(row);
            }
            continue;
        }
        LogEntry entry {m, handout, m_bounceOf.value(m.id), false};
        fresh.append(std::move(entry));
    }
    if (fresh.isEmpty())
        return;
    std::sort(fresh.begin(), fresh.end(), byId);
    fresh.erase(
        std::unique(fresh.begin(), fresh.end(),
                    [](const LogEntry &a, const LogEntry &b) { return a.message.id == b.message.id; }),
        fresh.end());
    // The usual cases in one batch each: newer than all (the live tail), older than all (a page).
    QList<LogEntry> tail, head, middle;
    const qint64 low = lowestId(), high = highestId();
    for (LogEntry &entry : fresh) {
        if (m_rows.isEmpty() || entry.message.id > high)
            tail.append(std::move(entry));
        else if (entry.message.id < low)
            head.append(std::move(entry));
        else
            middle.append(std::move(entry));
    }
    QList<LogEntry> bounces;
    for (const QList<LogEntry> *part : {&tail, &head, &middle}) {
        for (const LogEntry &entry : *part) {
            if (isBounce(entry.message))
                bounces.append(entry);
        }
    }
    if (!head.isEmpty())
        insertBatch(0, std::move(head));
    for (LogEntry &entry : middle) {
        const auto at = std::lower_bound(m_rows.begin(), m_rows.end(), entry, byId);
        insertBatch(int(at - m_rows.begin()), {std::move(entry)});
    }
    if (!tail.isEmpty())
        insertBatch(int(m_rows.size()), std::move(tail));
    for (const LogEntry &bounce : std::as_const(bounces))
        linkBounce(bounce);
    trim();
}

void MessageLogModel::insertBatch(int at, QList<LogEntry> entries)
{
    beginInsertRows({}, at, at + int(entries.size()) - 1);
    if (at == m_rows.size()) {
        m_rows.append(std::move(entries));
    } else {
        // QList has no range insert of a list: make room, then move in.
        m_rows.insert(at, entries.size(), LogEntry {});
        std::move(entries.begin(), entries.end(), m_rows.begin() + at);
    }
    endInsertRows();
}

void MessageLogModel::linkBounce(const LogEntry &bounce)
{
    const qint64 original = *bounce.message.replyTo;
    m_bounceOf.insert(original, bounce.message.id);
    const int row = rowOfId(original);
    if (row >= 0 && m_rows.at(row).bouncedBy != bounce.message.id) {
        m_rows[row].bouncedBy = bounce.message.id;
        rowChanged(row);
    }
    // The bounce is shown in its message's thread when that message is listed.
    const int bounceRow = rowOfId(bounce.message.id);
    if (bounceRow >= 0 && row >= 0)
        rowChanged(bounceRow);
}

void MessageLogModel::markMissing(const QList<qint64> &ids)
{
    for (qint64 id : ids) {
        const int row = rowOfId(id);
        if (row < 0 || m_rows.at(row).missing)
            continue;
        m_rows[row].missing = true;
        rowChanged(row);
    }
}

void MessageLogModel::peersChanged()
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, FromColumn), index(rowCount() - 1, TicksColumn));
}

void MessageLogModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_bounceOf.clear();
    m_droppedOlder = false;
    endResetModel();
}

void MessageLogModel::setMaxRows(int rows)
{
    m_maxRows = std::max(1, rows);
    trim();
}

void MessageLogModel::trim()
{
    const int excess = int(m_rows.size()) - m_maxRows;
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_rows.remove(0, excess);
    m_droppedOlder = true;
    endRemoveRows();
}

void MessageLogModel::rowChanged(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

qint64 MessageLogModel::highestId() const
{
    return m_rows.isEmpty() ? 0 : m_rows.last().message.id;
}

qint64 MessageLogModel::lowestId() const
{
    return m_rows.isEmpty() ? 0 : m_rows.first().message.id;
}

int MessageLogModel::rowOfId(qint64 id) const
{
    LogEntry probe;
    probe.message.id = id;
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), probe, byId);
    return it != m_rows.cend() && it->message.id == id ? int(it - m_rows.cbegin()) : -1;
}

DeliveryTicks MessageLogModel::ticksAt(int row) const
{
    const LogEntry &entry = m_rows.at(row);
    return deliveryTicks(entry, m_peers ? m_peers->channelPushOf(entry.message.toId) : QString());
}

QList<qint64> MessageLogModel::unsettledIds(int max, qint64 belowId) const
{
    QList<qint64> ids;
    for (qsizetype row = m_rows.size() - 1; row >= 0 && ids.size() < max; --row) {
        const LogEntry &entry = m_rows.at(row);
        if (belowId > 0 && entry.message.id >= belowId)
            continue;
        if (!entry.message.delivered && entry.bouncedBy == 0 && !entry.missing && !isBounce(entry.message))
            ids.append(entry.message.id);
    }
    return ids;
}

QString MessageLogModel::threadOfRow(int row) const
{
    const Broker::Message &m = m_rows.at(row).message;
    if (isBounce(m)) {
        const int original = rowOfId(*m.replyTo);
        if (original >= 0)
            return threadKeyOf(m_rows.at(original).message);
    }
    return threadKeyOf(m);
}

int MessageLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MessageLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString MessageLogModel::ticksText(const DeliveryTicks &ticks)
{
    if (ticks.bounced)
        return tr("\u26a0 bounced");
    if (ticks.lost)
        return tr("\u26a0 not delivered");
    QString text = ticks.stored ? QStringLiteral("\u2713") : QString();
    if (ticks.pushed)
        text += QStringLiteral("\u2713");
    if (ticks.acked)
        text += QStringLiteral("\u2713");
    //: after the delivery ticks: the session saw the message as a channel push
    if (ticks.seenVia == DeliveryTicks::SeenVia::Channel)
        text += QLatin1Char(' ') + tr("channel");
    //: after the delivery ticks: the session saw the message in a tool result (banner)
    else if (ticks.seenVia == DeliveryTicks::SeenVia::ToolResult)
        text += QLatin1Char(' ') + tr("banner");
    return text;
}

QString MessageLogModel::ticksTooltip(const DeliveryTicks &ticks)
{
    QStringList lines;
    if (ticks.stored)
        lines << tr("\u2713 stored by the broker");
    if (ticks.pushed)
        lines << (ticks.pushedBy == QLatin1String("stream") ? tr("\u2713 pushed to the recipient's stream")
                      : ticks.pushedBy == QLatin1String("poll") ? tr("\u2713 fetched by the recipient's poll")
                                                                : tr("\u2713 handed to the recipient"));
    else
        lines << tr("waiting for the recipient");
    if (ticks.acked)
        lines << tr("\u2713 acknowledged: the recipient's session saw it");
    if (ticks.seenVia == DeliveryTicks::SeenVia::Channel)
        lines << tr("shown as a channel push");
    else if (ticks.seenVia == DeliveryTicks::SeenVia::ToolResult)
        lines << tr("shown in a tool result (banner or check_messages)");
    if (ticks.bounced)
        lines << tr("\u26a0 bounced: the recipient disconnected before reading it");
    if (ticks.lost)
        lines << tr("\u26a0 not delivered: gone from the log unread");
    return lines.join(QLatin1Char('\n'));
}

QVariant MessageLogModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const LogEntry &entry = m_rows.at(index.row());
    const Broker::Message &m = entry.message;
    switch (role) {
    case IdRole:
        return m.id;
    case FromIdRole:
        return m.fromId;
    case ToIdRole:
        return m.toId;
    case ThreadKeyRole:
        return threadOfRow(index.row());
    case TextRole:
        return m.text;
    case IsBounceRole:
        return isBounce(m);
    case TicksRole:
        return QVariant::fromValue(ticksAt(index.row()));
    case SortRole:
        return m.id;
    case Qt::ToolTipRole:
        if (index.column() == TicksColumn)
            return ticksTooltip(ticksAt(index.row()));
        if (index.column() == TextColumn)
            return m.text.left(2000);
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromString(m.sentAt, Qt::ISODateWithMs)
                .toLocalTime()
                .toString(QStringLiteral("HH:mm:ss"));
        case FromColumn:
            return m_peers ? m_peers->label(m.fromId) : m.fromId;
        case ToColumn:
            return m_peers ? m_peers->label(m.toId) : m.toId;
        case TextColumn: {
            QString text = m.text.left(300);
            text.replace(QLatin1Char('\n'), QLatin1Char(' '));
            if (m.type != QLatin1String("text"))
                text = QStringLiteral("[%1] ").arg(m.type) + text;
            if (m.replyTo && !isBounce(m))
                //: a reply: the id of the message it answers, then its text
                text = tr("re #%1: %2").arg(QString::number(*m.replyTo), text);
            return text;
        }
        case TicksColumn:
            return ticksText(ticksAt(index.row()));
        }
        return {};
    }
    return {};
}

QVariant MessageLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case FromColumn:
        return tr("From");
    case ToColumn:
        return tr("To");
    case TextColumn:
        return tr("Message");
    case TicksColumn:
        return tr("Delivery");
    }
    return {};
}

} // namespace App
