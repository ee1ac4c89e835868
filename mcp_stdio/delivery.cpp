#include "mcp_stdio/delivery.h"

#include "common/brokerapi.h"
#include "mcp_stdio/claudeinbox.h"
#include "mcp_stdio/format.h"
#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/session.h"
#include "mcp_stdio/stdoutwriter.h"

#include <QTimer>

#include <algorithm>

namespace Mcp {

namespace {
constexpr qint64 PeerCacheMaxAgeMs = 60 * 1000;
constexpr qint64 UnknownSenderRecheckMs = 30 * 1000;
constexpr int PeerLookupTimeoutMs = 2000;

void overrideFromEnvironment(int &value, const char *name)
{
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue(name, &ok);
    if (ok && ms > 0)
        value = ms;
}
} // namespace

Delivery::Options Delivery::defaultOptions()
{
    Options o;
    overrideFromEnvironment(o.waitTimeoutMs, "CLAUDE_PEERS_WAIT_TIMEOUT_MS");
    overrideFromEnvironment(o.safetyNetIntervalMs, "CLAUDE_PEERS_SAFETY_NET_MS");
    overrideFromEnvironment(o.pollIntervalMs, "CLAUDE_PEERS_POLL_INTERVAL_MS");
    return o;
}

Delivery::Delivery(Broker::BrokerClient *client, Session *session, StdoutWriter *writer, Options options,
                   QObject *parent)
    : QObject(parent),
      m_client(client),
      m_session(session),
      m_writer(writer),
      m_options(options),
      m_retryTimer(new QTimer(this)),
      m_banner(options.bannerCapacity),
      m_safetyTimer(new QTimer(this)),
      m_pollTimer(new QTimer(this))
{
    m_clock.start();
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &Delivery::startWait);
    m_safetyTimer->setInterval(m_options.safetyNetIntervalMs);
    connect(m_safetyTimer, &QTimer::timeout, this, &Delivery::safetyNet);
    m_pollTimer->setInterval(m_options.pollIntervalMs);
    connect(m_pollTimer, &QTimer::timeout, this, &Delivery::poll);
    connect(m_session, &Session::registered, this, &Delivery::onRegistered);
    connect(m_session, &Session::registrationLost, this, &Delivery::onRegistrationLost);
    connect(m_writer, &StdoutWriter::lineWritten, this, &Delivery::onLineWritten);
}

Delivery::~Delivery() = default;

void Delivery::setInbox(ClaudeInbox *inbox)
{
    m_inbox = inbox;
    connect(inbox, &ClaudeInbox::accepted, this, &Delivery::onInboxAccepted);
    connect(inbox, &ClaudeInbox::notDelivered, this, &Delivery::onInboxNotDelivered);
    connect(inbox, &ClaudeInbox::released, this, &Delivery::onInboxReleased);
}

QString Delivery::deliveryPath() const
{
    if (m_profile.pushIsSeen())
        return QStringLiteral("channel");
    return m_inbox ? QStringLiteral("inbox") : QStringLiteral("banner");
}

void Delivery::setPushEnabled(bool enabled)
{
    if (m_pushEnabled == enabled)
        return;
    m_pushEnabled = enabled;
    if (enabled) {
        m_safetyTimer->start();
        if (m_mode == Mode::Poll)
            m_pollTimer->start();
        startWait();
    } else {
        m_safetyTimer->stop();
        m_pollTimer->stop();
    }
}

void Delivery::onRegistered()
{
    ++m_generation; // an answer to a wait of the previous registration is dropped
    m_waitInFlight = false;
    m_streamFailures = 0;
    m_retryTimer->stop();
    if (m_session->databaseId() != m_databaseId) {
        if (!m_databaseId.isEmpty() || !m_seen.isEmpty())
            qCInfo(lcDelivery) << "the broker's database changed: message ids start over";
        forgetDatabase();
        m_databaseId = m_session->databaseId();
    }
    // A broker without /wait-messages (or without after_id, which holding messages back
    // needs) gets the reference's own mechanism: a poll every second.
    const bool stream = m_session->brokerHasCapability(QStringLiteral("wait-messages")) &&
        m_session->brokerHasCapability(QStringLiteral("wait-after-id"));
    const Mode mode = stream ? Mode::Stream : Mode::Poll;
    if (mode != m_mode && !stream)
        qCInfo(lcDelivery) << "the broker has no /wait-messages: polling every" << m_options.pollIntervalMs
                           << "ms";
    m_mode = mode;
    if (m_mode == Mode::Poll) {
        if (m_pushEnabled && !m_pollTimer->isActive())
            m_pollTimer->start();
        return;
    }
    m_pollTimer->stop();
    startWait();
}

