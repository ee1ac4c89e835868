#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <optional>

class QJsonObject;

namespace OpenChamber {

class OpenCodeClient;

// An `opencode serve` the broker runs itself (issue 10 §1, docs/openchamber.md "Managed
// OpenCode"), on a free loopback port, with a password of its own: started with the module,
// health-checked (GET /global/health), restarted with a growing delay when it exits, stopped
// with the broker. It runs in a process group of its own that dies with the broker's thread
// (PR_SET_PDEATHSIG), so neither a stop nor a crash of the broker leaves it behind.
//
// It steers the OpenCodeClient it is given: the client's URL follows the port of each start,
// and a request that finds nothing there says what the manager knows (starting, binary missing,
// exited and restarting).
class ManagedOpenCode final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString binary = QStringLiteral("opencode"); // a path, or a name looked up in PATH
        QString workingDirectory; // empty: HOME
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        int healthTimeoutMs = 30000; // OpenCode answers 3–4 s after start on an idle machine
        int healthIntervalMs = 250;
        int firstRestartDelayMs = 1000; // doubled at each exit, up to maxRestartDelayMs
        int maxRestartDelayMs = 30000;
        int stableAfterMs = 60000; // healthy this long: the next exit restarts after the first delay
        int stopGraceMs = 3000; // SIGTERM, then SIGKILL
    };
    enum class State {
        Stopped,
        Starting, // spawned, not yet healthy
        Running, // healthy
        Restarting, // exited; a new start is scheduled
        Failed, // cannot start (no binary): stays so until the broker starts again
    };
    Q_ENUM(State)

    // The openchamber object's managed-OpenCode keys (docs/openchamber.md):
    //   manage_opencode    true = the broker runs OpenCode (CLAUDE_PEERS_OPENCODE_URL still wins)
    //   opencode_binary    path or name of `opencode` (default "opencode", looked up in PATH)
    //   opencode_directory the server's working directory (default HOME)
    // nullopt when the broker should not manage OpenCode.
    static std::optional<Options> fromConfig(const QJsonObject &configRoot,
                                             const QProcessEnvironment &environment);

    ManagedOpenCode(OpenCodeClient &client, Options options, QObject *parent = nullptr);
    ~ManagedOpenCode() override; // stop()

    // Spawns OpenCode with this server password (OPENCODE_SERVER_PASSWORD; the client gets it
    // too). An unknown binary ends in Failed at once, with a message that says what to set.
    void start(const QByteArray &password);
    // Ends the server and any restart: SIGTERM to its process group, SIGKILL after the grace
    // time. Blocks up to stopGraceMs: the broker is going, and OpenCode must not outlive it.
    void stop();

    State state() const { return m_state; }
    QUrl url() const { return m_url; }
    qint64 pid() const; // 0 when not running
    int starts() const { return m_starts; }
    QString lastError() const { return m_lastError; }
    // The state in words, for errors of requests that found no server.
    QString explanation() const;
    // The binary as found (absolute), or empty when it is not there.
    QString resolvedBinary() const;

Q_SIGNALS:
    void stateChanged(OpenChamber::ManagedOpenCode::State state);
    void ready(const QUrl &url); // healthy at url

private:
    void spawn();
    void checkHealth();
    void exited(int code, QProcess::ExitStatus status);
    void scheduleRestart();
    void setState(State state);
    void killGroup(int signal);

    OpenCodeClient &m_client;
    Options m_options;
    QByteArray m_password;
    QProcess *m_process = nullptr;
    QTimer m_restartTimer;
    QTimer m_healthTimer;
    qint64 m_healthDeadline = 0;
    qint64 m_healthySince = 0;
    QUrl m_url;
    State m_state = State::Stopped;
    int m_restartDelayMs = 0;
    int m_starts = 0;
    QString m_lastError;
    QByteArray m_outputTail; // its last output, for the error of an exit
    bool m_healthRequestPending = false;
};

} // namespace OpenChamber
