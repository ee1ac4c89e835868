#include "mcp_stdio/session.h"

#include "common/brokerapi.h"
#include "common/brokerclient.h"
#include "common/brokerlifecycle.h"
#include "common/config.h"
#include "common/workspace.h"
#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/serverinfo.h"
#include "mcp_stdio/tty.h"

#include <QDir>
#include <QJsonObject>
#include <QTimer>

#include <unistd.h>

namespace Mcp {

namespace {

constexpr int MinStartupTimeoutMs = 3000;
constexpr int RegisterTimeoutMs = 5000;
// Losing the credential this often means another helper keeps registering as this peer: say
// so and slow down instead of answering each takeover with one of our own.
constexpr int RejectionWindowMs = 60000;
constexpr int RejectionsBeforeBackoff = 3;
constexpr int RejectionBackoffMs = 30000;

Broker::BrokerLifecycle::Options lifecycleOptions(const Session::Options &options)
{
    Broker::BrokerLifecycle::Options o;
    o.probeTimeoutMs = options.healthTimeoutMs;
    o.pollTimeoutMs = 1000;
    o.startTimeoutMs = qMax(options.startupTimeoutMs, MinStartupTimeoutMs);
    o.programName = QStringLiteral("claude-peers-mcp");
    return o;
}

} // namespace

Session::Session(Broker::BrokerClient *client, Options options, QObject *parent)
    : QObject(parent),
      m_client(client),
      m_options(std::move(options)),
      m_lifecycle(new Broker::BrokerLifecycle(client, lifecycleOptions(m_options), this)),
      m_retryTimer(new QTimer(this)),
      m_heartbeatTimer(new QTimer(this))
{
    connect(m_lifecycle, &Broker::BrokerLifecycle::launched, this,
            [this](qint64 pid, const QString &program) {
                m_spawnedPid = pid;
                qCInfo(lcSession) << "started" << program << "pid" << pid;
                setState(State::StartingBroker);
            });
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &Session::connectToBroker);
    m_heartbeatTimer->setInterval(m_options.heartbeatIntervalMs);
    connect(m_heartbeatTimer, &QTimer::timeout, this, &Session::heartbeat);
    // Any request may be the first to notice: tools, heartbeat, the push stream.
    connect(m_client, &Broker::BrokerClient::unreachable, this, [this](const QString &path) {
        if (path != QLatin1String("/unregister"))
            reportTrouble(Trouble::Unreachable, m_client->unreachableMessage());
    });
    connect(m_client, &Broker::BrokerClient::sessionRejected, this, [this](const QString &path) {
        reportTrouble(Trouble::NotRegistered,
                      QStringLiteral("the broker refused this session's credential (%1)").arg(path));
    });
}

Session::~Session()
{
    for (Waiter *w : std::as_const(m_waiters))
        delete w;
}

Session::Options Session::defaultOptions()
{
    Options o;
    o.version = ServerInfo::version();
    bool ok = false;
    const int env = qEnvironmentVariableIntValue("CLAUDE_PEERS_STARTUP_TIMEOUT_MS", &ok);
    if (ok && env > 0) {
        o.startupTimeoutMs = env;
    } else {
        const auto config = Broker::ConfigFile::load(Broker::Location::fromEnvironment().configPath);
        if (const auto ms = config.startupTimeoutMs(); ms && *ms > 0)
            o.startupTimeoutMs = *ms;
    }
    o.startupTimeoutMs = qMax(o.startupTimeoutMs, MinStartupTimeoutMs);
    return o;
}

void Session::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    qCDebug(lcSession) << "state" << state;
    Q_EMIT stateChanged(state);
}

void Session::setError(const QString &error)
{
    if (error == m_lastError)
        return;
    if (!error.isEmpty())
        qCWarning(lcSession).noquote() << error;
    m_lastError = error;
    Q_EMIT errorChanged(error);
}

QString Session::requestedId() const
{
    const QString own = qEnvironmentVariable("CLAUDE_PEERS_ID").trimmed();
    if (!own.isEmpty())
        return own;
    if (m_tty.isEmpty())
        return Tty::stableIdWithoutTty(m_clientName, m_cwd);
    return {}; // the broker derives the terminal's id, as the reference does
}

