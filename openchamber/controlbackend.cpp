#include "openchamber/controlbackend.h"

#include "broker/brokerserver.h"
#include "broker/secretstore.h"
#include "common/config.h"
#include "openchamber/controlevents.h"
#include "openchamber/controlsettings.h"
#include "openchamber/managedopencode.h"
#include "openchamber/openchamberlogging.h"
#include "openchamber/opencodeclient.h"
#include "openchamber/scheduleruntime.h"
#include "openchamber/sessionservice.h"
#include "openchamber/sessionwatcher.h"

#include <QMetaEnum>
#include <QRandomGenerator>

namespace OpenChamber {

namespace {

ControlSettings readSettings(const QString &configPath)
{
    return ControlSettings::fromConfig(Broker::ConfigFile::load(configPath).root());
}

} // namespace

OpenCodeBackend::OpenCodeBackend(std::shared_ptr<Broker::SecretStore> secrets,
                                 QProcessEnvironment environment)
    : m_secrets(std::move(secrets)),
      m_environment(std::move(environment)),
      m_events(std::make_unique<ControlEvents>())
{
    // A scheduled run is a session.create with a prompt, minus the landing check
    // (docs/spec/control-service.md §9.3).
    ScheduledSessionStarter starter = [this](const ScheduledRunRequest &run, CancelToken cancel,
                                             std::function<void(ScheduledRunResult)> done) {
        if (!m_sessions) {
            done(std::unexpected(
                ControlError {503, QStringLiteral("The control service is not running"), {}}));
            return;
        }
        if (run.goalEnabled) {
            done(std::unexpected(ControlError {400, QStringLiteral("goal is not supported"), {}}));
            return;
        }
        m_sessions->startScheduledRun(
            {run.directory, run.title, run.prompt, run.providerID, run.modelID, run.agent, run.variant},
            cancel, std::move(done));
    };
    ScheduleProjects projects = [this] {
        QList<ScheduleProject> list;
        for (const ControlSettings::Project &project : readSettings(m_configPath).projects)
            list.append({project.id, project.path});
        return list;
    };
    m_schedules = std::make_unique<ScheduleRuntime>(std::move(starter), std::move(projects));
}

OpenCodeBackend::~OpenCodeBackend()
{
    stop();
}

QList<Broker::ModuleMigration> OpenCodeBackend::migrations() const
{
    return ScheduleRuntime::migrations();
}

Broker::Result<void> OpenCodeBackend::start(Broker::ModuleContext &context)
{
    m_configPath = context.server().settings().location.configPath;
    const QJsonObject config = Broker::ConfigFile::load(m_configPath).root();
    OpenCodeClient::Options options;
    options.baseUrl = OpenCodeClient::configuredUrl(config, m_environment);
    m_openCode = std::make_unique<OpenCodeClient>(options);
    // An explicit CLAUDE_PEERS_OPENCODE_URL names the server to use, managed or not.
    const bool urlFromEnvironment =
        !m_environment.value(OpenCodeClient::UrlEnvironmentVariable).trimmed().isEmpty();
    std::optional<ManagedOpenCode::Options> managed =
        urlFromEnvironment ? std::nullopt : ManagedOpenCode::fromConfig(config, m_environment);
    if (managed)
        m_managed = std::make_unique<ManagedOpenCode>(*m_openCode, *managed);
    else if (m_secrets)
        m_openCode->loadPassword(*m_secrets);
    if (auto started = m_schedules->start(context); !started)
        return started;
    const QString configPath = m_configPath;
    m_sessions = std::make_unique<SessionService>(
        *m_openCode, [configPath] { return readSettings(configPath); }, m_schedules->service());
    connectEvents();
    if (m_managed) {
        // The first action after the broker's start waits for the server it just started.
        SessionService::Options sessionOptions = m_sessions->options();
        sessionOptions.readyTimeoutMs = managed->healthTimeoutMs;
        m_sessions->setOptions(sessionOptions);
        startManaged();
        qCInfo(lcControl).noquote() << "Control service for the OpenCode it runs itself (" << managed->binary
                                    << ") at" << m_openCode->baseUrl().toString();
    } else {
        qCInfo(lcControl).noquote() << "Control service for OpenCode at" << options.baseUrl.toString();
    }
    return {};
}

QList<Broker::ModuleJob> OpenCodeBackend::jobs()
{
    return m_schedules->jobs();
}

void OpenCodeBackend::connectEvents()
{
    ControlEvents *events = m_events.get();
    if (m_watchSessions) {
        m_watcher = std::make_unique<SessionWatcher>(*m_openCode);
        QObject::connect(m_watcher.get(), &SessionWatcher::sessionStatusChanged, events,
                         &ControlEvents::sessionStatusChanged);
        QObject::connect(m_watcher.get(), &SessionWatcher::sessionFailed, events,
                         &ControlEvents::sessionFailed);
        QObject::connect(m_watcher.get(), &SessionWatcher::sessionWaitingChanged, events,
                         &ControlEvents::sessionWaitingChanged);
        for (const ControlSettings::Project &project : readSettings(m_configPath).projects)
            m_watcher->watch(project.path);
    }
    SessionWatcher *watcher = m_watcher.get();
    // Lambdas run on the broker's thread (their context is the sender), whichever thread the
    // tray created the events object in.
    QObject::connect(m_sessions.get(), &SessionService::promptDispatched, m_sessions.get(),
                     [events, watcher](const QString &directory, const QString &sessionId) {
                         if (watcher)
                             watcher->watch(directory);
                         Q_EMIT events->promptDispatched(directory, sessionId);
                     });
    if (Scheduler *scheduler = m_schedules->scheduler()) {
        QObject::connect(scheduler, &Scheduler::runStarted, events, &ControlEvents::scheduledRunStarted);
        QObject::connect(scheduler, &Scheduler::runFinished, events, &ControlEvents::scheduledRunFinished);
    }
    if (m_managed) {
        ManagedOpenCode *managed = m_managed.get();
        QObject::connect(managed, &ManagedOpenCode::stateChanged, managed,
                         [events, managed](ManagedOpenCode::State state) {
                             const char *name =
                                 QMetaEnum::fromType<ManagedOpenCode::State>().valueToKey(int(state));
                             Q_EMIT events->managedOpenCodeChanged(QString::fromLatin1(name).toLower(),
                                                                   managed->lastError());
                         });
    }
}

void OpenCodeBackend::startManaged()
{
    const auto generate = [] {
        QByteArray bytes(32, Qt::Uninitialized);
        QRandomGenerator::system()->generate(bytes.begin(), bytes.end());
        return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    };
    if (!m_secrets) {
        m_managed->start(generate());
        return;
    }
    const QString key = Broker::SecretStore::managedOpenCodePasswordKey;
    m_secrets->read(key, m_managed.get(),
                    [this, key, generate](Broker::SecretResult<Broker::SecretRead> read) {
                        if (read && !read->secret.isEmpty())
                            return m_managed->start(read->secret);
                        const QByteArray password = generate();
                        if (!read && read.error().kind != Broker::SecretError::Kind::NotFound) {
                            qCWarning(lcControl).noquote()
                                << "Cannot read the managed OpenCode's password (" << read.error().message
                                << "); this run uses a new one that is not kept";
                        } else {
                            m_secrets->write(key, password, m_managed.get(),
                                             [](Broker::SecretResult<Broker::SecretLocation> written) {
                                                 if (!written)
                                                     qCWarning(lcControl).noquote()
                                                         << "The managed OpenCode's password is not kept:"
                                                         << written.error().message;
                                             });
                        }
                        m_managed->start(password);
                    });
}

void OpenCodeBackend::stop()
{
    m_watcher.reset();
    m_sessions.reset();
    m_managed.reset();
    m_schedules->stop();
    m_openCode.reset();
}

ControlService *OpenCodeBackend::service()
{
    return m_sessions.get();
}

} // namespace OpenChamber
