#include "openchamber/managedopencode.h"

#include "openchamber/controlinput.h"
#include "openchamber/openchamberlogging.h"
#include "openchamber/opencodeclient.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTcpServer>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace OpenChamber {

namespace {

constexpr qsizetype MaxOutputTail = 2048;

qint64 monotonicMs()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer timer;
        timer.start();
        return timer;
    }();
    return clock.elapsed();
}

// A port nothing listens on now. Another process may take it before OpenCode binds it; then
// OpenCode exits and the next start picks another.
quint16 freeLoopbackPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

QString tailText(const QByteArray &output)
{
    const QString text = QString::fromUtf8(output).trimmed();
    return text.isEmpty() ? QString() : QStringLiteral(" Its last output: %1").arg(text.right(500));
}

} // namespace

std::optional<ManagedOpenCode::Options> ManagedOpenCode::fromConfig(const QJsonObject &configRoot,
                                                                    const QProcessEnvironment &environment)
{
    const QJsonObject section = configRoot.value(QStringLiteral("openchamber")).toObject();
    if (section.value(QStringLiteral("manage_opencode")).toBool() != true)
        return std::nullopt;
    Options options;
    options.environment = environment;
    const QString binary = asNonEmptyString(section.value(QStringLiteral("opencode_binary")));
    if (!binary.isEmpty())
        options.binary = expandHome(binary);
    const QString directory = asNonEmptyString(section.value(QStringLiteral("opencode_directory")));
    options.workingDirectory =
        directory.isEmpty() ? environment.value(QStringLiteral("HOME")) : expandHome(directory);
    return options;
}

ManagedOpenCode::ManagedOpenCode(OpenCodeClient &client, Options options, QObject *parent)
    : QObject(parent), m_client(client), m_options(std::move(options))
{
    m_restartTimer.setSingleShot(true);
    connect(&m_restartTimer, &QTimer::timeout, this, &ManagedOpenCode::spawn);
    m_healthTimer.setSingleShot(true);
    connect(&m_healthTimer, &QTimer::timeout, this, &ManagedOpenCode::checkHealth);
    m_client.setUnreachableExplanation([this] { return explanation(); });
    // The first port is known at once, so that no request goes to the configured URL meanwhile.
    m_url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(freeLoopbackPort()));
    m_client.setBaseUrl(m_url);
}

ManagedOpenCode::~ManagedOpenCode()
{
    stop();
    m_client.setUnreachableExplanation({});
    m_client.setCannotRun(false);
}

