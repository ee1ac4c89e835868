#include "tests/federation/mesh/meshnetwork.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Mesh {

namespace {

const QString kPrefixBase = u"fmesh"_s;

TestSupport::RunResult ip(const QStringList &arguments)
{
    return TestSupport::run(u"ip"_s, arguments, QProcessEnvironment::systemEnvironment(), 10000);
}

bool ipOk(const QStringList &arguments, QString *error)
{
    const TestSupport::RunResult r = ip(arguments);
    if (r.exitCode == 0)
        return true;
    if (error)
        *error = u"ip %1 failed: %2"_s.arg(arguments.join(u' '), QString::fromUtf8(r.err).trimmed());
    return false;
}

} // namespace

QJsonValue Reply::json() const
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    if (document.isObject())
        return document.object();
    if (document.isArray())
        return document.array();
    return {};
}

QJsonObject Reply::object() const
{
    return json().toObject();
}

Network::Network() : m_prefix(u"%1-%2"_s.arg(kPrefixBase).arg(QCoreApplication::applicationPid())) { }

Network::~Network()
{
    removeAll();
}

QString Network::unavailableReason()
{
    if (QStandardPaths::findExecutable(u"ip"_s).isEmpty())
        return u"`ip` (iproute2) is not installed: tools/install-deps.sh test installs it"_s;
    if (QStandardPaths::findExecutable(u"unshare"_s).isEmpty())
        return u"`unshare` (util-linux) is not installed"_s;
    if (::geteuid() != 0)
        return u"network namespaces need root (CI runs this test as root)"_s;
    const QString probe = u"%1-probe-%2"_s.arg(kPrefixBase).arg(QCoreApplication::applicationPid());
    QString error;
    if (!ipOk({u"netns"_s, u"add"_s, probe}, &error))
        return u"the kernel refused a network namespace: "_s + error;
    ipOk({u"netns"_s, u"del"_s, probe}, nullptr);
    return {};
}

