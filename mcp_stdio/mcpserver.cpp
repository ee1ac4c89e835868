#include "mcp_stdio/mcpserver.h"

#include "common/brokerclient.h"
#include "common/config.h"
#include "common/unixsignalnotifier.h"
#include "mcp_stdio/channel.h"
#include "mcp_stdio/claudeinbox.h"
#include "mcp_stdio/claudesessionwatch.h"
#include "mcp_stdio/clientlog.h"
#include "mcp_stdio/delivery.h"
#include "mcp_stdio/jsonrpcdispatcher.h"
#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/parentwatch.h"
#include "mcp_stdio/peertool.h"
#include "mcp_stdio/piggyback.h"
#include "mcp_stdio/pushgate.h"
#include "mcp_stdio/session.h"
#include "mcp_stdio/stdiotransport.h"
#include "mcp_stdio/stdoutwriter.h"
#include "mcp_stdio/toolregistry.h"

#include <QProcessEnvironment>
#include <QTimer>

#include <csignal>

#include <unistd.h>

namespace Mcp {

namespace {

// The session (registration) waits for initialize, whose client name decides the client shown
// in listings and a tty-less helper's stable id. Every MCP client sends it first, but a busy
// one can take a while (a real OpenCode under load: over 20 ms); only a client that never sends
// it gets a registration without a client, after this long.
constexpr int SessionStartDelayMs = 2000;
// Claude Code (2.1.197) gives a stdio server 500 ms after SIGINT before SIGKILL: the
// acknowledgements and the unregister (about a millisecond each on a live broker) must fit.
constexpr int ShutdownStepMs = 150;
constexpr int ShutdownDeadlineMs = 450;

std::optional<bool> parseBool(const QString &value)
{
    const QString v = value.trimmed().toLower();
    if (v == QLatin1String("1") || v == QLatin1String("true") || v == QLatin1String("on") ||
        v == QLatin1String("yes"))
        return true;
    if (v == QLatin1String("0") || v == QLatin1String("false") || v == QLatin1String("off") ||
        v == QLatin1String("no"))
        return false;
    return std::nullopt;
}

} // namespace

McpServer::Options McpServer::defaultOptions()
{
    Options o;
    const auto config = Broker::ConfigFile::load(Broker::Location::fromEnvironment().configPath);
    const QJsonValue hello =
        config.root().value(QLatin1String("server")).toObject().value(QLatin1String("startup_hello"));
    if (hello.isBool())
        o.startupHello = hello.toBool();
    if (const auto env = parseBool(qEnvironmentVariable("CLAUDE_PEERS_STARTUP_HELLO")))
        o.startupHello = *env;
    return o;
}

McpServer::McpServer(Options options, QObject *parent)
    : QObject(parent),
      m_options(options),
      m_writer(new StdoutWriter(options.stdoutFd, this)),
      m_transport(new StdioTransport(options.stdinFd, LineSplitter::DefaultLimit, this)),
      m_client(new Broker::BrokerClient(Broker::Location::fromEnvironment(), this)),
      m_session(new Session(m_client, Session::defaultOptions(), this)),
      m_delivery(new Delivery(m_client, m_session, m_writer, Delivery::defaultOptions(), this)),
      m_tools(new ToolRegistry(this)),
      m_dispatcher(new JsonRpcDispatcher(m_tools, this)),
      m_parentWatch(new ParentWatch(options.parentCheckMs, this)),
      m_signals(new Broker::UnixSignalNotifier({SIGTERM, SIGINT, SIGHUP}, this)),
      m_pushGate(new PushGate(PushGate::defaultOptions(), this)),
      m_log(new ClientLog(this))
{
    addPeerTools(*m_tools, PeerToolDeps {m_client, m_session, m_delivery});
    // Every tool's result, a module's too, carries the banner: the model sees messages on any call.
    m_tools->setResultFilter([this](QJsonObject result) {
        return withPiggyback(std::move(result), m_delivery->takeBanner(), m_session->lastError());
    });
    connect(m_transport, &StdioTransport::lineReceived, m_dispatcher, &JsonRpcDispatcher::handleLine);
    connect(m_transport, &StdioTransport::lineTooLong, m_dispatcher, &JsonRpcDispatcher::handleLineTooLong);
    connect(m_transport, &StdioTransport::endOfInput, this,
            [this] { shutdown(QStringLiteral("stdin closed")); });
    connect(m_dispatcher, &JsonRpcDispatcher::response, m_writer,
            [this](const QJsonValue &message) { m_writer->write(message); });
    connect(m_dispatcher, &JsonRpcDispatcher::initializeAnswered, this, &McpServer::onClientKnown);
    // Before the session starts: the client's name is part of its registration and wording.
    connect(m_dispatcher, &JsonRpcDispatcher::initializeAnswered, this,
            [this](const QString &, const QString &clientName) {
                m_session->setClientName(clientName);
                m_tools->setClientName(clientName);
                m_log->setEnabled(true);
            });
    connect(m_dispatcher, &JsonRpcDispatcher::initializeAnswered, this, &McpServer::startSession);
    connect(m_dispatcher, &JsonRpcDispatcher::logLevelSet, m_log, [this](const QString &level) {
        if (const auto l = ClientLog::levelFromName(level))
            m_log->setMinimumLevel(*l);
    });
    connect(m_session, &Session::errorChanged, m_log, &ClientLog::reportTrouble);
    connect(m_log, &ClientLog::notify, m_writer,
            [this](const QJsonObject &message) { m_writer->write(message); });
    connect(m_dispatcher, &JsonRpcDispatcher::initialized, m_pushGate, &PushGate::onInitialized);
    connect(m_dispatcher, &JsonRpcDispatcher::requestReceived, m_pushGate, &PushGate::onRequest);
    connect(m_dispatcher, &JsonRpcDispatcher::clientResponse, m_pushGate, &PushGate::onResponse);
    connect(m_pushGate, &PushGate::sendPing, this, [this](const QJsonValue &id) {
        m_writer->write(QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                     {QStringLiteral("id"), id},
                                     {QStringLiteral("method"), QStringLiteral("ping")}});
    });
    connect(m_pushGate, &PushGate::opened, this, &McpServer::onPushReady);
    connect(m_writer, &StdoutWriter::failed, this, [this] { shutdown(QStringLiteral("stdout closed")); });
    connect(m_parentWatch, &ParentWatch::parentDied, this,
            [this] { shutdown(QStringLiteral("parent process died")); });
    connect(m_signals, &Broker::UnixSignalNotifier::signalReceived, this,
            [this](int signal) { shutdown(QStringLiteral("signal %1").arg(signal)); });
}