void Session::start()
{
    if (m_state != State::Idle)
        return;
    m_life.start();
    m_cwd = QDir::currentPath();
    m_tty = Tty::detect();
    qCInfo(lcSession).noquote() << "session in" << m_cwd << "tty"
                                << (m_tty.isEmpty() ? QStringLiteral("(none)") : m_tty) << "broker"
                                << m_client->location().baseUrl().toString();
    probeWorkspace();
    connectToBroker();
}

void Session::probeWorkspace()
{
    Broker::Workspace::probeGit(m_cwd, this, [this](Broker::Workspace::GitInfo info) {
        m_gitRoot = info.root;
        m_branch = info.branch;
        m_recentFiles = info.recentFiles;
        m_workspaceReady = true;
        if (m_summaryIsAuto)
            m_summary = autoSummary();
        if (m_registerWhenReady) {
            m_registerWhenReady = false;
            registerNow();
        }
    });
}

QString Session::autoSummary() const
{
    Broker::Workspace::SummaryContext c;
    c.cwd = m_cwd;
    c.gitRoot = m_gitRoot;
    c.branch = m_branch;
    c.recentFiles = m_recentFiles;
    c.sessionName = m_sessionName;
    c.tty = m_tty;
    return Broker::Workspace::mcpAutoSummary(c);
}

void Session::connectToBroker()
{
    if (m_state == State::Stopped)
        return;
    const quint64 generation = ++m_generation;
    setState(State::Probing);
    auto onHealth = [this, generation](Broker::Result<Broker::BrokerHealth> health) {
        if (generation != m_generation)
            return;
        if (!health) {
            setError(health.error().kind == Broker::ErrorKind::Unreachable ? m_client->unreachableMessage()
                                                                           : health.error().message);
            retryLater(5000);
            return;
        }
        rememberBroker(*health);
        setState(State::Registering);
        if (m_workspaceReady)
            registerNow();
        else
            m_registerWhenReady = true;
    };
    if (!m_options.spawnBroker) {
        m_lifecycle->probe(std::move(onHealth));
        return;
    }
    m_lifecycle->ensureRunning(
        [onHealth = std::move(onHealth)](Broker::Result<Broker::BrokerLifecycle::Started> started) {
            if (started)
                onHealth(started->health);
            else
                onHealth(std::unexpected(started.error()));
        });
}

void Session::rememberBroker(const Broker::BrokerHealth &health)
{
    if (health.capabilities != m_brokerCapabilities)
        qCInfo(lcSession).noquote() << "broker capabilities:"
                                    << (health.capabilities.isEmpty()
                                            ? QStringLiteral("none (a 0.7 broker)")
                                            : health.capabilities.join(QLatin1String(", ")));
    m_brokerCapabilities = health.capabilities;
    m_databaseId = health.databaseId;
}

void Session::registerNow()
{
    if (m_state == State::Stopped)
        return;
    setState(State::Registering);
    const quint64 generation = m_generation;
    Broker::RegisterRequest request;
    request.pid = qint64(::getpid());
    request.cwd = m_cwd;
    request.gitRoot = m_gitRoot;
    request.tty = m_tty;
    request.summary = m_summary;
    request.version = m_options.version;
    request.sessionName = m_sessionName;
    request.requestedId = requestedId();
    request.client = m_clientName;
    m_preferredId = request.requestedId.isEmpty() ? Tty::peerIdForTty(m_tty) : request.requestedId;
    Broker::BrokerApi(*m_client).call(
        request,
        [this, generation](Broker::Result<Broker::RegisterAnswer> r) {
            if (generation != m_generation || m_state != State::Registering)
                return;
            if (!r) {
                setError(QStringLiteral("Registration failed: ") + r.error().message);
                retryLater(-1);
                return;
            }
            onRegistered(*r);
        },
        RegisterTimeoutMs);
}