void Delivery::forgetDatabase()
{
    // Ids of the old database mean nothing to the new one: neither dedup nor acknowledge them.
    m_seen.clear();
    m_seenOrder.clear();
    m_ackPending.clear();
    m_pollAcks.clear();
    m_ackAfter.clear();
    m_inboxPending.clear();
    m_afterId = 0;
}

void Delivery::onRegistrationLost()
{
    ++m_generation;
    m_waitInFlight = false;
    m_retryTimer->stop();
}

void Delivery::startWait()
{
    if (m_stopped || m_mode != Mode::Stream || !m_pushEnabled || !m_session->isRegistered() ||
        m_waitInFlight || m_batchInProgress)
        return;
    const QList<qint64> acks = std::exchange(m_ackPending, {});
    const Broker::WaitMessagesRequest request {m_session->peerId(), acks, m_options.waitTimeoutMs, m_afterId};
    m_waitInFlight = true;
    m_session->noteContact(); // the broker counts a wait as a heartbeat
    const quint64 generation = m_generation;
    Broker::BrokerApi(*m_client).call(
        request,
        [this, generation, acks](Broker::Result<Broker::MessagesAnswer> r) {
            onWaitAnswer(generation, acks, std::move(r));
        },
        m_options.waitTimeoutMs + 10000);
}

void Delivery::onWaitAnswer(quint64 generation, const QList<qint64> &sentAcks,
                            Broker::Result<Broker::MessagesAnswer> answer)
{
    if (!answer) // the acks may not have reached the broker: send them again
        m_ackPending = sentAcks + m_ackPending;
    if (generation != m_generation || m_stopped)
        return;
    m_waitInFlight = false;
    if (!answer) {
        troubleFrom(answer.error());
        return;
    }
    m_streamFailures = 0;
    m_streamError.clear();
    m_lastStreamAnswer.start();
    m_safetyTimer->start(); // due again only if the stream stays silent for a whole interval
    handleIncoming(std::move(answer->messages), Origin::Stream);
}

void Delivery::troubleFrom(const Broker::Error &error)
{
    ++m_streamFailures;
    m_streamError = error.message;
    qCDebug(lcDelivery).noquote() << "push stream:" << error.message;
    if (error.kind == Broker::ErrorKind::Unreachable) {
        m_session->reportTrouble(Session::Trouble::Unreachable, error.message);
    } else if (error.httpStatus == 404) {
        // Our broker says so for a peer it does not know, a 0.7 broker for the path itself:
        // look at what answers on the port before registering again.
        m_session->reportTrouble(Session::Trouble::Recheck, error.message);
    } else if (error.httpStatus == 401) {
        m_session->reportTrouble(Session::Trouble::NotRegistered, error.message);
    }
    // Whatever the session does, try the stream again later unless a new registration
    // restarts it first (onRegistered stops this timer).
    if (!m_retryTimer->isActive())
        m_retryTimer->start(qMin(250 * (1 << qMin(m_streamFailures, 5)), 5000));
}

bool Delivery::isKnown(const Broker::Message &m) const
{
    const auto it = m_seen.constFind(m.id);
    return it != m_seen.cend() && it->sentAt == m.sentAt;
}

