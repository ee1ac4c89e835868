#pragma once

#include "bannerqueue.h"
#include "channel.h"
#include "dto.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include <deque>
#include <functional>

class QTimer;

namespace Mcp {

class BrokerLink;

class Session;
class StdoutWriter;

// Gets every message for this session into the session, none lost, none twice:
//
// Layer 1 (push): one POST /wait-messages held open at the broker. Each message that comes
//   back is written to stdout as notifications/claude/channel; only when the line is fully
//   written is its id acknowledged, on the next wait.
// Layer 2 (banner): every written message is queued and repeated at the top of the next tool
//   result once 5 s have passed (for sessions that do not show channel pushes).
// Layer 3 (safety net): every 30 s, unless the stream completed a round in that time, POST
//   /poll-messages catches what the stream missed (with a working stream every wait already
//   returns all pending messages, so a poll would add nothing but wake-ups).
//
// Ids already written are remembered (bounded) so a re-sent message is acknowledged, not
// written again.
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
        qint64 bannerGraceMs = BannerQueue::DefaultGraceMs;
        int bannerCapacity = BannerQueue::DefaultCapacity;
        int dedupLimit = 1000; // trimmed to half when exceeded
    };

    Delivery(BrokerLink *client, Session *session, StdoutWriter *writer, Options options,
             QObject *parent = nullptr);
    ~Delivery() override;

    // Pushes start after notifications/initialized (the client listens from then on).
    void setPushEnabled(bool enabled);
    bool isPushEnabled() const { return m_pushEnabled; }
    // Stops the stream and timers; acknowledges what was written (best effort, bounded).
    void stop(int timeoutMs, std::function<void()> done);

    // Layer 2: the banner for a tool result (empty when nothing is due).
    QString takeBanner();
    // check_messages: messages not written yet (fetched and acknowledged after the tool result
    // is written) plus everything still queued for the banner, in full.
    void checkMessages(std::function<void(Broker::Result<QString>)> done);

    QString streamState() const;
    int dedupSize() const { return int(m_dedup.size()); }
    int bannerSize() const { return m_banner.size(); }
    qint64 oldestQueuedAgeMs() const;
    qint64 delivered() const { return m_delivered; }

Q_SIGNALS:
    void messageWritten(qint64 messageId); // its notification line is fully on stdout

private:
    enum class Origin { Stream, SafetyNet };

    void onRegistered();
    void onRegistrationLost();
    void startWait();
    void onWaitAnswer(quint64 generation, const QList<qint64> &sentAcks, Broker::Result<QJsonValue> answer);
    void safetyNet();
    void handleIncoming(QList<Broker::Message> messages, Origin origin);
    void writeMessages(const QList<Broker::Message> &messages, Origin origin);
    void onLineWritten(quint64 seq);
    void checkWritesDone();
    void refreshPeers(std::function<void()> done);
    Channel::Sender senderFor(const QString &fromId) const;
    bool needsSenderLookup(const QString &fromId) const;
    void rememberDelivered(qint64 id);
    void ackNow(const QList<qint64> &ids);
    void troubleFrom(const Broker::Error &error);

    BrokerLink *m_client;
    Session *m_session;
    StdoutWriter *m_writer;
    Options m_options;
    bool m_pushEnabled = false;
    bool m_stopped = false;

    // Layer 1
    bool m_waitInFlight = false;
    bool m_batchInProgress = false; // writing a batch; the next wait starts when done
    quint64 m_generation = 0; // bumps on (re-)registration: late answers are dropped
    QList<qint64> m_ackPending; // written, to acknowledge with the next wait
    struct Write
    {
        qint64 messageId;
        Origin origin;
    };
    QHash<quint64, Write> m_writes; // stdout seq -> message, until fully written
    bool m_inWriteLoop = false;
    QList<qint64> m_safetyAcks; // written by the safety net, acknowledged at once
    struct AckAfter
    {
        quint64 seq; // ack once this stdout line is written
        QList<qint64> ids;
    };
    QList<AckAfter> m_ackAfter; // check_messages: ack after the tool result
    int m_streamFailures = 0;
    QElapsedTimer m_lastStreamAnswer; // last successful /wait-messages answer
    QTimer *m_retryTimer;
    QString m_streamError;

    // Dedup: ids written (or handed to check_messages), insertion-ordered for trimming.
    QSet<qint64> m_dedup;
    std::deque<qint64> m_dedupOrder;

    // Sender info from /list-peers (scope lan).
    QHash<QString, Broker::Peer> m_peers;
    QElapsedTimer m_peersAge;
    QHash<QString, qint64> m_unknownSenders; // id -> when a refresh did not find it
    QElapsedTimer m_clock;

    BannerQueue m_banner;
    QTimer *m_safetyTimer;
    bool m_safetyInFlight = false;
    qint64 m_delivered = 0;
};

} // namespace Mcp
