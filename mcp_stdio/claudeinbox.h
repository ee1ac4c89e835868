#pragma once

#include "mcp_stdio/claudeinboxwire.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>

#include <optional>

class QTimer;

namespace Mcp {

namespace UnixSocket {
class LineListener;
}

// Delivers into the Claude Code session that started this helper through the session's own
// inbox socket (ClaudeInboxWire): the message becomes a new turn when the session is idle, and
// follows the running tool's result when it is busy. Works without Claude Code's channel flag.
//
// What it promises (docs/mcp-helper.md, "Claude Code's session inbox"):
// - Claude Code answers nothing on the connection and sends a receipt only when it did not
//   deliver at once (held for the user's review, refused, dropped). A line counts as accepted
//   once it is written and no such receipt came within confirmMs; a held one is reported as
//   not delivered, and again as released if the user approves it later.
// - Claude Code allows a sender a burst of 30 lines, then one every 2 s, and drops the rest:
//   the same bucket is kept here, and what waits for it goes out as one line (one turn)
//   when it refills. Nothing is dropped here.
// - Everything queued in one event-loop pass goes out as one line too.
class ClaudeInbox : public QObject
{
    Q_OBJECT
public:
    struct Endpoint
    {
        QString socketPath; // $CLAUDE_CODE_MESSAGING_SOCKET
        QString token; // $CLAUDE_CODE_MESSAGING_TOKEN; empty = no auth line (optional on Linux)
    };
    // None when Claude Code gave this process no inbox (an older version, --bare, switched off).
    static std::optional<Endpoint> fromEnvironment(const QProcessEnvironment &environment);

    struct Options
    {
        int burst = 30;
        int refillMs = 2000;
        int confirmMs = 2000; // receipts of a refusal come at once; a batched drop after 5 s
        int writeTimeoutMs = 5000;
    };

    ClaudeInbox(Endpoint endpoint, Options options, QObject *parent = nullptr);
    ~ClaudeInbox() override;

    // Listens for receipts beside the session's socket (Claude Code sends them only to a
    // socket in that folder owned by the sender). Without it the inbox still delivers, but a
    // held or refused message would count as accepted: start() fails and the caller should not
    // use the inbox then.
    Broker::Result<void> start();
    QString receiptPath() const;

    // Queues one message's text for the model; the outcome is reported for key.
    void deliver(qint64 key, const QString &content);
    qsizetype pending() const { return m_queue.size(); }

Q_SIGNALS:
    void accepted(qint64 key);
    // Not delivered now: held (may still be released), refused, dropped, or the socket failed.
    void notDelivered(qint64 key, const QString &status, const QString &reason);
    void released(qint64 key); // held earlier, approved by the user now

private:
    struct Queued
    {
        qint64 key;
        QString content;
    };
    struct Line
    {
        QList<qint64> keys;
        QTimer *confirm = nullptr;
        bool held = false;
    };

    void flush();
    void refill();
    void send(const QList<Queued> &items);
    void onWritten(const QString &msgId, const Broker::Result<void> &written);
    void onReceiptLine(const QByteArray &line);
    void settle(const QString &msgId, const QString &status, const QString &reason);

    Endpoint m_endpoint;
    Options m_options;
    UnixSocket::LineListener *m_receipts;
    QTimer *m_flushTimer;
    QTimer *m_refillTimer;
    QList<Queued> m_queue;
    double m_tokens;
    QElapsedTimer m_sinceRefill;
    QHash<QString, Line> m_lines; // msg_id → what it carried, until settled (held: until final)
};

} // namespace Mcp