void Delivery::handleIncoming(QList<Broker::Message> messages, Origin origin)
{
    QList<Broker::Message> fresh;
    QSet<qint64> batch;
    for (Broker::Message &m : messages) {
        if (origin == Origin::Stream)
            m_afterId = qMax(m_afterId, m.id);
        if (batch.contains(m.id))
            continue;
        batch.insert(m.id);
        if (isKnown(m)) {
            // Seen by the model before but the acknowledgement did not stick: acknowledge again.
            // Held back (not seen yet): it stays pending, nothing to do.
            if (m_seen.value(m.id).seenByModel)
                acknowledge(m.id, origin);
            continue;
        }
        bool writing = false;
        for (const Write &w : std::as_const(m_writes))
            writing = writing || w.messageId == m.id;
        if (!writing)
            fresh.append(std::move(m));
    }
    if (origin == Origin::Stream)
        m_batchInProgress = true;

    const bool lookup = std::any_of(fresh.cbegin(), fresh.cend(),
                                    [this](const Broker::Message &m) { return needsSenderLookup(m.fromId); });
    if (lookup) {
        const quint64 generation = m_generation;
        refreshPeers([this, fresh, origin, generation] {
            if (m_stopped)
                return;
            for (const Broker::Message &m : fresh) {
                if (needsSenderLookup(m.fromId)) // still unknown: do not ask again for a while
                    m_unknownSenders.insert(m.fromId, m_clock.elapsed());
            }
            if (generation != m_generation) {
                // Re-registered meanwhile (perhaps on another database): the new stream or
                // poll brings them again.
                if (origin == Origin::Stream) {
                    m_batchInProgress = false;
                    startWait();
                }
                return;
            }
            writeMessages(fresh, origin);
        });
        return;
    }
    if (!fresh.isEmpty() && m_peersAge.isValid() && m_peersAge.elapsed() > PeerCacheMaxAgeMs)
        refreshPeers({}); // names and summaries change: refresh in the background
    writeMessages(fresh, origin);
}

void Delivery::writeMessages(const QList<Broker::Message> &messages, Origin origin)
{
    m_inWriteLoop = true;
    for (const Broker::Message &m : messages) {
        const Channel::Sender sender = senderFor(m.fromId);
        remember(m, false);
        if (m_inbox && !m_profile.pushIsSeen()) {
            // The inbox alone: a channel push as well could show it twice.
            const BannerQueue::Entry entry = Format::entryFor(m, sender.name, m_clock.elapsed());
            m_inboxPending.insert(m.id, entry);
            m_inbox->deliver(m.id, Format::inboxMessage(entry, sender.client));
            qCDebug(lcDelivery) << "handed message" << m.id << "to Claude Code's inbox";
            continue;
        }
        if (!m_profile.pushIsSeen()) {
            m_banner.push(Format::entryFor(m, sender.name, m_clock.elapsed()));
            qCDebug(lcDelivery) << "queued message" << m.id << "for the next tool result";
        }
        if (!m_profile.pushes())
            continue; // the banner or check_messages shows it, then it is acknowledged
        const quint64 seq = m_writer->nextSeq();
        m_writes.insert(seq, Write {m.id, origin});
        if (m_writer->write(Channel::notification(m, sender)) == 0) {
            // stdout is gone; the helper is shutting down. Not acknowledged: the broker keeps it.
            m_writes.remove(seq);
            break;
        }
        qCDebug(lcDelivery) << "pushed message" << m.id << "from" << m.fromId;
    }
    m_inWriteLoop = false;
    checkWritesDone();
}

void Delivery::onLineWritten(quint64 seq)
{
    for (qsizetype i = 0; i < m_ackAfter.size();) {
        if (m_ackAfter.at(i).seq <= seq)
            ackNow(m_ackAfter.takeAt(i).ids);
        else
            ++i;
    }
    const auto it = m_writes.constFind(seq);
    if (it == m_writes.cend())
        return;
    const Write w = it.value();
    m_writes.erase(it);
    ++m_delivered;
    if (const auto seen = m_seen.find(w.messageId); m_profile.pushIsSeen() && seen != m_seen.end()) {
        // (Not found: written for a database the broker no longer has; nothing to acknowledge.)
        seen->seenByModel = true;
        acknowledge(w.messageId, w.origin);
    }
    if (!m_inWriteLoop)
        checkWritesDone();
}

void Delivery::onInboxAccepted(qint64 id)
{
    if (!m_inboxPending.remove(id))
        return; // a database ago
    if (auto seen = m_seen.find(id); seen != m_seen.end()) {
        seen->seenByModel = true;
        ++m_delivered;
        ackNow({id});
    }
}