void Session::onRegistered(const Broker::RegisterAnswer &answer)
{
    const QString &id = answer.id;
    if (id.isEmpty()) {
        setError(QStringLiteral("Registration failed: the broker's answer has no id"));
        retryLater(-1);
        return;
    }
    // Everything after /register acts with the session's own credential (docs/protocol.md);
    // an older broker without secrets keeps us on the main token.
    m_client->setSessionSecret(answer.sessionSecret.toUtf8());
    // The register answer speaks for the database this registration lives in (a broker may
    // have been replaced since /health).
    m_databaseId = answer.databaseId;
    if (m_peerId != id && !m_peerId.isEmpty())
        qCWarning(lcSession) << "peer id changed from" << m_peerId << "to" << id;
    m_peerId = id;
    m_idNote.clear();
    if (!m_preferredId.isEmpty() && id != m_preferredId) {
        // The broker keeps a live session's id for it (docs/divergences.md).
        m_idNote = QStringLiteral("%1 belongs to another live session (%2), so this one got its own id")
                       .arg(m_preferredId,
                            m_tty.isEmpty() || !qEnvironmentVariable("CLAUDE_PEERS_ID").trimmed().isEmpty()
                                ? QStringLiteral("same CLAUDE_PEERS_ID or client and folder")
                                : QStringLiteral("same terminal %1").arg(m_tty));
        qCInfo(lcSession).noquote() << m_idNote;
    }
    const QString &restoredName = answer.sessionName;
    bool summaryChanged = false;
    if (m_sessionName.isEmpty() && !restoredName.isEmpty()) {
        m_sessionName = restoredName;
        if (m_summaryIsAuto) {
            m_summary = autoSummary();
            summaryChanged = true;
        }
    }
    m_failures = 0;
    setError({});
    ++m_registrations;
    m_registeredClock.start();
    setState(State::Registered);
    qCInfo(lcSession).noquote() << "registered as" << m_peerId
                                << (m_sessionName.isEmpty() ? QString()
                                                            : QStringLiteral("(%1)").arg(m_sessionName));
    m_heartbeatTimer->start();
    if (summaryChanged) {
        Broker::BrokerApi(*m_client).call(Broker::SetSummaryRequest {m_peerId, m_summary},
                                          [](Broker::Result<Broker::OkAnswer>) {});
    }
    sendChannelPush();
    sendAttention();
    Q_EMIT registered(m_peerId);

    const QList<Waiter *> waiters = std::exchange(m_waiters, {});
    for (Waiter *w : waiters) {
        if (w->context)
            w->done(true);
        delete w->timer;
        delete w;
    }
}

void Session::retryLater(int delayMs)
{
    if (m_state == State::Stopped)
        return;
    ++m_failures;
    if (delayMs < 0) {
        static const int backoff[] = {0, 1000, 3000, 5000};
        delayMs = backoff[qMin(m_failures, 3)];
    }
    setState(State::Waiting);
    m_retryTimer->start(delayMs);
}

void Session::reportTrouble(Trouble trouble, const QString &why)
{
    if (m_state != State::Registered)
        return; // already on it
    qCWarning(lcSession).noquote() << "lost the broker:" << why;
    setError(why);
    m_heartbeatTimer->stop();
    Q_EMIT registrationLost();
    if (trouble == Trouble::NotRegistered) {
        const qint64 now = m_life.elapsed();
        m_rejections.append(now);
        while (!m_rejections.isEmpty() && now - m_rejections.constFirst() > RejectionWindowMs)
            m_rejections.removeFirst();
    }
    if (m_rejections.size() >= RejectionsBeforeBackoff) {
        // Someone else keeps taking this peer over (a broker without our same-terminal rule,
        // or another helper with the same CLAUDE_PEERS_ID): no fight, say it plainly.
        setError(QStringLiteral("This session lost its registration as %1 %2 times in the last minute: "
                                "another claude-peers helper keeps registering as the same peer (same "
                                "terminal or the same CLAUDE_PEERS_ID). Retrying every %3 s; give each "
                                "session its own CLAUDE_PEERS_ID, or update the broker.")
                     .arg(m_peerId)
                     .arg(m_rejections.size())
                     .arg(RejectionBackoffMs / 1000));
        ++m_generation;
        retryLater(RejectionBackoffMs);
    } else if (m_registeredClock.isValid() && m_registeredClock.elapsed() < 1000) {
        // Lost again right after registering: do not spin, try again in a moment.
        ++m_generation;
        retryLater(1000);
    } else if (trouble == Trouble::Recheck) {
        ++m_generation;
        connectToBroker();
    } else if (trouble == Trouble::NotRegistered) {
        // The broker answers but forgot us (restart with a fresh database, stale sweep):
        // register again at once, keeping name and summary.
        ++m_generation;
        registerNow();
    } else {
        connectToBroker();
    }
}

