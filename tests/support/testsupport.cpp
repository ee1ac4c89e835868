#include "tests/support/testsupport.h"

#include <QDir>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTcpServer>
#include <QThread>
#include <QTimer>

namespace TestSupport {

int timeoutFactor()
{
    bool ok = false;
    const int f = qEnvironmentVariableIntValue("PEERS_TEST_TIMEOUT_FACTOR", &ok);
    return ok && f > 0 ? f : 1;
}

quint16 freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

QString brokerExe()
{
    return QStringLiteral(PEERS_BROKER_EXE);
}
QString cliExe()
{
    return QStringLiteral(PEERS_CLI_EXE);
}
QString mcpExe()
{
    return QStringLiteral(PEERS_MCP_EXE);
}
QString trayExe()
{
    return QStringLiteral(PEERS_TRAY_EXE);
}

TestHome::TestHome() : m_port(freePort())
{
    // The runtime dir of the processes started here (hand-over sockets, the tray's single
    // instance): private to the home, owner-only as XDG asks.
    QDir(path()).mkpath(QStringLiteral("run"));
    QFile::setPermissions(runtimeDir(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

QString TestHome::runtimeDir() const
{
    return path() + QStringLiteral("/run");
}

QString TestHome::tokenPath() const
{
    return path() + QStringLiteral("/.claude-peers-token");
}
QString TestHome::databasePath() const
{
    return path() + QStringLiteral("/.claude-peers.db");
}
QString TestHome::configPath() const
{
    return path() + QStringLiteral("/.claude-peers-config.json");
}

QProcessEnvironment TestHome::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), path());
    env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(m_port));
    env.insert(QStringLiteral("CLAUDE_PEERS_DB"), databasePath());
    env.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), tokenPath());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir());
    env.remove(QStringLiteral("CLAUDE_PEERS_FEDERATION_ENABLED"));
    return env;
}

QByteArray TestHome::token() const
{
    QFile f(tokenPath());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().trimmed();
}

BrokerProcess::BrokerProcess(const TestHome &home, QProcessEnvironment extraEnv)
    : m_home(home), m_extraEnv(std::move(extraEnv))
{
}

BrokerProcess::~BrokerProcess()
{
    kill();
}

bool BrokerProcess::start(int timeoutMs)
{
    QProcessEnvironment env = m_home.environment();
    for (const QString &key : m_extraEnv.keys())
        env.insert(key, m_extraEnv.value(key));
    m_process.setProcessEnvironment(env);
    m_process.setProgram(brokerExe());
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    m_process.start();
    if (!m_process.waitForStarted(scaled(5000)))
        return false;
    QDeadlineTimer deadline(scaled(timeoutMs));
    while (!deadline.hasExpired()) {
        if (m_process.state() != QProcess::Running)
            return false;
        if (httpGet(m_home.port(), QStringLiteral("/health"), 500).status == 200)
            return true;
        QThread::msleep(20);
        QCoreApplication::processEvents();
    }
    return false;
}

void BrokerProcess::kill()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.kill();
    m_process.waitForFinished(scaled(5000));
}

void BrokerProcess::terminate()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(scaled(5000)))
        kill();
}

qint64 BrokerProcess::pid() const
{
    return m_process.processId();
}

QByteArray BrokerProcess::stderrOutput()
{
    m_stderr += m_process.readAllStandardError();
    return m_stderr;
}

QJsonValue HttpResult::json() const
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        return QJsonValue(QJsonValue::Undefined);
    if (doc.isArray())
        return doc.array();
    return doc.object();
}

namespace {

HttpResult send(quint16 port, const QString &path, const QByteArray *body, const QByteArray &bearer,
                int timeoutMs)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(path)));
    request.setTransferTimeout(timeoutMs);
    if (!bearer.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + bearer);
    QNetworkReply *reply = nullptr;
    if (body) {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        reply = nam.post(request, *body);
    } else {
        reply = nam.get(request);
    }
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs + 1000, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    HttpResult result;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    reply->deleteLater();
    return result;
}

} // namespace

HttpResult httpGet(quint16 port, const QString &path, int timeoutMs)
{
    return send(port, path, nullptr, {}, timeoutMs);
}

HttpResult httpPost(quint16 port, const QString &path, const QByteArray &body, const QByteArray &bearer,
                    int timeoutMs)
{
    return send(port, path, &body, bearer, timeoutMs);
}

HttpResult httpPostJson(quint16 port, const QString &path, const QJsonObject &body, const QByteArray &bearer,
                        int timeoutMs)
{
    return httpPost(port, path, QJsonDocument(body).toJson(QJsonDocument::Compact), bearer, timeoutMs);
}

RunResult run(const QString &program, const QStringList &args, const QProcessEnvironment &env, int timeoutMs,
              const QByteArray &stdinData)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    RunResult r;
    if (!p.waitForStarted(scaled(5000)))
        return r;
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(scaled(timeoutMs))) {
        r.timedOut = true;
        p.kill();
        p.waitForFinished(2000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace TestSupport