QString ManagedOpenCode::resolvedBinary() const
{
    if (m_options.binary.contains(QLatin1Char('/'))) {
        const QFileInfo file(m_options.binary);
        return file.isFile() && file.isExecutable() ? file.absoluteFilePath() : QString();
    }
    const QStringList path =
        m_options.environment.value(QStringLiteral("PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts);
    return QStandardPaths::findExecutable(m_options.binary, path);
}

qint64 ManagedOpenCode::pid() const
{
    return m_process ? m_process->processId() : 0;
}

void ManagedOpenCode::start(const QByteArray &password)
{
    m_password = password;
    m_client.setPassword(password);
    m_restartDelayMs = m_options.firstRestartDelayMs;
    spawn();
}

void ManagedOpenCode::spawn()
{
    const QString binary = resolvedBinary();
    if (binary.isEmpty()) {
        m_lastError =
            QStringLiteral(
                "the broker is set to run OpenCode itself (openchamber.manage_opencode), but its "
                "binary \"%1\" was not found or cannot be run. Install OpenCode (npm i -g opencode-ai) "
                "or set openchamber.opencode_binary in ~/.claude-peers-config.json to its path, "
                "then restart the broker")
                .arg(m_options.binary);
        qCWarning(lcControl).noquote() << "Managed OpenCode:" << m_lastError;
        m_client.setCannotRun(true);
        setState(State::Failed);
        return;
    }
    // A restart takes a new port: the old one may be what made OpenCode exit.
    const quint16 port = m_starts == 0 && m_url.port() > 0 ? quint16(m_url.port()) : freeLoopbackPort();
    if (port == 0) {
        m_lastError = QStringLiteral("no free loopback port for OpenCode");
        scheduleRestart();
        return;
    }
    m_lastError.clear();
    m_client.setCannotRun(false);
    m_healthRequestPending = false;
    m_url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
    m_client.setBaseUrl(m_url);

    QProcessEnvironment environment = m_options.environment;
    environment.insert(QStringLiteral("OPENCODE_SERVER_PASSWORD"), QString::fromUtf8(m_password));
    m_process = new QProcess(this);
    m_process->setProgram(binary);
    m_process->setArguments({QStringLiteral("serve"), QStringLiteral("--port"), QString::number(port),
                             QStringLiteral("--hostname"), QStringLiteral("127.0.0.1")});
    m_process->setProcessEnvironment(environment);
    m_process->setWorkingDirectory(m_options.workingDirectory.isEmpty() ? QDir::homePath()
                                                                        : m_options.workingDirectory);
    m_process->setStandardInputFile(QProcess::nullDevice());
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // Its own process group (stop() signals the group, whatever it starts goes too), and it dies
    // with the thread that started it, so a broker killed with SIGKILL leaves no server behind.
    m_process->setChildProcessModifier([] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
    QProcess *process = m_process;
    connect(process, &QProcess::readyRead, this, [this, process] {
        m_outputTail += process->readAll();
        if (m_outputTail.size() > MaxOutputTail)
            m_outputTail = m_outputTail.right(MaxOutputTail);
    });
    connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
        if (process == m_process)
            exited(code, status);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (process != m_process || error != QProcess::FailedToStart)
            return;
        m_lastError = QStringLiteral("OpenCode (%1) could not be started: %2")
                          .arg(process->program(), process->errorString());
        qCWarning(lcControl).noquote() << "Managed OpenCode:" << m_lastError;
        m_process->deleteLater();
        m_process = nullptr;
        scheduleRestart();
    });
    m_outputTail.clear();
    ++m_starts;
    setState(State::Starting);
    m_process->start();
    qCInfo(lcControl).noquote() << "Managed OpenCode: started" << binary << "on" << m_url.toString() << "(pid"
                                << m_process->processId() << ")";
    m_healthDeadline = monotonicMs() + m_options.healthTimeoutMs;
    m_healthTimer.start(m_options.healthIntervalMs);
}

void ManagedOpenCode::checkHealth()
{
    if (!m_process || m_healthRequestPending)
        return;
    m_healthRequestPending = true;
    QProcess *process = m_process;
    m_client.get(
        QStringLiteral("/global/health"), {}, {}, process,
        [this, process](OpenCodeResult<QJsonValue> answer) {
            m_healthRequestPending = false;
            if (process != m_process)
                return;
            if (answer && answer->toObject().value(QStringLiteral("healthy")).toBool()) {
                m_healthySince = monotonicMs();
                m_lastError.clear();
                setState(State::Running);
                qCInfo(lcControl).noquote() << "Managed OpenCode: healthy at" << m_url.toString();
                Q_EMIT ready(m_url);
                return;
            }
            if (monotonicMs() >= m_healthDeadline) {
                m_lastError =
                    QStringLiteral("OpenCode did not report itself healthy within %1 ms; it is restarted")
                        .arg(m_options.healthTimeoutMs);
                qCWarning(lcControl).noquote()
                    << "Managed OpenCode:" << m_lastError << tailText(m_outputTail);
                killGroup(SIGKILL); // exited() schedules the restart
                return;
            }
            m_healthTimer.start(m_options.healthIntervalMs);
        },
        m_options.healthIntervalMs * 4);
}

void ManagedOpenCode::exited(int code, QProcess::ExitStatus status)
{
    m_healthTimer.stop();
    m_healthRequestPending = false;
    m_process->deleteLater();
    m_process = nullptr;
    if (m_state == State::Stopped)
        return;
    if (m_state == State::Running && monotonicMs() - m_healthySince >= m_options.stableAfterMs)
        m_restartDelayMs = m_options.firstRestartDelayMs;
    if (m_lastError.isEmpty() || m_state == State::Running)
        m_lastError =
            (status == QProcess::CrashExit ? QStringLiteral("OpenCode crashed")
                                           : QStringLiteral("OpenCode exited with code %1").arg(code)) +
            tailText(m_outputTail);
    qCWarning(lcControl).noquote() << "Managed OpenCode:" << m_lastError;
    scheduleRestart();
}

void ManagedOpenCode::scheduleRestart()
{
    setState(State::Restarting);
    qCInfo(lcControl).noquote() << "Managed OpenCode: restarting in" << m_restartDelayMs << "ms";
    m_restartTimer.start(m_restartDelayMs);
    m_restartDelayMs = std::min(m_restartDelayMs * 2, m_options.maxRestartDelayMs);
}

void ManagedOpenCode::stop()
{
    m_restartTimer.stop();
    m_healthTimer.stop();
    const State before = std::exchange(m_state, State::Stopped);
    if (m_process) {
        QProcess *process = std::exchange(m_process, nullptr);
        const qint64 pid = process->processId();
        process->disconnect(this);
        if (pid > 0) {
            ::kill(-pid_t(pid), SIGTERM);
            if (!process->waitForFinished(m_options.stopGraceMs)) {
                ::kill(-pid_t(pid), SIGKILL);
                process->waitForFinished(1000);
            }
            qCInfo(lcControl).noquote() << "Managed OpenCode: stopped (pid" << pid << ")";
        }
        delete process;
    }
    if (before != State::Stopped)
        Q_EMIT stateChanged(State::Stopped);
}

void ManagedOpenCode::killGroup(int signal)
{
    if (m_process && m_process->processId() > 0)
        ::kill(-pid_t(m_process->processId()), signal);
}

void ManagedOpenCode::setState(State state)
{
    if (std::exchange(m_state, state) != state)
        Q_EMIT stateChanged(state);
}

QString ManagedOpenCode::explanation() const
{
    switch (m_state) {
    case State::Stopped:
        return QStringLiteral("the broker's OpenCode is not running (it starts with the broker)");
    case State::Starting:
        return QStringLiteral(
                   "the broker started OpenCode (pid %1) and it is not ready yet; try again in a few "
                   "seconds")
            .arg(pid());
    case State::Running:
        return QStringLiteral("the broker's OpenCode (pid %1) does not answer").arg(pid());
    case State::Restarting:
        return QStringLiteral("%1; the broker starts it again in %2 s")
            .arg(m_lastError.isEmpty() ? QStringLiteral("the broker's OpenCode stopped") : m_lastError)
            .arg((m_restartTimer.remainingTime() + 999) / 1000);
    case State::Failed:
        return m_lastError;
    }
    return m_lastError;
}

} // namespace OpenChamber
