#include "app/tray/pages/federationmodels.h"

#include <QDateTime>
#include <QJsonArray>
#include <QLocale>

namespace App {

namespace {

bool sameRequests(const QList<Broker::FederationPendingAnswer::Request> &a,
                  const QList<Broker::FederationPendingAnswer::Request> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const auto &x = a.at(i);
        const auto &y = b.at(i);
        if (x.id != y.id || x.state != y.state || x.host != y.host || x.port != y.port ||
            x.hostname != y.hostname || x.fingerprint != y.fingerprint || x.sas != y.sas ||
            x.receivedAt != y.receivedAt || x.origin != y.origin)
            return false;
    }
    return true;
}

QDateTime parsedIso(const QString &iso)
{
    QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(iso, Qt::ISODate);
    return time;
}

} // namespace

QString localTime(const QString &iso)
{
    const QDateTime time = parsedIso(iso);
    return time.isValid() ? QLocale().toString(time.toLocalTime(), QLocale::ShortFormat) : QString();
}

// ---- PendingRequestsModel ---------------------------------------------------------------------

PendingRequestsModel::PendingRequestsModel(QObject *parent) : QAbstractListModel(parent) { }

void PendingRequestsModel::setRequests(QList<Broker::FederationPendingAnswer::Request> requests)
{
    // The broker lists oldest first; the newest request is what the user came for.
    std::reverse(requests.begin(), requests.end());
    if (sameRequests(requests, m_requests))
        return;
    beginResetModel();
    m_requests = std::move(requests);
    QSet<QString> live;
    for (const auto &r : m_requests) {
        if (r.state.isEmpty() || r.state == QLatin1String("pending"))
            live.insert(r.id);
    }
    m_confirming.intersect(live);
    m_dismissed.intersect(live);
    endResetModel();
}

const Broker::FederationPendingAnswer::Request *PendingRequestsModel::find(const QString &id) const
{
    const int row = rowOf(id);
    return row < 0 ? nullptr : &m_requests.at(row);
}

int PendingRequestsModel::rowOf(const QString &id) const
{
    for (qsizetype i = 0; i < m_requests.size(); ++i) {
        if (m_requests.at(i).id == id)
            return int(i);
    }
    return -1;
}

QStringList PendingRequestsModel::visiblePendingIds() const
{
    QStringList ids;
    for (const auto &r : m_requests) {
        if ((r.state.isEmpty() || r.state == QLatin1String("pending")) && !m_dismissed.contains(r.id))
            ids << r.id;
    }
    return ids;
}

void PendingRequestsModel::setConfirming(const QString &id, bool confirming)
{
    if (rowOf(id) < 0 || isConfirming(id) == confirming)
        return;
    if (confirming)
        m_confirming.insert(id);
    else
        m_confirming.remove(id);
    changedRow(id);
}

void PendingRequestsModel::dismiss(const QString &id)
{
    if (rowOf(id) < 0 || m_dismissed.contains(id))
        return;
    m_dismissed.insert(id);
    m_confirming.remove(id);
    changedRow(id);
}

void PendingRequestsModel::restore(const QString &id)
{
    if (m_dismissed.remove(id))
        changedRow(id);
}

void PendingRequestsModel::changedRow(const QString &id)
{
    const QModelIndex changed = index(rowOf(id));
    Q_EMIT dataChanged(changed, changed);
}

int PendingRequestsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_requests.size());
}

QVariant PendingRequestsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto &r = m_requests.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return tr("%1 (%2:%3) — code %4").arg(r.hostname, r.host).arg(r.port).arg(r.sas);
    case IdRole:
        return r.id;
    case HostnameRole:
        return r.hostname;
    case AddressRole:
        return QStringLiteral("%1:%2").arg(r.host).arg(r.port);
    case FingerprintRole:
        return r.fingerprint;
    case SasRole:
        return r.sas;
    case StateRole:
        return r.state.isEmpty() ? QStringLiteral("pending") : r.state;
    case OriginRole:
        return r.origin;
    case ReceivedAtRole:
        return parsedIso(r.receivedAt);
    case ConfirmingRole:
        return m_confirming.contains(r.id);
    case DismissedRole:
        return m_dismissed.contains(r.id);
    default:
        return {};
    }
}

