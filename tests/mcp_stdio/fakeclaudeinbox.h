#pragma once

#include "mcp_stdio/unixsocket.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

// Claude Code's side of its session inbox, for tests: takes lines at a socket path and answers
// nothing on the connection; sends receipts to a line's `from` socket, as Claude Code does.
class FakeClaudeInbox : public QObject
{
public:
    explicit FakeClaudeInbox(const QString &path, QObject *parent = nullptr);

    bool ok = false; // listening
    QList<QJsonObject> lines; // every line received, in order (auth lines too)

    QList<QJsonObject> userLines() const;
    static QString content(const QJsonObject &line);
    // Sends {"type":"control","action":"peer_message_status","orig_msg_id":<line's msg_id>,…fields}
    // to the line's from socket; true when it was written.
    bool sendReceipt(const QJsonObject &line, const QJsonObject &fields);

private:
    Mcp::UnixSocket::LineListener m_listener;
};
