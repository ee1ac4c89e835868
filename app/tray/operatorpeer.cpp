#include "app/tray/operatorpeer.h"

#include "app/tray/traylogging.h"
#include "common/brokerclient.h"

#include <QCoreApplication>
#include <QDir>
#include <QHostInfo>
#include <QProcessEnvironment>

#include <algorithm>

namespace App {

namespace {

// How many received ids are remembered against a message coming twice (at-least-once).
constexpr qsizetype MaxSeen = 4096;

bool isNotRegistered(const Broker::Error &error)
{
    return error.kind == Broker::ErrorKind::Http && error.httpStatus == 404 &&
        error.message.contains(QLatin1String("is not registered"));
}

} // namespace

OperatorPeer::OperatorPeer(const Broker::Location &location, QObject *parent)
    : OperatorPeer(location, Identity {}, parent)
{
}

OperatorPeer::OperatorPeer(const Broker::Location &location, Identity identity, QObject *parent)
    : QObject(parent),
      m_client(new Broker::BrokerClient(location, this)),
      m_api(*m_client),
      m_identity(std::move(identity))
{
    if (m_identity.summary.isEmpty())
        m_identity.summary = defaultSummary();
    if (m_identity.cwd.isEmpty())
        m_identity.cwd = QDir::homePath();
    if (m_identity.pid == 0)
        m_identity.pid = QCoreApplication::applicationPid();
    m_heartbeat.setInterval(HeartbeatMs);
    m_heartbeat.callOnTimeout(this, &OperatorPeer::heartbeat);
    m_retry.setSingleShot(true);
    m_retry.callOnTimeout(this, &OperatorPeer::registerNow);
    m_poll.setSingleShot(true);
    m_poll.setInterval(PollMs);
    m_poll.callOnTimeout(this, &OperatorPeer::pollNext);
    // A restarted broker with a fresh database voided our secret: register again.
    connect(m_client, &Broker::BrokerClient::sessionRejected, this, [this](const QString &path) {
        if (m_state == State::Online)
            lost(QStringLiteral("the broker refused the operator's session secret on %1").arg(path));
    });
}

OperatorPeer::~OperatorPeer() = default;

QString OperatorPeer::defaultSummary()
{
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QString login = env.value(QStringLiteral("USER"), env.value(QStringLiteral("LOGNAME")));
    if (login.isEmpty())
        login = QDir::home().dirName();
    return QStringLiteral("the human at the tray (%1@%2)").arg(login, QHostInfo::localHostName());
}

void OperatorPeer::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void OperatorPeer::start()
{
    if (m_state != State::Stopped)
        return;
    m_retryMs = RetryMinMs;
    registerNow();
}

void OperatorPeer::stop()
{
    ++m_generation;
    m_heartbeat.stop();
    m_retry.stop();
    m_poll.stop();
    m_client->abortAll();
    setState(State::Stopped);
}

void OperatorPeer::registerNow()
{
    const quint64 generation = ++m_generation;
    m_heartbeat.stop();
    m_poll.stop();
    m_client->abortAll(); // the old stream and heartbeats belong to the old registration
    m_client->setSessionSecret({});
    setState(State::Registering);
    Broker::RegisterRequest request;
    request.pid = m_identity.pid;
    request.cwd = m_identity.cwd;
    request.sessionName = m_identity.sessionName;
    request.summary = m_identity.summary;
    request.version = QStringLiteral(PEERS_VERSION);
    request.requestedId = m_identity.requestedId;
    request.client = QStringLiteral("claude-peers-tray");
    m_api.call(request, [this, generation](Broker::Result<Broker::RegisterAnswer> answer) {
        if (generation != m_generation)
            return;
        if (!answer) {
            qCDebug(lcUi).noquote() << "operator: registration failed:" << answer.error().message;
            setState(State::Offline);
            m_retry.start(m_retryMs);
            m_retryMs = std::min(m_retryMs * 2, RetryMaxMs);
            return;
        }
        onRegistered(*answer);
    });
}

void OperatorPeer::onRegistered(const Broker::RegisterAnswer &answer)
{
    m_retryMs = RetryMinMs;
    if (answer.databaseId != m_databaseId) {
        // Another database: its ids start over, so what we saw says nothing about them.
        m_databaseId = answer.databaseId;
        m_afterId = 0;
        m_seen.clear();
    }
    m_toAck.clear();
    m_id = answer.id;
    m_client->setSessionSecret(answer.sessionSecret.toUtf8());
    qCInfo(lcUi).noquote() << "operator registered as peer" << m_id;
    setState(State::Online);
    m_heartbeat.start();
    // The operator reads what it receives at once (the Messages page, a notification).
    Broker::SetChannelPushRequest push;
    push.id = m_id;
    push.status = QStringLiteral("working");
    m_api.call(push, [](Broker::Result<Broker::OkAnswer>) {});
    Q_EMIT registered(m_id);
    m_streaming = true;
    waitNext();
}

void OperatorPeer::waitNext()
{
    if (!m_streaming) {
        pollNext();
        return;
    }
    const quint64 generation = m_generation;
    Broker::WaitMessagesRequest request;
    request.id = m_id;
    request.ack = m_toAck;
    request.timeoutMs = WaitTimeoutMs;
    request.afterId = m_afterId;
    const QList<qint64> acking = m_toAck;
    m_api.call(
        request,
        [this, generation, acking](Broker::Result<Broker::MessagesAnswer> answer) {
            if (generation != m_generation)
                return;
            if (!answer) {
                const Broker::Error &error = answer.error();
                if (error.kind == Broker::ErrorKind::Http && error.httpStatus == 404 &&
                    !isNotRegistered(error)) {
                    // A broker without the push stream (0.7): its own 1 s poll.
                    qCInfo(lcUi) << "operator: the broker has no /wait-messages; polling every second";
                    m_streaming = false;
                    pollNext();
                    return;
                }
                lost(error.message);
                return;
            }
            m_toAck.removeIf([&acking](qint64 id) { return acking.contains(id); });
            receive(answer->messages);
            waitNext();
        },
        WaitTimeoutMs + 10000);
}

void OperatorPeer::pollNext()
{
    const quint64 generation = m_generation;
    const auto poll = [this, generation] {
        Broker::PollMessagesRequest request;
        request.id = m_id;
        m_api.call(request, [this, generation](Broker::Result<Broker::MessagesAnswer> answer) {
            if (generation != m_generation)
                return;
            if (!answer) {
                lost(answer.error().message);
                return;
            }
            receive(answer->messages);
            m_poll.start();
        });
    };
    if (m_toAck.isEmpty()) {
        poll();
        return;
    }
    Broker::AckMessagesRequest ack;
    ack.id = m_id;
    ack.messageIds = std::exchange(m_toAck, {});
    m_api.call(ack, [this, generation, poll](Broker::Result<Broker::OkAnswer> answer) {
        if (generation != m_generation)
            return;
        if (!answer) {
            lost(answer.error().message);
            return;
        }
        poll();
    });
}

void OperatorPeer::receive(const QList<Broker::Message> &messages)
{
    QList<Broker::Message> fresh;
    for (const Broker::Message &m : messages) {
        m_afterId = std::max(m_afterId, m.id);
        if (!m_toAck.contains(m.id))
            m_toAck.append(m.id);
        if (m_seen.contains(m.id))
            continue;
        if (m_seen.size() >= MaxSeen)
            m_seen.clear(); // ids only grow: after_id keeps the old ones away anyway
        m_seen.insert(m.id);
        fresh.append(m);
    }
    std::sort(fresh.begin(), fresh.end(),
              [](const Broker::Message &a, const Broker::Message &b) { return a.id < b.id; });
    if (!fresh.isEmpty())
        Q_EMIT messagesReceived(fresh); // acknowledged with the next wait or poll
}

void OperatorPeer::lost(const QString &why)
{
    if (m_state == State::Stopped)
        return;
    qCInfo(lcUi).noquote() << "operator: lost the broker (" << why << "); registering again";
    ++m_generation;
    m_heartbeat.stop();
    m_poll.stop();
    setState(State::Offline);
    m_retry.start(m_retryMs);
    m_retryMs = std::min(m_retryMs * 2, RetryMaxMs);
}

void OperatorPeer::heartbeat()
{
    const quint64 generation = m_generation;
    Broker::HeartbeatRequest request;
    request.id = m_id;
    m_api.call(request, [this, generation](Broker::Result<Broker::OkAnswer> answer) {
        if (generation != m_generation || answer)
            return;
        qCDebug(lcUi).noquote() << "operator: heartbeat failed:" << answer.error().message;
    });
}

Broker::Result<void> OperatorPeer::requireOnline() const
{
    if (m_state == State::Online)
        return {};
    return Broker::fail(Broker::ErrorKind::Stopped,
                        tr("The operator is not registered with the broker yet; try again when the "
                           "broker is running."));
}

void OperatorPeer::send(const QString &toId, const QString &text, SendDone done, const SendOptions &options)
{
    if (auto online = requireOnline(); !online) {
        done(std::unexpected(online.error()));
        return;
    }
    if (toId.contains(QLatin1Char(':'))) {
        Broker::SendToRemoteRequest request;
        request.toId = toId;
        request.fromId = m_id;
        request.text = text;
        if (options.type)
            request.type = *options.type;
        if (options.metadata.isObject())
            request.metadata = options.metadata.toObject();
        m_api.call(request, [done](Broker::Result<Broker::FederationAnswer> answer) {
            if (!answer)
                done(std::unexpected(answer.error()));
            else if (!answer->ok)
                done(Broker::fail(Broker::ErrorKind::Rejected, answer->error));
            else
                done(qint64(0));
        });
        return;
    }
    Broker::SendMessageRequest request;
    request.fromId = m_id;
    request.toId = toId;
    request.text = text;
    request.type = options.type;
    request.metadata = options.metadata;
    request.replyTo = options.replyTo;
    m_api.call(request, [done](Broker::Result<Broker::SendMessageAnswer> answer) {
        if (!answer)
            done(std::unexpected(answer.error()));
        else if (!answer->ok)
            done(Broker::fail(Broker::ErrorKind::Rejected, answer->error));
        else
            done(answer->messageId);
    });
}

void OperatorPeer::reply(const Broker::Message &message, const QString &text, SendDone done)
{
    if (message.fromId == QLatin1String("system") || message.fromId == QLatin1String("cli") ||
        message.fromId.isEmpty()) {
        done(Broker::fail(Broker::ErrorKind::Rejected,
                          tr("Message #%1 came from \"%2\", which cannot receive a reply.")
                              .arg(message.id)
                              .arg(message.fromId)));
        return;
    }
    SendOptions options;
    options.type = QStringLiteral("response");
    if (!message.fromId.contains(QLatin1Char(':')))
        options.replyTo = message.id;
    send(message.fromId, text, std::move(done), options);
}

void OperatorPeer::broadcast(const QString &scope, const QString &text, const QString &cwd,
                             const QString &gitRoot, BroadcastDone done)
{
    if (auto online = requireOnline(); !online) {
        done(std::unexpected(online.error()));
        return;
    }
    Broker::BroadcastRequest request;
    request.fromId = m_id;
    request.text = text;
    request.scope = scope;
    request.cwd = cwd.isEmpty() ? m_identity.cwd : cwd;
    request.gitRoot = gitRoot;
    m_api.call(request, [done](Broker::Result<Broker::BroadcastAnswer> answer) {
        if (answer && !answer->ok)
            done(Broker::fail(Broker::ErrorKind::Rejected, answer->error));
        else
            done(std::move(answer));
    });
}

} // namespace App