void Network::removeStale()
{
    // Only namespaces this test names (fmesh-<pid>-…) whose process no longer exists.
    static const QRegularExpression ours(uR"(^fmesh-(\d+)-\S+)"_s);
    const TestSupport::RunResult r = ip({u"netns"_s, u"list"_s});
    for (const QString &line : QString::fromUtf8(r.out).split(u'\n', Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = ours.match(line);
        if (!m.hasMatch())
            continue;
        const pid_t owner = pid_t(m.captured(1).toLongLong());
        if (::kill(owner, 0) == 0 || errno == EPERM)
            continue;
        ipOk({u"netns"_s, u"del"_s, m.captured(0)}, nullptr);
    }
}

bool Network::setUp(QString *error)
{
    const QString hub = m_prefix + u"-hub"_s;
    if (!ipOk({u"netns"_s, u"add"_s, hub}, error))
        return false;
    m_namespaces << hub;
    return ipOk({u"-n"_s, hub, u"link"_s, u"add"_s, u"br0"_s, u"type"_s, u"bridge"_s}, error) &&
        ipOk({u"-n"_s, hub, u"link"_s, u"set"_s, u"br0"_s, u"up"_s}, error);
}

QString Network::addHost(const QString &name, int octet, QString *error)
{
    const QString hub = m_namespaces.value(0);
    const QString ns = u"%1-%2"_s.arg(m_prefix, name);
    const QString hubSide = u"v%1"_s.arg(octet);
    if (!ipOk({u"netns"_s, u"add"_s, ns}, error))
        return {};
    m_namespaces << ns;
    const bool ok = ipOk({u"-n"_s, ns, u"link"_s, u"set"_s, u"lo"_s, u"up"_s}, error) &&
        ipOk({u"-n"_s, hub, u"link"_s, u"add"_s, hubSide, u"type"_s, u"veth"_s, u"peer"_s, u"name"_s,
              u"eth0"_s, u"netns"_s, ns},
             error) &&
        ipOk({u"-n"_s, hub, u"link"_s, u"set"_s, hubSide, u"master"_s, u"br0"_s, u"up"_s}, error) &&
        ipOk({u"-n"_s, ns, u"addr"_s, u"add"_s, u"10.77.0.%1/24"_s.arg(octet), u"dev"_s, u"eth0"_s}, error) &&
        ipOk({u"-n"_s, ns, u"link"_s, u"set"_s, u"eth0"_s, u"up"_s}, error);
    return ok ? ns : QString();
}

void Network::removeAll()
{
    // Deleting a namespace deletes its veth end, and with it the other end in the hub.
    while (!m_namespaces.isEmpty())
        ipOk({u"netns"_s, u"del"_s, m_namespaces.takeLast()}, nullptr);
}

QStringList inNamespace(const QString &ns, const QString &hostname, const QString &program,
                        const QStringList &arguments)
{
    QStringList argv;
    if (!ns.isEmpty())
        argv << u"ip"_s << u"netns"_s << u"exec"_s << ns;
    if (!hostname.isEmpty()) {
        // ip, unshare and sh all exec: the pid the test holds ends up being the program's.
        argv << u"unshare"_s << u"--uts"_s << u"--"_s << u"sh"_s << u"-c"_s
             << u"hostname \"$1\" && shift && exec \"$@\""_s << u"sh"_s << hostname;
    }
    argv << program << arguments;
    return argv;
}

Reply request(const QString &ns, const QString &method, const QString &url, const QByteArray &body,
              const QStringList &headers, int timeoutMs, const QStringList &curlOptions)
{
    QStringList curl {u"-sS"_s,       u"-k"_s,
                      u"--noproxy"_s, u"*"_s,
                      u"-X"_s,        method,
                      u"-m"_s,        QString::number(qMax(1, TestSupport::scaled(timeoutMs) / 1000)),
                      u"-w"_s,        u"\n%{http_code}"_s};
    curl << curlOptions;
    for (const QString &h : headers)
        curl << u"-H"_s << h;
    if (method == u"POST"_s)
        curl << u"-H"_s << u"Content-Type: application/json"_s << u"--data-binary"_s << u"@-"_s;
    curl << url;
    const QStringList argv = inNamespace(ns, {}, u"curl"_s, curl);
    const TestSupport::RunResult r =
        TestSupport::run(argv.first(), argv.mid(1), QProcessEnvironment::systemEnvironment(),
                         TestSupport::scaled(timeoutMs) + 5000, body);
    Reply reply;
    const qsizetype cut = r.out.lastIndexOf('\n');
    reply.status = cut >= 0 ? r.out.mid(cut + 1).trimmed().toInt() : 0;
    reply.body = cut >= 0 ? r.out.left(cut) : r.out;
    if (reply.status == 0)
        reply.curlError = QString::fromUtf8(r.err).trimmed();
    return reply;
}

Process::~Process()
{
    kill();
}

bool Process::start(const QStringList &argv, const QProcessEnvironment &env, QString *error)
{
    m_process = std::make_unique<QProcess>();
    m_process->setProcessEnvironment(env);
    // Dies with the test, even when the test itself is killed (ctest's timeout, a crash) and no
    // destructor runs; ip netns exec, unshare and sh exec, so the flag reaches the program.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process->setProgram(argv.first());
    m_process->setArguments(argv.mid(1));
    QObject::connect(m_process.get(), &QProcess::readyReadStandardError, m_process.get(),
                     [this] { m_stderr += m_process->readAllStandardError(); });
    m_process->start();
    if (!m_process->waitForStarted(TestSupport::scaled(10000))) {
        if (error)
            *error = u"could not start %1: %2"_s.arg(argv.join(u' '), m_process->errorString());
        return false;
    }
    return true;
}

void Process::kill()
{
    if (!running())
        return;
    ::kill(pid_t(m_process->processId()), SIGKILL);
    m_process->waitForFinished(TestSupport::scaled(10000));
}

void Process::terminate()
{
    if (!running())
        return;
    ::kill(pid_t(m_process->processId()), SIGTERM);
    if (!m_process->waitForFinished(TestSupport::scaled(10000)))
        kill();
}

QByteArray Process::stderrOutput()
{
    if (m_process)
        m_stderr += m_process->readAllStandardError();
    return m_stderr;
}

Broker::Broker(Options options) : m_options(std::move(options)) { }

QByteArray Broker::token() const
{
    QFile file(m_home.filePath(u".claude-peers-token"_s));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
}

QProcessEnvironment Broker::environment() const
{
    QProcessEnvironment env;
    env.insert(u"PATH"_s, qEnvironmentVariable("PATH"));
    env.insert(u"HOME"_s, m_home.path());
    env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(m_options.localPort));
    env.insert(u"CLAUDE_PEERS_DB"_s, m_home.filePath(u".claude-peers.db"_s));
    env.insert(u"CLAUDE_PEERS_TOKEN"_s, m_home.filePath(u".claude-peers-token"_s));
    env.insert(u"CLAUDE_PEERS_FEDERATION_ENABLED"_s, u"true"_s);
    env.insert(u"CLAUDE_PEERS_FEDERATION_PORT"_s, QString::number(m_options.federationPort));
    env.insert(u"CLAUDE_PEERS_FEDERATION_SUBNET"_s, m_options.subnet);
    env.insert(u"CLAUDE_PEERS_MDNS_ENABLED"_s, u"false"_s);
    if (m_options.ns.isEmpty())
        env.insert(u"CLAUDE_PEERS_FEDERATION_HOSTNAME"_s, m_options.hostname);
    const QStringList extra = m_options.extraEnvironment.keys();
    for (const QString &key : extra)
        env.insert(key, m_options.extraEnvironment.value(key));
    return env;
}