QHash<int, QByteArray> PendingRequestsModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{IdRole, "id"},
                  {HostnameRole, "hostname"},
                  {AddressRole, "address"},
                  {FingerprintRole, "fingerprint"},
                  {SasRole, "sas"},
                  {StateRole, "state"},
                  {OriginRole, "origin"},
                  {ReceivedAtRole, "receivedAt"},
                  {ConfirmingRole, "confirming"},
                  {DismissedRole, "dismissed"}});
    return names;
}

// ---- PairedBrokersModel -----------------------------------------------------------------------

PairedBrokersModel::PairedBrokersModel(QObject *parent) : QAbstractTableModel(parent) { }

void PairedBrokersModel::setStatus(const QJsonObject &status)
{
    QList<Row> rows;
    for (const QJsonValue &value : status.value(QLatin1String("remotes")).toArray()) {
        const QJsonObject r = value.toObject();
        Row row;
        row.hostname = r.value(QLatin1String("hostname")).toString();
        row.host = r.value(QLatin1String("host")).toString();
        row.port = r.value(QLatin1String("port")).toInt();
        row.state = r.value(QLatin1String("state")).toString();
        row.fingerprint = r.value(QLatin1String("fingerprint")).toString();
        row.lastSeen = r.value(QLatin1String("last_sync")).toString();
        if (row.lastSeen.isEmpty())
            row.lastSeen = r.value(QLatin1String("connected_at")).toString();
        row.peers = r.value(QLatin1String("peer_count")).toInt();
        row.auth = r.value(QLatin1String("auth")).toString();
        row.lastError = r.value(QLatin1String("last_error")).toString();
        if (r.contains(QLatin1String("rtt_ms"))) {
            row.rttMs = r.value(QLatin1String("rtt_ms")).toDouble();
            row.rttSmoothedMs = r.value(QLatin1String("rtt_smoothed_ms")).toDouble();
            row.rttSamples = r.value(QLatin1String("rtt_samples")).toInteger();
        }
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return std::tie(a.hostname, a.host, a.port) < std::tie(b.hostname, b.host, b.port);
    });
    if (rows == m_rows)
        return;
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int PairedBrokersModel::rowOf(const QString &host, int port) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).host == host && m_rows.at(i).port == port)
            return int(i);
    }
    return -1;
}

QString PairedBrokersModel::stateText(const Row &row)
{
    if (row.state.isEmpty() || row.state == QLatin1String("connected"))
        return tr("connected");
    if (row.state == QLatin1String("evicted"))
        return tr("evicted (no answer for 90 s), reconnecting");
    if (row.state == QLatin1String("reconnecting"))
        return tr("reconnecting");
    if (row.state == QLatin1String("connecting"))
        return tr("connecting");
    return row.state;
}

QString PairedBrokersModel::roundTripText(double ms)
{
    if (ms < 0)
        return {};
    // Loopback and LAN links answer in well under a millisecond: two decimals there, whole ones above 10.
    return tr("%1 ms").arg(ms, 0, 'f', ms < 10 ? 2 : 0);
}

int PairedBrokersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PairedBrokersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PairedBrokersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case HostRole:
        return row.host;
    case PortRole:
        return row.port;
    case StateRole:
        return row.state.isEmpty() ? QStringLiteral("connected") : row.state;
    case LastErrorRole:
        return row.lastError;
    case Qt::ToolTipRole:
        if (index.column() == RoundTripColumn && row.rttSamples > 0)
            return tr("Round trip of its peer sync: last %1, smoothed %2 (%n sample(s))", nullptr,
                      int(row.rttSamples))
                .arg(roundTripText(row.rttMs), roundTripText(row.rttSmoothedMs));
        return row.lastError.isEmpty() ? QVariant() : QVariant(row.lastError);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case MachineColumn:
        return row.hostname.isEmpty() ? tr("(not answered yet)") : row.hostname;
    case StateColumn:
        return stateText(row);
    case AddressColumn:
        return QStringLiteral("%1:%2").arg(row.host).arg(row.port);
    case FingerprintColumn:
        return row.fingerprint.isEmpty() ? tr("not pinned") : row.fingerprint;
    case LastSeenColumn:
        return localTime(row.lastSeen);
    case PeersColumn:
        return row.peers;
    case RoundTripColumn:
        // Only a live link has a current round trip; the smoothed value is what the column shows.
        if (row.rttSamples == 0 || !(row.state.isEmpty() || row.state == QLatin1String("connected")))
            return QStringLiteral("—");
        return roundTripText(row.rttSmoothedMs);
    default:
        return {};
    }
}

