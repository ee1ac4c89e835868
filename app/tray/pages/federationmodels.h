#pragma once

#include "common/wire.h"

#include <QAbstractListModel>
#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>
#include <QSet>

// The Federation page's lists as models, GUI-free: each is filled from one broker answer (the
// same routes `claude-peers federation status|pending|attempts --json` print) and reset only
// when what it shows changed, so a 2-second refresh does not disturb the views.
namespace App {

// Pairing requests (/federation/pending), newest first; the page shows the pending ones as cards
// and the decided ones (kept 10 minutes by the broker) as a line each.
class PendingRequestsModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        HostnameRole,
        AddressRole, // "host:port"
        FingerprintRole,
        SasRole, // the six digits both machines show
        StateRole, // "pending" | "accepted" | "rejected"
        OriginRole, // "code" | "discovery"
        ReceivedAtRole, // QDateTime (UTC)
        ConfirmingRole, // the user pressed Accept and now compares the codes
        DismissedRole, // hidden from the cards by the user (still pending in the broker)
    };
    Q_ENUM(Role)

    explicit PendingRequestsModel(QObject *parent = nullptr);

    void setRequests(QList<Broker::FederationPendingAnswer::Request> requests);
    const Broker::FederationPendingAnswer::Request *find(const QString &id) const;
    int rowOf(const QString &id) const;
    // Pending, not dismissed: the cards to show.
    QStringList visiblePendingIds() const;

    void setConfirming(const QString &id, bool confirming);
    bool isConfirming(const QString &id) const { return m_confirming.contains(id); }
    void dismiss(const QString &id);
    void restore(const QString &id); // undoes dismiss

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    void changedRow(const QString &id);
    QList<Broker::FederationPendingAnswer::Request> m_requests;
    QSet<QString> m_confirming;
    QSet<QString> m_dismissed;
};

// Paired brokers (/federation/status "remotes"): machine, live state, address, fingerprint,
// last seen (the last sync), peers, how we prove the key to it.
class PairedBrokersModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        MachineColumn,
        StateColumn,
        AddressColumn,
        FingerprintColumn,
        LastSeenColumn,
        PeersColumn,
        RoundTripColumn, // the link's round-trip time (its peer sync's answers)
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role { HostRole = Qt::UserRole + 1, PortRole, StateRole, LastErrorRole };

    struct Row
    {
        QString hostname;
        QString host;
        int port = 0;
        QString state; // connected | connecting | reconnecting | evicted (empty from 0.7: connected)
        QString fingerprint;
        QString lastSeen; // ISO-8601, the last sync (or the connection)
        int peers = 0;
        QString auth; // "session" | "legacy" | …
        QString lastError;
        double rttMs = -1; // the last sample; -1: not measured yet
        double rttSmoothedMs = -1;
        qint64 rttSamples = 0;
        bool operator==(const Row &) const = default;
    };

    explicit PairedBrokersModel(QObject *parent = nullptr);

    // From /federation/status as received (its "remotes").
    void setStatus(const QJsonObject &status);
    const Row &rowAt(int row) const { return m_rows.at(row); }
    int rowOf(const QString &host, int port) const;
    // "connected", "reconnecting · 3 tries: <error>" …, in the user's words.
    static QString stateText(const Row &row);
    // "0.42 ms", "12 ms"; "" when not measured (ms < 0).
    static QString roundTripText(double ms);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Row> m_rows;
};

// The audit trail (/federation/attempts): refusals on the federation port and the user's pairing
// decisions, newest first.
class AttemptsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        KindColumn,
        AddressColumn,
        MachineColumn,
        FingerprintColumn,
        ReasonColumn,
        CountColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    struct Row
    {
        QString lastAt; // ISO-8601
        QString kind;
        QString address;
        QString hostname;
        QString fingerprint;
        QString path;
        int status = 0;
        QString reason;
        int count = 1;
        bool operator==(const Row &) const = default;
    };

    explicit AttemptsModel(QObject *parent = nullptr);

    void setAnswer(const QJsonObject &answer);
    const Row &rowAt(int row) const { return m_rows.at(row); }
    static QString kindText(const QString &kind);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Row> m_rows;
};

// Machines whose pairing request the user ignored (/federation/attempts "ignored"), newest
// first: DNS-SD does not offer them again until un-ignored.
class IgnoredMachinesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { MachineColumn, AddressColumn, FingerprintColumn, SinceColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role { FingerprintRole = Qt::UserRole + 1 };

    struct Row
    {
        QString hostname;
        QString address;
        QString fingerprint;
        QString ignoredAt; // ISO-8601
        bool operator==(const Row &) const = default;
    };

    explicit IgnoredMachinesModel(QObject *parent = nullptr);

    void setAnswer(const QJsonObject &answer);
    const Row &rowAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Row> m_rows;
};

// A time the broker sent (ISO-8601) in the user's local time, "" when absent.
QString localTime(const QString &iso);

} // namespace App