void Delivery::onInboxNotDelivered(qint64 id, const QString &status, const QString &reason)
{
    const auto it = m_inboxPending.constFind(id);
    if (it == m_inboxPending.cend())
        return;
    BannerQueue::Entry entry = it.value();
    if (status != QLatin1String("held"))
        m_inboxPending.erase(it);
    qCInfo(lcDelivery).noquote() << "message" << id << "not delivered by the inbox (" << status
                                 << "): the banner shows it";
    // Due at once: nothing else can have shown it.
    entry.pushedAtMs = m_clock.elapsed() - BannerQueue::DefaultGraceMs;
    m_banner.push(entry);
    if (status != QLatin1String("unreachable"))
        tellSender(entry, status, reason);
}

void Delivery::onInboxReleased(qint64 id)
{
    if (!m_inboxPending.remove(id))
        return;
    // The user approved it: Claude Code shows it now. Still queued for the banner: take it out.
    // Already shown in a tool result: the model saw it twice, which the user chose by approving.
    if (m_banner.remove(id)) {
        if (auto seen = m_seen.find(id); seen != m_seen.end() && !seen->seenByModel) {
            seen->seenByModel = true;
            ackNow({id});
        }
    }
}

void Delivery::tellSender(const BannerQueue::Entry &entry, const QString &status, const QString &reason)
{
    // Only peers can be told; and never about a notice, or two held sessions would loop.
    if (entry.fromId == QLatin1String("cli") || entry.fromId == QLatin1String("system") ||
        entry.metadataJson.contains(QLatin1String("\"claude_peers_notice\"")) || !m_session->isRegistered())
        return;
    Broker::SendMessageRequest notice;
    notice.fromId = m_session->peerId();
    notice.toId = entry.fromId;
    const QString name = m_session->sessionName();
    notice.text =
        Format::inboxNotice(entry.messageId, name.isEmpty() ? m_session->peerId() : name, status, reason);
    notice.metadata = QJsonObject {{QStringLiteral("claude_peers_notice"), status}};
    notice.replyTo = entry.messageId;
    Broker::BrokerApi(*m_client).call(notice, [](Broker::Result<Broker::SendMessageAnswer>) {});
}

void Delivery::acknowledge(qint64 id, Origin origin)
{
    QList<qint64> &list = origin == Origin::Stream ? m_ackPending : m_pollAcks;
    if (!list.contains(id))
        list.append(id);
}

void Delivery::checkWritesDone()
{
    bool streamWriting = false;
    bool pollWriting = false;
    for (const Write &w : std::as_const(m_writes)) {
        if (w.origin == Origin::Stream)
            streamWriting = true;
        else
            pollWriting = true;
    }
    if (!pollWriting && !m_pollAcks.isEmpty())
        ackNow(std::exchange(m_pollAcks, {}));
    if (m_batchInProgress && !streamWriting) {
        m_batchInProgress = false;
        startWait();
    }
}

void Delivery::ackNow(const QList<qint64> &ids)
{
    if (ids.isEmpty())
        return;
    // Not sent now, or failed: the next wait carries them (poll mode: the next poll sends them).
    auto later = [this](const QList<qint64> &list) {
        (m_mode == Mode::Stream ? m_ackPending : m_pollAcks) += list;
    };
    if (!m_session->isRegistered()) {
        later(ids);
        return;
    }
    const quint64 generation = m_generation;
    Broker::BrokerApi(*m_client).call(Broker::AckMessagesRequest {m_session->peerId(), ids},
                                      [this, ids, generation, later](Broker::Result<Broker::OkAnswer> r) {
                                          if (!r && generation == m_generation)
                                              later(ids);
                                      });
}

void Delivery::remember(const Broker::Message &m, bool seenByModel)
{
    if (!m_seen.contains(m.id))
        m_seenOrder.push_back(m.id);
    m_seen.insert(m.id, Seen {m.sentAt, seenByModel});
    if (int(m_seenOrder.size()) > m_options.dedupLimit) {
        while (int(m_seenOrder.size()) > m_options.dedupLimit / 2) {
            m_seen.remove(m_seenOrder.front());
            m_seenOrder.pop_front();
        }
    }
}