QVariant PairedBrokersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MachineColumn:
        return tr("Machine");
    case StateColumn:
        return tr("Link");
    case AddressColumn:
        return tr("Address");
    case FingerprintColumn:
        return tr("Fingerprint");
    case LastSeenColumn:
        return tr("Last seen");
    case PeersColumn:
        return tr("Peers");
    case RoundTripColumn:
        return tr("Round trip");
    default:
        return {};
    }
}

// ---- AttemptsModel ----------------------------------------------------------------------------

AttemptsModel::AttemptsModel(QObject *parent) : QAbstractTableModel(parent) { }

void AttemptsModel::setAnswer(const QJsonObject &answer)
{
    QList<Row> rows;
    for (const QJsonValue &value : answer.value(QLatin1String("attempts")).toArray()) {
        const QJsonObject a = value.toObject();
        rows.append({a.value(QLatin1String("last_at")).toString(), a.value(QLatin1String("kind")).toString(),
                     a.value(QLatin1String("address")).toString(),
                     a.value(QLatin1String("hostname")).toString(),
                     a.value(QLatin1String("fingerprint")).toString(),
                     a.value(QLatin1String("path")).toString(), a.value(QLatin1String("status")).toInt(),
                     a.value(QLatin1String("reason")).toString(), a.value(QLatin1String("count")).toInt(1)});
    }
    if (rows == m_rows)
        return;
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

QString AttemptsModel::kindText(const QString &kind)
{
    if (kind == QLatin1String("refused"))
        return tr("refused");
    if (kind == QLatin1String("accepted"))
        return tr("pairing accepted");
    if (kind == QLatin1String("rejected"))
        return tr("pairing rejected");
    if (kind == QLatin1String("revoked"))
        return tr("revoked");
    if (kind == QLatin1String("key-rotated"))
        return tr("federation key rotated");
    if (kind == QLatin1String("joined"))
        return tr("joined with a join URL");
    if (kind == QLatin1String("unignored"))
        return tr("no longer ignored");
    return kind;
}

int AttemptsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AttemptsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AttemptsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (role == Qt::ToolTipRole && index.column() == ReasonColumn && !row.path.isEmpty())
        return tr("%1 answered %2 on %3").arg(row.reason).arg(row.status).arg(row.path);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return localTime(row.lastAt);
    case KindColumn:
        return kindText(row.kind);
    case AddressColumn:
        return row.address;
    case MachineColumn:
        return row.hostname;
    case FingerprintColumn:
        return row.fingerprint;
    case ReasonColumn:
        return row.reason;
    case CountColumn:
        return row.count;
    default:
        return {};
    }
}

QVariant AttemptsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("What");
    case AddressColumn:
        return tr("Address");
    case MachineColumn:
        return tr("Machine (as it said)");
    case FingerprintColumn:
        return tr("Fingerprint");
    case ReasonColumn:
        return tr("Reason");
    case CountColumn:
        return tr("Times");
    default:
        return {};
    }
}

// ---- IgnoredMachinesModel ---------------------------------------------------------------------

IgnoredMachinesModel::IgnoredMachinesModel(QObject *parent) : QAbstractTableModel(parent) { }

void IgnoredMachinesModel::setAnswer(const QJsonObject &answer)
{
    QList<Row> rows;
    for (const QJsonValue &value : answer.value(QLatin1String("ignored")).toArray()) {
        const QJsonObject r = value.toObject();
        rows.append({r.value(QLatin1String("hostname")).toString(),
                     r.value(QLatin1String("address")).toString(),
                     r.value(QLatin1String("fingerprint")).toString(),
                     r.value(QLatin1String("ignored_at")).toString()});
    }
    if (rows == m_rows)
        return;
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int IgnoredMachinesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int IgnoredMachinesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IgnoredMachinesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (role == FingerprintRole)
        return row.fingerprint;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case MachineColumn:
        return row.hostname;
    case AddressColumn:
        return row.address;
    case FingerprintColumn:
        return row.fingerprint;
    case SinceColumn:
        return localTime(row.ignoredAt);
    default:
        return {};
    }
}

QVariant IgnoredMachinesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MachineColumn:
        return tr("Machine");
    case AddressColumn:
        return tr("Address");
    case FingerprintColumn:
        return tr("Fingerprint");
    case SinceColumn:
        return tr("Ignored since");
    default:
        return {};
    }
}

} // namespace App