void Session::stop(int timeoutMs, std::function<void()> done)
{
    const bool wasRegistered = isRegistered();
    ++m_generation;
    setState(State::Stopped);
    m_lifecycle->abort();
    m_retryTimer->stop();
    m_heartbeatTimer->stop();
    if (!wasRegistered) {
        QTimer::singleShot(0, this, std::move(done));
        return;
    }
    Broker::BrokerApi(*m_client).call(
        Broker::UnregisterRequest {m_peerId}, [done](Broker::Result<Broker::OkAnswer>) { done(); },
        timeoutMs);
}

void Session::whenRegistered(int timeoutMs, QObject *context, std::function<void(bool)> done)
{
    if (isRegistered()) {
        done(true);
        return;
    }
    auto *w = new Waiter {context, std::move(done), new QTimer(this)};
    w->timer->setSingleShot(true);
    connect(w->timer, &QTimer::timeout, this, [this, w] {
        m_waiters.removeOne(w);
        if (w->context)
            w->done(false);
        w->timer->deleteLater();
        delete w;
    });
    w->timer->start(timeoutMs);
    m_waiters.append(w);
}

void Session::rememberName(const QString &name)
{
    m_sessionName = name;
}

void Session::rememberSummary(const QString &summary, bool automatic)
{
    m_summary = summary;
    m_summaryIsAuto = automatic;
}

QString Session::regenerateAutoSummary()
{
    if (!m_summaryIsAuto)
        return {};
    m_summary = autoSummary();
    return m_summary;
}

void Session::setChannelPush(const QString &state)
{
    if (m_channelPush == state)
        return;
    m_channelPush = state;
    sendChannelPush();
}

void Session::setDeliveryPath(const QString &path)
{
    if (m_deliveryPath == path)
        return;
    m_deliveryPath = path;
    sendChannelPush();
}

void Session::sendChannelPush()
{
    if (!isRegistered() || m_channelPush.isEmpty())
        return;
    Broker::BrokerApi(*m_client).call(Broker::SetChannelPushRequest {m_peerId, m_channelPush, m_deliveryPath},
                                      [](Broker::Result<Broker::OkAnswer>) {});
}

void Session::setAttention(Broker::Attention state, const QString &message)
{
    const std::pair next {state, message};
    if (m_attention == next)
        return;
    m_attention = next;
    sendAttention();
}

void Session::sendAttention()
{
    if (!isRegistered() || !m_attention)
        return;
    // A 0.7 broker has no /set-attention: its 404 is expected, and nothing else depends on it.
    Broker::BrokerApi(*m_client).call(
        Broker::SetAttentionRequest {m_peerId, m_attention->first, m_attention->second},
        [](Broker::Result<Broker::OkAnswer>) {});
}

void Session::noteContact()
{
    if (isRegistered())
        m_heartbeatTimer->start(); // restarts the interval
}

void Session::heartbeat()
{
    if (!isRegistered())
        return;
    Broker::BrokerApi(*m_client).call(Broker::HeartbeatRequest {m_peerId},
                                      [this](Broker::Result<Broker::OkAnswer> r) {
                                          if (r)
                                              return;
                                          if (r.error().kind == Broker::ErrorKind::Unreachable)
                                              reportTrouble(Trouble::Unreachable, r.error().message);
                                          else if (r.error().httpStatus == 401 || r.error().httpStatus == 404)
                                              reportTrouble(Trouble::NotRegistered, r.error().message);
                                      });
}

} // namespace Mcp