QList<qint64> Delivery::seenInToolResult(const QList<BannerQueue::Entry> &entries)
{
    QList<qint64> ids;
    for (const BannerQueue::Entry &e : entries) {
        auto it = m_seen.find(e.messageId);
        // An entry of a previous database has no (or another) record here: not ours to ack.
        if (it == m_seen.end() || it->sentAt != e.sentAt)
            continue;
        if (!it->seenByModel) {
            it->seenByModel = true;
            ids.append(e.messageId);
        }
    }
    return ids;
}

bool Delivery::needsSenderLookup(const QString &fromId) const
{
    if (fromId == QLatin1String("system") || fromId == QLatin1String("cli") || m_peers.contains(fromId))
        return false;
    const auto it = m_unknownSenders.constFind(fromId);
    return it == m_unknownSenders.cend() || m_clock.elapsed() - it.value() > UnknownSenderRecheckMs;
}

Channel::Sender Delivery::senderFor(const QString &fromId) const
{
    if (fromId == QLatin1String("system"))
        return Channel::Sender {QStringLiteral("claude-peers"), {}, {}, {}};
    const auto it = m_peers.constFind(fromId);
    if (it == m_peers.cend())
        return {};
    return Channel::Sender {it->sessionName, it->summary, it->cwd, it->client};
}

void Delivery::refreshPeers(std::function<void()> done)
{
    const Broker::ListPeersRequest request {
        QStringLiteral("lan"), m_session->cwd(), m_session->gitRoot(), {}};
    Broker::BrokerApi(*m_client).call(
        request,
        [this, done](Broker::Result<Broker::ListPeersAnswer> r) {
            if (r) {
                m_peers.clear();
                for (const Broker::Peer &p : std::as_const(r->peers))
                    m_peers.insert(p.id, p);
                m_peersAge.start();
            }
            if (done)
                done();
        },
        PeerLookupTimeoutMs);
}

void Delivery::safetyNet()
{
    if (m_stopped || !m_pushEnabled || !m_session->isRegistered())
        return;
    // The stream should always be running here; restart it if something left it idle.
    if (m_mode == Mode::Stream && !m_waitInFlight && !m_batchInProgress && !m_retryTimer->isActive())
        startWait();
    if (m_lastStreamAnswer.isValid() && m_lastStreamAnswer.elapsed() < m_options.safetyNetIntervalMs)
        return; // the stream answered recently: it already delivered everything pending
    poll();
}

void Delivery::poll()
{
    if (m_stopped || !m_pushEnabled || !m_session->isRegistered() || m_pollInFlight)
        return;
    const bool regular = m_mode == Mode::Poll;
    if (regular) {
        m_pollAcks += std::exchange(m_ackPending, {});
        const bool writing = std::any_of(m_writes.cbegin(), m_writes.cend(),
                                         [](const Write &w) { return w.origin == Origin::Poll; });
        if (!writing)
            ackNow(std::exchange(m_pollAcks, {}));
    }
    m_pollInFlight = true;
    const quint64 generation = m_generation;
    Broker::BrokerApi(*m_client).call(
        Broker::PollMessagesRequest {m_session->peerId()},
        [this, generation, regular](Broker::Result<Broker::MessagesAnswer> r) {
            m_pollInFlight = false;
            if (m_stopped || generation != m_generation)
                return;
            if (!r) {
                if (r.error().kind == Broker::ErrorKind::Unreachable)
                    m_session->reportTrouble(Session::Trouble::Unreachable, r.error().message);
                else if (r.error().httpStatus == 401)
                    m_session->reportTrouble(Session::Trouble::NotRegistered, r.error().message);
                return;
            }
            QList<Broker::Message> &messages = r->messages;
            if (regular)
                m_lastStreamAnswer.start(); // the poll is the stream here
            if (messages.isEmpty())
                return;
            if (!regular)
                qCInfo(lcDelivery) << "safety net found" << messages.size() << "undelivered message(s)";
            handleIncoming(std::move(messages), Origin::Poll);
        });
}

QString Delivery::takeBanner()
{
    const QList<BannerQueue::Entry> due = m_banner.takeDue(m_clock.elapsed(), m_profile.bannerGraceMs());
    if (due.isEmpty())
        return {};
    // The tool result carrying the banner is the next line written (the reply goes out in the
    // same call chain), so the acknowledgement waits for that line.
    if (const QList<qint64> ids = seenInToolResult(due); !ids.isEmpty())
        m_ackAfter.append(AckAfter {m_writer->nextSeq(), ids});
    return Format::banner(due, m_banner.takeOmitted(), m_session->peerId());
}

