#pragma once

#include "common/dto.h"
#include "common/wire.h"
#include "mcp_stdio/bannerqueue.h"
#include "mcp_stdio/channel.h"
#include "mcp_stdio/clientprofile.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include <deque>
#include <functional>

class QTimer;

namespace Broker {
class BrokerClient;
}

namespace Mcp {

class ClaudeInbox;
class Session;
class StdoutWriter;

// Gets every message for this session in front of the model, none lost, none twice, and
// acknowledges to the broker only what the model could see (docs/mcp-helper.md):
//
// Layer 1 (push): one POST /wait-messages held open at the broker (a broker without it, such
//   as 0.7: POST /poll-messages every second). Each message is written to stdout as
//   notifications/claude/channel where the client shows those; where it does not and Claude
//   Code gave us its session inbox (ClaudeInbox), into that instead; else as a channel
//   notification unless the client is known to ignore those. Never two of them.
// Layer 2 (banner): messages are repeated at the top of the next tool result (after 5 s where
//   the push may have shown them; at once where it cannot; never where it did).
// Layer 3 (safety net): every 30 s, unless the stream completed a round in that time, POST
//   /poll-messages catches what the stream missed.
//
// Acknowledged: a written push to a client that shows pushes, a line the inbox accepted, or a
// tool result (banner, check_messages) once it is on stdout. What the inbox held or refused
// goes to the banner, and its sender is told why. Anything else stays undelivered at the broker: a
// later helper of this peer gets it, or its sender gets a bounce when the peer is gone. The
// stream asks only for ids above the highest it has seen (after_id), so held messages do not
// come back at once. Ids seen are remembered with their sent_at, per broker database: a new
// database (ids start over) clears them.
class Delivery : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        // Asked of the broker per long-poll. Under the 15 s heartbeat interval: the broker counts
        // each wait as a heartbeat, so an idle helper sends nothing but its waits.
        int waitTimeoutMs = 14000;
        int safetyNetIntervalMs = 30000;
        int pollIntervalMs = 1000; // a broker without /wait-messages (docs/spec/peers-api.md §7.3)
        int bannerCapacity = BannerQueue::DefaultCapacity;
        int dedupLimit = 1000; // trimmed to half when exceeded
    };
    // Defaults, with CLAUDE_PEERS_WAIT_TIMEOUT_MS, CLAUDE_PEERS_SAFETY_NET_MS and
    // CLAUDE_PEERS_POLL_INTERVAL_MS over them (tests shorten them).
    static Options defaultOptions();

    Delivery(Broker::BrokerClient *client, Session *session, StdoutWriter *writer, Options options,
             QObject *parent = nullptr);
    ~Delivery() override;

    // From initialize: decides what is pushed, repeated and acknowledged.
    void setClientProfile(const ClientProfile &profile) { m_profile = profile; }
    const ClientProfile &clientProfile() const { return m_profile; }
    // Claude Code's session inbox, started; used where the client does not show pushes.
    void setInbox(ClaudeInbox *inbox);
    // How messages reach the model now: "channel", "inbox" or "banner" (Peer::delivery).
    QString deliveryPath() const;
    // Pushes start once the client is ready for them (PushGate).
    void setPushEnabled(bool enabled);
    bool isPushEnabled() const { return m_pushEnabled; }
    // Stops the stream and timers; acknowledges what the model saw (best effort, bounded).
    void stop(int timeoutMs, std::function<void()> done);

    // Layer 2: the banner for a tool result (empty when nothing is due). Its messages are
    // acknowledged once the next stdout line (the tool result) is written.
    QString takeBanner();
    // check_messages: messages the model has not seen in a tool result (fetched from the
    // broker) plus everything still queued for the banner, in full; acknowledged after the
    // tool result is written.
    void checkMessages(std::function<void(Broker::Result<QString>)> done);

    QString streamState() const;
    int dedupSize() const { return int(m_seen.size()); }
    int bannerSize() const { return m_banner.size(); }
    qint64 oldestQueuedAgeMs() const;
    qint64 delivered() const { return m_delivered; }
    bool usesStream() const { return m_mode == Mode::Stream; }