TestSupport::RunResult Broker::cli(const QStringList &arguments) const
{
    const QStringList argv = inNamespace(m_options.ns, {}, TestSupport::cliExe(), arguments);
    return TestSupport::run(argv.first(), argv.mid(1), environment(), TestSupport::scaled(30000));
}

bool Broker::start(QString *error)
{
    const QString tokenPath = m_home.filePath(u".claude-peers-token"_s);
    if (!m_options.sharedToken.isEmpty() && !QFile::exists(tokenPath)) {
        QFile file(tokenPath);
        if (!file.open(QIODevice::WriteOnly) || file.write(m_options.sharedToken + '\n') < 0 ||
            !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner)) {
            if (error)
                *error = u"cannot write %1"_s.arg(tokenPath);
            return false;
        }
    }
    const QProcessEnvironment env = environment();
    // A UTS namespace (root) only with a network namespace; without, the environment names it.
    const QStringList argv = inNamespace(
        m_options.ns, m_options.ns.isEmpty() ? QString() : m_options.hostname, TestSupport::brokerExe(), {});
    if (!m_process.start(argv, env, error))
        return false;
    QDeadlineTimer deadline(TestSupport::scaled(15000));

    while (!deadline.hasExpired()) {
        if (!m_process.running()) {
            if (error)
                *error = u"broker %1 exited: %2"_s.arg(m_options.hostname, stderrOutput());
            return false;
        }
        if (get(u"/health"_s).status == 200)
            return true;
        QTest::qWait(100); // polling for readiness, not proving anything
    }
    if (error)
        *error = u"broker %1 did not answer /health: %2"_s.arg(m_options.hostname, stderrOutput());
    return false;
}

Reply Broker::get(const QString &path) const
{
    return request(m_options.ns, u"GET"_s, u"http://127.0.0.1:%1%2"_s.arg(m_options.localPort).arg(path));
}

Reply Broker::post(const QString &path, const QJsonObject &body) const
{
    return request(m_options.ns, u"POST"_s, u"http://127.0.0.1:%1%2"_s.arg(m_options.localPort).arg(path),
                   QJsonDocument(body).toJson(QJsonDocument::Compact),
                   {u"Authorization: Bearer "_s + QString::fromLatin1(token())});
}

QString Broker::registerPeer(const QString &cwd, QString *error, qint64 pid) const
{
    const Reply r = post(u"/register"_s,
                         QJsonObject {{u"pid"_s, pid ? pid : QCoreApplication::applicationPid()},
                                      {u"cwd"_s, cwd},
                                      {u"git_root"_s, QJsonValue::Null},
                                      {u"tty"_s, QJsonValue::Null},
                                      {u"summary"_s, u"mesh test"_s}});
    const QString id = r.object().value(u"id"_s).toString();
    if (id.isEmpty() && error)
        *error =
            u"/register on %1: %2 %3"_s.arg(m_options.hostname).arg(r.status).arg(QString::fromUtf8(r.body));
    return id;
}