void Delivery::checkMessages(std::function<void(Broker::Result<QString>)> done)
{
    Broker::BrokerApi(*m_client).call(
        Broker::PollMessagesRequest {m_session->peerId()},
        [this, done](Broker::Result<Broker::MessagesAnswer> r) {
            if (!r) {
                done(std::unexpected(r.error()));
                return;
            }
            QList<BannerQueue::Entry> entries = m_banner.takeAll();
            QSet<qint64> queued;
            for (const BannerQueue::Entry &e : std::as_const(entries))
                queued.insert(e.messageId);
            for (const Broker::Message &m : std::as_const(r->messages)) {
                if (queued.contains(m.id))
                    continue;
                const bool pushing = m_profile.pushIsSeen() &&
                    std::any_of(m_writes.cbegin(), m_writes.cend(),
                                [&m](const Write &w) { return w.messageId == m.id; });
                if (isKnown(m) &&
                    (m_seen.value(m.id).seenByModel || pushing || m_inboxPending.contains(m.id)))
                    continue; // the model saw it already (or is about to, through the push or inbox)
                remember(m, false);
                entries.append(Format::entryFor(m, senderFor(m.fromId).name, m_clock.elapsed()));
            }
            std::sort(entries.begin(), entries.end(),
                      [](const BannerQueue::Entry &a, const BannerQueue::Entry &b) {
                          return a.messageId < b.messageId;
                      });
            QString text = Format::messageList(entries);
            if (const int omitted = m_banner.takeOmitted(); omitted > 0)
                text += QStringLiteral(
                            "\n\n(%1 older message(s) were dropped from the banner queue; read them with: "
                            "claude-peers messages --to %2)")
                            .arg(omitted)
                            .arg(m_session->peerId());
            // Acknowledged once the tool result carrying them is on stdout.
            if (const QList<qint64> ids = seenInToolResult(entries); !ids.isEmpty())
                m_ackAfter.append(AckAfter {m_writer->nextSeq(), ids});
            done(text);
        });
}

QString Delivery::streamState() const
{
    if (m_stopped)
        return QStringLiteral("stopped");
    if (!m_pushEnabled)
        return QStringLiteral("waiting for the client's notifications/initialized");
    if (!m_session->isRegistered())
        return QStringLiteral("not registered");
    if (m_mode == Mode::Poll)
        return QStringLiteral("polling /poll-messages every %1 ms (the broker has no /wait-messages)")
            .arg(m_options.pollIntervalMs);
    if (m_waitInFlight)
        return QStringLiteral("connected (long-poll /wait-messages)");
    if (m_batchInProgress)
        return QStringLiteral("writing messages");
    if (!m_streamError.isEmpty())
        return QStringLiteral("retrying (%1)").arg(m_streamError);
    return QStringLiteral("idle");
}

qint64 Delivery::oldestQueuedAgeMs() const
{
    return m_banner.size() ? m_clock.elapsed() - m_banner.oldestPushedAtMs() : 0;
}

void Delivery::stop(int timeoutMs, std::function<void()> done)
{
    m_stopped = true;
    ++m_generation;
    m_retryTimer->stop();
    m_safetyTimer->stop();
    m_pollTimer->stop();
    // Only what the model saw; whatever is held stays at the broker for this peer's next
    // helper (or bounces to its sender when the peer is gone).
    QList<qint64> acks = std::exchange(m_ackPending, {});
    acks += std::exchange(m_pollAcks, {});
    for (const AckAfter &a : std::as_const(m_ackAfter)) {
        if (a.seq <= m_writer->lastWritten()) // the tool result carrying them is out
            acks += a.ids;
    }
    m_ackAfter.clear();
    if (acks.isEmpty() || !m_session->isRegistered()) {
        QTimer::singleShot(0, this, std::move(done));
        return;
    }
    Broker::BrokerApi(*m_client).call(
        Broker::AckMessagesRequest {m_session->peerId(), acks},
        [done](Broker::Result<Broker::OkAnswer>) { done(); }, timeoutMs);
}

} // namespace Mcp