private:
    enum class Origin { Stream, Poll };
    enum class Mode { Stream, Poll };
    struct Seen
    {
        QString sentAt; // with the id, tells a reused id (another database) from a re-send
        bool seenByModel = false; // acknowledged or about to be
    };

    void onRegistered();
    void onRegistrationLost();
    void startWait();
    void onWaitAnswer(quint64 generation, const QList<qint64> &sentAcks,
                      Broker::Result<Broker::MessagesAnswer> answer);
    void safetyNet();
    void poll();
    void handleIncoming(QList<Broker::Message> messages, Origin origin);
    void writeMessages(const QList<Broker::Message> &messages, Origin origin);
    void onLineWritten(quint64 seq);
    void checkWritesDone();
    void refreshPeers(std::function<void()> done);
    Channel::Sender senderFor(const QString &fromId) const;
    bool needsSenderLookup(const QString &fromId) const;
    bool isKnown(const Broker::Message &m) const;
    void remember(const Broker::Message &m, bool seenByModel);
    // Marks the entries' messages seen and returns the ids to acknowledge (this database's only).
    QList<qint64> seenInToolResult(const QList<BannerQueue::Entry> &entries);
    void acknowledge(qint64 id, Origin origin);
    void ackNow(const QList<qint64> &ids);
    void forgetDatabase();
    void troubleFrom(const Broker::Error &error);
    void onInboxAccepted(qint64 id);
    void onInboxNotDelivered(qint64 id, const QString &status, const QString &reason);
    void onInboxReleased(qint64 id);
    void tellSender(const BannerQueue::Entry &entry, const QString &status, const QString &reason);

    Broker::BrokerClient *m_client;
    Session *m_session;
    StdoutWriter *m_writer;
    Options m_options;
    ClientProfile m_profile;
    Mode m_mode = Mode::Stream;
    QString m_databaseId;
    bool m_pushEnabled = false;
    bool m_stopped = false;

    // Layer 1
    bool m_waitInFlight = false;
    bool m_batchInProgress = false; // writing a batch; the next wait starts when done
    quint64 m_generation = 0; // bumps on (re-)registration: late answers are dropped
    qint64 m_afterId = 0; // highest id the stream returned in this database
    QList<qint64> m_ackPending; // seen, to acknowledge with the next wait
    struct Write
    {
        qint64 messageId;
        Origin origin;
    };
    QHash<quint64, Write> m_writes; // stdout seq -> message, until fully written
    bool m_inWriteLoop = false;
    QList<qint64> m_pollAcks; // seen through a poll, acknowledged once its writes are done
    struct AckAfter
    {
        quint64 seq; // ack once this stdout line is written
        QList<qint64> ids;
    };
    QList<AckAfter> m_ackAfter; // tool results: ack after they are written
    int m_streamFailures = 0;
    QElapsedTimer m_lastStreamAnswer; // last successful /wait-messages (or poll) answer
    QTimer *m_retryTimer;
    QString m_streamError;

    // Ids written, queued or shown, insertion-ordered for trimming.
    QHash<qint64, Seen> m_seen;
    std::deque<qint64> m_seenOrder;

    // Sender info from /list-peers (scope lan).
    QHash<QString, Broker::Peer> m_peers;
    QElapsedTimer m_peersAge;
    QHash<QString, qint64> m_unknownSenders; // id -> when a refresh did not find it
    QElapsedTimer m_clock;

    ClaudeInbox *m_inbox = nullptr;
    // Handed to the inbox, not settled yet (held: until released or final); by message id.
    QHash<qint64, BannerQueue::Entry> m_inboxPending;

    BannerQueue m_banner;
    QTimer *m_safetyTimer;
    QTimer *m_pollTimer;
    bool m_pollInFlight = false;
    qint64 m_delivered = 0;
};

} // namespace Mcp
