#include "controlbackend.h"

#include "brokerserver.h"
#include "config.h"
#include "controlsettings.h"
#include "openchamberlogging.h"
#include "opencodeclient.h"
#include "scheduleruntime.h"
#include "sessionservice.h"

namespace OpenChamber {

namespace {

ControlSettings readSettings(const QString &configPath)
{
    return ControlSettings::fromConfig(Broker::ConfigFile::load(configPath).root());
}

} // namespace

OpenCodeBackend::OpenCodeBackend(std::shared_ptr<Broker::SecretStore> secrets,
                                 QProcessEnvironment environment)
    : m_secrets(std::move(secrets)), m_environment(std::move(environment))
{
    // A scheduled run is a session.create with a prompt, minus the landing check (§9.3).
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
    OpenCodeClient::Options options;
    options.baseUrl =
        OpenCodeClient::configuredUrl(Broker::ConfigFile::load(m_configPath).root(), m_environment);
    m_openCode = std::make_unique<OpenCodeClient>(options);
    if (m_secrets)
        m_openCode->loadPassword(*m_secrets);
    if (auto started = m_schedules->start(context); !started)
        return started;
    const QString configPath = m_configPath;
    m_sessions = std::make_unique<SessionService>(
        *m_openCode, [configPath] { return readSettings(configPath); }, m_schedules->service());
    qCInfo(lcControl).noquote() << "Control service for OpenCode at" << options.baseUrl.toString();
    return {};
}

QList<Broker::ModuleJob> OpenCodeBackend::jobs()
{
    return m_schedules->jobs();
}

void OpenCodeBackend::stop()
{
    m_sessions.reset();
    m_schedules->stop();
    m_openCode.reset();
}

ControlService *OpenCodeBackend::service()
{
    return m_sessions.get();
}

} // namespace OpenChamber