McpServer::~McpServer() = default;

void McpServer::start()
{
    m_transport->start();
    m_parentWatch->start();
    // initialize is answered before any broker work: the session starts once it is answered,
    // or, for a client that never sends it, SessionStartDelayMs after start.
    QTimer::singleShot(SessionStartDelayMs, this, &McpServer::startSession);
}

void McpServer::startSession()
{
    if (m_sessionStarted || m_shuttingDown)
        return;
    m_sessionStarted = true;
    m_session->start();
}

void McpServer::onClientKnown()
{
    const QJsonObject params = m_dispatcher->initializeParams();
    m_delivery->setClientProfile(
        ClientProfile::fromInitialize(params, ClientProfile::Host::current(m_dispatcher->clientName())));
    const ClientProfile &profile = m_delivery->clientProfile();
    qCInfo(lcStdio).noquote() << "channel pushes"
                              << (profile.pushIsSeen()   ? "shown"
                                      : profile.pushes() ? "maybe shown"
                                                         : "not shown")
                              << "by this client:" << profile.channelReason;
    m_pushGate->setPingWanted(profile.pushes());
    if (m_dispatcher->clientName() == QLatin1String("claude-code")) {
        followClaudeSession();
        if (!profile.pushIsSeen())
            useClaudeInbox();
    }
    m_session->setDeliveryPath(m_delivery->deliveryPath());
    updateChannelPush();
}

void McpServer::useClaudeInbox()
{
    const auto endpoint = ClaudeInbox::fromEnvironment(QProcessEnvironment::systemEnvironment());
    if (!endpoint) {
        qCInfo(lcDelivery)
            << "Claude Code gave no session inbox (CLAUDE_CODE_MESSAGING_SOCKET): messages wait "
               "for the next tool result";
        return;
    }
    auto *inbox = new ClaudeInbox(*endpoint, ClaudeInbox::Options {}, this);
    if (const auto started = inbox->start(); !started) {
        qCWarning(lcDelivery).noquote()
            << started.error().message << "- messages wait for the next tool result";
        delete inbox;
        return;
    }
    qCInfo(lcDelivery).noquote() << "delivering through Claude Code's session inbox" << endpoint->socketPath;
    m_delivery->setInbox(inbox);
}

void McpServer::followClaudeSession()
{
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString dir = ClaudeSessionFile::sessionsDir(env.value(QStringLiteral("CLAUDE_CONFIG_DIR")),
                                                       env.value(QStringLiteral("HOME")));
    QString file =
        ClaudeSessionWatch::findSessionFile(dir, env.value(QStringLiteral("CLAUDE_CODE_MESSAGING_SOCKET")));
    if (file.isEmpty()) // not written yet: Claude Code starts us directly, so it will be our parent's
        file = QStringLiteral("%1/%2.json").arg(dir).arg(qint64(::getppid()));
    qCInfo(lcSession).noquote() << "following Claude Code's session file" << file;
    m_sessionWatch = new ClaudeSessionWatch(this);
    connect(m_sessionWatch, &ClaudeSessionWatch::stateChanged, this,
            [this](const ClaudeSessionFile::State &state) {
                m_session->setAttention(state.attention, state.message);
            });
    m_sessionWatch->start(file);
}

void McpServer::onPushReady()
{
    m_delivery->setPushEnabled(true);
    // The state no longer waits for the hello's line to be written: the writer can report a
    // line written before write() returns, which once left channel_push "unknown" for good.
    if (m_options.startupHello && m_delivery->clientProfile().pushes() &&
        m_writer->write(Channel::helloNotification()) == 0)
        m_pushFailed = true; // stdout is gone
    updateChannelPush();
}

void McpServer::updateChannelPush()
{
    m_session->setChannelPush(
        m_delivery->clientProfile().channelPushState(m_pushGate->isOpen(), m_pushFailed));
}

void McpServer::shutdown(const QString &reason)
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    qCInfo(lcStdio).noquote() << "shutting down:" << reason;
    m_parentWatch->disconnect(this);
    m_tools->shutdown(); // calls in flight are cancelled: nothing answers them any more
    QTimer::singleShot(ShutdownDeadlineMs, this, &McpServer::finish);
    // What is still queued for stdout goes out first (bounded): its acknowledgements depend on it.
    if (!m_writer->hasFailed())
        m_writer->drain(ShutdownStepMs - 50);
    m_delivery->stop(ShutdownStepMs, [this] { m_session->stop(ShutdownStepMs, [this] { finish(); }); });
}

void McpServer::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    Q_EMIT finished(0);
}

} // namespace Mcp