QStringList Broker::lanPeerIds() const
{
    const Reply r =
        post(u"/list-peers"_s,
             QJsonObject {{u"scope"_s, u"lan"_s}, {u"cwd"_s, u"/"_s}, {u"git_root"_s, QJsonValue::Null}});
    QStringList ids;
    for (const QJsonValue &peer : r.json().toArray())
        ids << peer.toObject().value(u"id"_s).toString();
    return ids;
}

QJsonArray Broker::pendingMessages(const QString &peerId) const
{
    return post(u"/poll-messages"_s, QJsonObject {{u"id"_s, peerId}}).object().value(u"messages"_s).toArray();
}

QJsonObject Broker::federationStatus() const
{
    return get(u"/federation/status"_s).object();
}

StandIn::StandIn(Options options) : m_options(std::move(options)) { }

bool StandIn::start(QString *error)
{
    const QString key = m_dir.filePath(u"standin.key"_s);
    const QString cert = m_dir.filePath(u"standin.crt"_s);
    const QString token = m_dir.filePath(u"token"_s);
    const TestSupport::RunResult made = TestSupport::run(
        u"openssl"_s,
        {u"req"_s, u"-x509"_s, u"-newkey"_s, m_options.keyType, u"-nodes"_s, u"-keyout"_s, key, u"-out"_s,
         cert, u"-days"_s, u"365"_s, u"-subj"_s, u"/CN="_s + m_options.hostname},
        QProcessEnvironment::systemEnvironment(), TestSupport::scaled(30000));
    if (made.exitCode != 0) {
        if (error)
            *error = u"openssl req: "_s + QString::fromUtf8(made.err);
        return false;
    }
    QFile file(token);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_options.sharedToken + '\n') < 0) {
        if (error)
            *error = u"cannot write "_s + token;
        return false;
    }
    file.close();
    const QString script = QStringLiteral(PEERS_SOURCE_DIR) + u"/tests/federation/standin/standin07.mjs"_s;
    const QStringList argv =
        inNamespace(m_options.ns, {}, u"node"_s,
                    {script, u"--token-file"_s, token, u"--cert"_s, cert, u"--key"_s, key, u"--hostname"_s,
                     m_options.hostname, u"--subnet"_s, m_options.subnet, u"--bind"_s,
                     m_options.ns.isEmpty() ? m_options.address : u"0.0.0.0"_s, u"--port"_s,
                     QString::number(m_options.federationPort)});
    if (!m_process.start(argv, QProcessEnvironment::systemEnvironment(), error))
        return false;
    QProcess *p = m_process.process();
    QDeadlineTimer deadline(TestSupport::scaled(15000));
    while (!p->canReadLine() && p->state() == QProcess::Running && !deadline.hasExpired())
        p->waitForReadyRead(100);
    const QJsonObject ready = QJsonDocument::fromJson(p->readLine()).object();
    m_controlPort = quint16(ready.value(u"control_port"_s).toInt());
    if (m_controlPort == 0 && error)
        *error = u"the stand-in did not start: "_s + QString::fromUtf8(m_process.stderrOutput());
    return m_controlPort != 0;
}

Reply StandIn::control(const QString &method, const QString &path, const QJsonObject &body) const
{
    return request(m_options.ns, method, u"http://127.0.0.1:%1%2"_s.arg(m_controlPort).arg(path),
                   method == u"POST"_s ? QJsonDocument(body).toJson(QJsonDocument::Compact) : QByteArray());
}

QString StandIn::fingerprint() const
{
    const TestSupport::RunResult der = TestSupport::run(
        u"openssl"_s,
        {u"pkey"_s, u"-in"_s, m_dir.filePath(u"standin.key"_s), u"-pubout"_s, u"-outform"_s, u"DER"_s},
        QProcessEnvironment::systemEnvironment(), TestSupport::scaled(15000));
    if (der.exitCode != 0 || der.out.isEmpty())
        return {};
    return u"sha256-"_s +
        QString::fromLatin1(QCryptographicHash::hash(der.out, QCryptographicHash::Sha256)
                                .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QJsonArray StandIn::received() const
{
    return control(u"GET"_s, u"/control/received"_s).json().toArray();
}

QJsonArray StandIn::messages() const
{
    return control(u"GET"_s, u"/control/messages"_s).json().toArray();
}

} // namespace Mesh
