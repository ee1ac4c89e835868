#pragma once

#include "app/tray/pages/opencodeactivity.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

#include <functional>

namespace App {

// The Sessions page's table: OpenCode sessions of the listed directories with their live status,
// time in state and last assistant text. Rows are keyed by session id; GUI-free (Core only).
class SessionsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TitleColumn, StateColumn, TimeColumn, DirectoryColumn, AnswerColumn, ColumnCount };
    enum Role {
        SessionIdRole = Qt::UserRole + 1,
        DirectoryRole,
        StatusRole, // OpenCode's status type ("busy", "idle", …)
        WaitingForRole, // "permission", "question" or ""
        LastAssistantRole,
        SortRole,
    };

    struct Row
    {
        OpenCodeSession session;
        QString lastAssistant; // empty until read
        double updatedAt = 0; // OpenCode's time.updated: a newer one means new messages
        bool operator==(const Row &) const = default;
    };

    explicit SessionsModel(QObject *parent = nullptr);

    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The sessions a listing of directory returned: rows of that directory not in it go, the
    // others are added or updated (keeping their last assistant text).
    void setDirectorySessions(const QString &directory, const QList<Row> &rows);
    // Adds or updates one row (the session an action just created, sent to or forked).
    void upsert(const Row &row);
    // The live state (status, waiting, since) of a session that has a row; no row: nothing.
    void updateLive(const OpenCodeSession &session);
    void setLastAssistant(const QString &sessionId, const QString &text);

    int rowOf(const QString &sessionId) const;
    const Row &rowAt(int row) const { return m_rows.at(row); }
    // "Time in state" moves on: the column is announced as changed.
    void refreshTimes();

    // "needs you (permission: bash: rm *)", "busy", "idle", …
    static QString stateText(const OpenCodeSession &session);

private:
    QDateTime now() const { return m_clock ? m_clock() : QDateTime::currentDateTimeUtc(); }
    void setRow(int index, const Row &row);

    QList<Row> m_rows;
    std::function<QDateTime()> m_clock;
};

} // namespace App
