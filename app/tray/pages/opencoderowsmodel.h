#pragma once

#include "app/tray/pages/opencodeactivity.h"
#include "common/dto.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace App {

// The OpenCode sessions of OpenCodeActivity as rows of the peers table (PeersModel's columns
// and roles, KindRole = OpenCodeSession), for the Peers page's one attention-ordered list:
// the sessions that need you or work, and those active while the tray ran (isCurrent). A
// session's row comes with its first such state and stays while the tray knows the session;
// each change updates its cells, never a reset. GUI-free.
class OpenCodeRowsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit OpenCodeRowsModel(OpenCodeActivity *activity, QObject *parent = nullptr);

    OpenCodeActivity *activity() const { return m_activity; }
    int rowOf(const QString &sessionId) const;
    const OpenCodeSession &sessionAt(int row) const { return m_rows.at(row); }
    // Time has moved on: the times in state are recomputed (one dataChanged over the rows).
    void refreshTimes();

    // The git root of a folder on this machine: the nearest folder at or above it holding a
    // .git (a directory, or a worktree's file); "" when none.
    static QString gitRootOf(const QString &directory);
    // The local claude-peers peers of OpenCode in the session's folder: OpenCode runs one helper
    // per folder for all its chats, so a message to such a peer reaches whichever chat of that
    // folder uses a claude-peers tool next, not this session in particular.
    static QStringList openCodePeersIn(const QList<Broker::Peer> &peers, const QString &directory);
    // Every field, one "label: value" line each, for the details panel and the clipboard.
    static QString details(const OpenCodeSession &session, const QString &gitRoot,
                           const QStringList &folderPeers, const QDateTime &now);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    void sessionChanged(const QString &sessionId);
    QString gitRoot(const QString &directory) const;
    QVariant displayValue(const OpenCodeSession &session, int column) const;
    QString name(const OpenCodeSession &session) const;

    OpenCodeActivity *m_activity;
    QList<OpenCodeSession> m_rows;
    mutable QHash<QString, QString> m_gitRoots; // by directory: asked once
};

} // namespace App
