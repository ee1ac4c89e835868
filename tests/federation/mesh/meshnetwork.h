#pragma once

#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

// The machinery of the federation mesh test: network namespaces joined by a bridge, processes
// started inside them (each broker with its own HOME, DB, token file and hostname), and HTTP
// requests made from inside a namespace with curl. Everything created is removed again by name
// or pid in the destructors, also when a check fails half way.
namespace Mesh {

// One HTTP exchange made with curl (status 0 = no connection or TLS refused).
struct Reply
{
    int status = 0;
    QByteArray body;
    QString curlError; // curl's stderr when status is 0
    QJsonObject object() const;
    QJsonValue json() const;
};

// Namespaces "<prefix>-<name>" with an address 10.77.0.<n>/24 each on eth0, all plugged into
// the bridge of a hub namespace: no interface or address is added to the host's namespace.
class Network
{
public:
    Network();
    ~Network();
    Network(const Network &) = delete;
    Network &operator=(const Network &) = delete;

    // Why namespaces cannot be used here (empty when they can): not root, no `ip`, or the
    // kernel refused.
    static QString unavailableReason();
    // Removes namespaces left by an earlier run of this test whose process is gone.
    static void removeStale();

    bool setUp(QString *error);
    // Adds a host namespace with address 10.77.0.<octet>; returns its namespace name.
    QString addHost(const QString &name, int octet, QString *error);
    void removeAll();

private:
    QString m_prefix;
    QStringList m_namespaces; // hub first
};

// argv that runs program inside namespace ns (plain program when ns is empty), with its own
// UTS namespace and hostname when hostname is not empty.
QStringList inNamespace(const QString &ns, const QString &hostname, const QString &program,
                        const QStringList &arguments);

// curl from inside ns (the host's namespace when empty). https URLs skip certificate checks,
// as 0.7 does; headers as "Name: value"; curlOptions such as {"--interface", "127.0.0.3"} (the
// loopback variant's source address).
Reply request(const QString &ns, const QString &method, const QString &url, const QByteArray &body = {},
              const QStringList &headers = {}, int timeoutMs = 10000, const QStringList &curlOptions = {});

// A process started inside a namespace; killed (by pid) and reaped in the destructor.
class Process
{
public:
    Process() = default;
    ~Process();
    Process(const Process &) = delete;
    Process &operator=(const Process &) = delete;

    bool start(const QStringList &argv, const QProcessEnvironment &env, QString *error);
    void kill(); // SIGKILL, waits for the exit
    void terminate(); // SIGTERM, then SIGKILL after a grace period
    bool running() const { return m_process && m_process->state() != QProcess::NotRunning; }
    qint64 pid() const { return m_process ? m_process->processId() : 0; }
    QProcess *process() { return m_process.get(); }
    QByteArray stderrOutput();

private:
    std::unique_ptr<QProcess> m_process;
    QByteArray m_stderr;
};

// One of our brokers in a namespace: its own HOME (token file, DB, config), a local port
// reached from inside its namespace, a federation port on its namespace's address.
class Broker
{
public:
    struct Options
    {
        QString ns; // empty = the host's namespace (the loopback variant)
        // The machine name its peers get as prefix: the namespace's own hostname (UTS namespace),
        // or CLAUDE_PEERS_FEDERATION_HOSTNAME without a namespace.
        QString hostname;
        QString address; // where other brokers reach its federation port
        quint16 localPort = 0;
        quint16 federationPort = 0;
        QString subnet;
        QByteArray sharedToken; // written as its token file before the start (0.7: PSK = token)
        QProcessEnvironment extraEnvironment; // set last: overrides the defaults (mDNS is off)
    };

    explicit Broker(Options options);
    bool start(QString *error); // waits until GET /health answers
    void kill() { m_process.kill(); }
    QString stderrOutput() { return QString::fromUtf8(m_process.stderrOutput()); }

    const Options &options() const { return m_options; }
    QString home() const { return m_home.path(); }
    QByteArray token() const;
    // Its environment (HOME, ports, token file, federation switches), for it and its CLI.
    QProcessEnvironment environment() const;
    // claude-peers with this broker's environment, inside its namespace.
    TestSupport::RunResult cli(const QStringList &arguments) const;

    // The local API, from inside the broker's namespace.
    Reply get(const QString &path) const;
    Reply post(const QString &path, const QJsonObject &body) const;
    // POST /register for a session of process pid (default: this test's, alive as long as the
    // test runs). One session per pid: a second registration with the same pid replaces the first.
    QString registerPeer(const QString &cwd, QString *error, qint64 pid = 0) const;
    qint64 pid() const { return m_process.pid(); }
    QStringList lanPeerIds() const; // POST /list-peers scope lan
    QJsonArray pendingMessages(const QString &peerId) const; // POST /poll-messages (no ack)
    QJsonObject federationStatus() const; // GET /federation/status

private:
    Options m_options;
    QTemporaryDir m_home;
    Process m_process;
};

// The 0.7 stand-in (tests/federation/standin/standin07.mjs) in a namespace, with an Ed25519
// certificate made by the openssl CLI as 0.7 did (test only; the product never runs openssl).
class StandIn
{
public:
    struct Options
    {
        QString ns;
        QString hostname;
        QString address;
        quint16 federationPort = 0;
        QByteArray sharedToken;
        QString subnet = QStringLiteral("0.0.0.0/0");
        QString keyType = QStringLiteral("ed25519");
    };

    explicit StandIn(Options options);
    bool start(QString *error); // waits for its ready line
    void kill() { m_process.kill(); }
    const Options &options() const { return m_options; }

    Reply control(const QString &method, const QString &path, const QJsonObject &body = {}) const;
    QJsonArray received() const; // inbound federation requests {path,status,error}
    QJsonArray messages() const; // messages relayed to its local peers
    // "sha256-<base64url>" of its certificate's SubjectPublicKeyInfo (the pin of the issue).
    QString fingerprint() const;

private:
    Options m_options;
    QTemporaryDir m_dir;
    Process m_process;
    quint16 m_controlPort = 0;
};

} // namespace Mesh
