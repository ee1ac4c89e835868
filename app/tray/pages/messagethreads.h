#pragma once

#include <QAbstractListModel>
#include <QHash>
#include <QList>
#include <QSortFilterProxyModel>

namespace App {

class MessageLogModel;
class PeerDirectory;

// The threads of the log: one row per pair of peers that exchanged messages (a bounce joins
// its message's thread), after a first row "All messages". Follows the log model's signals;
// new threads are appended, so views sort with a proxy on LastIdRole.
class MessageThreadsModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        ThreadKeyRole = Qt::UserRole + 1, // "" for All messages
        LastIdRole,
        CountRole,
    };

    MessageThreadsModel(const MessageLogModel *log, const PeerDirectory *peers, QObject *parent = nullptr);

    int rowOfKey(const QString &key) const; // -1 when no such thread
    QString keyAt(int row) const;
    // The other peer of the thread as the operator sees it (the one that is not operatorId).
    static QString otherPeer(const QString &key, const QString &operatorId);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    struct Thread
    {
        QString key;
        qint64 lastId = 0;
        int count = 0;
        QString lastText;
    };
    void addRows(int first, int last);
    void rebuild();

    const MessageLogModel *m_log;
    const PeerDirectory *m_peers;
    QList<Thread> m_threads; // [0] is All messages
    QHash<QString, int> m_rowOf;
};

// The log's rows the page shows: one thread (or all), a peer on either end, a scope (both ends
// on this machine; an end in a directory or repository) and a text, case-insensitive.
class MessageFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum class Scope { Any, Machine, Directory, Repo };

    explicit MessageFilterModel(const PeerDirectory *peers, QObject *parent = nullptr);

    void setThread(const QString &key);
    void setPeer(const QString &id);
    void setScope(Scope scope, const QString &path = {});
    void setText(const QString &text);
    QString thread() const { return m_thread; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool inScope(const QString &peerId) const;

    const PeerDirectory *m_peers;
    QString m_thread;
    QString m_peer;
    Scope m_scope = Scope::Any;
    QString m_scopePath;
    QString m_text;
};

} // namespace App
