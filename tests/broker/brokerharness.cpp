#include "tests/broker/brokerharness.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

BrokerHarness::BrokerHarness(const std::function<void(Broker::Settings &)> &tweak, bool manualClock)
{
    m_settings.location = Broker::Location::fromEnvironment(m_home.environment());
    m_settings.location.port = 0; // the OS picks: no race with other tests
    if (tweak)
        tweak(m_settings);
    m_server = std::make_unique<Broker::BrokerServer>(m_settings);
    if (manualClock) {
        m_clock = std::make_shared<Broker::ManualClock>();
        m_server->setClock(m_clock);
    }
}

BrokerHarness::~BrokerHarness()
{
    m_server.reset();
    for (auto &session : m_sessions) {
        session->kill();
        session->waitForFinished(5000);
    }
}

bool BrokerHarness::start()
{
    auto started = m_server->start();
    if (!started) {
        qWarning() << "start failed:" << started.error().code() << started.error().message;
        return false;
    }
    m_port = m_server->port();
    m_token = m_home.token();
    return m_port != 0 && !m_token.isEmpty();
}

TestSupport::HttpResult BrokerHarness::get(const QString &path)
{
    return TestSupport::httpGet(m_port, path, TestSupport::scaled(5000));
}

TestSupport::HttpResult BrokerHarness::post(const QString &path, const QJsonObject &body)
{
    return post(path, body, m_token);
}

TestSupport::HttpResult BrokerHarness::post(const QString &path, const QJsonObject &body,
                                            const QByteArray &bearer)
{
    return TestSupport::httpPostJson(m_port, path, body, bearer, TestSupport::scaled(5000));
}

TestSupport::HttpResult BrokerHarness::postRaw(const QString &path, const QByteArray &body,
                                               const QByteArray &bearer)
{
    return TestSupport::httpPost(m_port, path, body, bearer, TestSupport::scaled(5000));
}

qint64 BrokerHarness::spawnSession()
{
    auto process = std::make_unique<QProcess>();
    process->start(QStringLiteral("sleep"), {QStringLiteral("600")});
    if (!process->waitForStarted(TestSupport::scaled(5000)))
        return 0;
    const qint64 pid = process->processId();
    m_sessions.push_back(std::move(process));
    return pid;
}

void BrokerHarness::endSession(qint64 pid)
{
    for (auto &session : m_sessions) {
        if (session->processId() == pid) {
            session->kill();
            session->waitForFinished(TestSupport::scaled(5000));
        }
    }
}

qint64 BrokerHarness::deadPid(int n)
{
    QFile f(QStringLiteral("/proc/sys/kernel/pid_max"));
    qint64 max = 4194304;
    if (f.open(QIODevice::ReadOnly))
        max = f.readAll().trimmed().toLongLong();
    return max + 1 + n;
}

RegisteredPeer BrokerHarness::registerPeer(const QString &cwd, const QString &tty, const QString &gitRoot,
                                           const QString &name, qint64 pid)
{
    RegisteredPeer peer;
    peer.pid = pid ? pid : spawnSession();
    QJsonObject body {{QStringLiteral("pid"), peer.pid},
                      {QStringLiteral("cwd"), cwd},
                      {QStringLiteral("git_root"), gitRoot.isEmpty() ? QJsonValue() : QJsonValue(gitRoot)},
                      {QStringLiteral("tty"), tty.isEmpty() ? QJsonValue() : QJsonValue(tty)}};
    if (!name.isEmpty())
        body.insert(QStringLiteral("session_name"), name);
    const auto r = post(QStringLiteral("/register"), body);
    if (r.status != 200)
        qWarning() << "register failed" << r.status << r.body;
    peer.answer = r.object();
    peer.id = peer.answer.value(QStringLiteral("id")).toString();
    peer.secret = peer.answer.value(QStringLiteral("session_secret")).toString().toLatin1();
    return peer;
}

qint64 BrokerHarness::send(const QString &from, const QString &to, const QString &text,
                           const QJsonObject &extra)
{
    QJsonObject body = extra;
    body.insert(QStringLiteral("from_id"), from);
    body.insert(QStringLiteral("to_id"), to);
    body.insert(QStringLiteral("text"), text);
    const auto r = post(QStringLiteral("/send-message"), body);
    if (r.status != 200 || !r.object().value(QStringLiteral("ok")).toBool())
        qWarning() << "send failed" << r.status << r.body;
    return r.object().value(QStringLiteral("message_id")).toInteger(-1);
}

QJsonArray BrokerHarness::poll(const QString &id)
{
    return post(QStringLiteral("/poll-messages"), {{QStringLiteral("id"), id}})
        .object()
        .value(QStringLiteral("messages"))
        .toArray();
}

QJsonArray BrokerHarness::listPeers(const QString &scope, const QJsonObject &extra)
{
    QJsonObject body = extra;
    body.insert(QStringLiteral("scope"), scope);
    if (!body.contains(QStringLiteral("cwd")))
        body.insert(QStringLiteral("cwd"), QStringLiteral("/"));
    return post(QStringLiteral("/list-peers"), body).json().toArray();
}

bool BrokerHarness::hasPeer(const QString &id)
{
    const QJsonArray peers = listPeers();
    for (const QJsonValue &p : peers) {
        if (p.toObject().value(QStringLiteral("id")).toString() == id)
            return true;
    }
    return false;
}

QNetworkReply *BrokerHarness::postAsync(const QString &path, const QJsonObject &body,
                                        const QByteArray &bearer)
{
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Authorization", "Bearer " + (bearer.isEmpty() ? m_token : bearer));
    request.setTransferTimeout(TestSupport::scaled(90000));
    QNetworkReply *reply = m_nam.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    reply->setParent(&m_nam);
    return reply;
}

QJsonObject BrokerHarness::replyObject(QNetworkReply *reply)
{
    return QJsonDocument::fromJson(reply->readAll()).object();
}

int BrokerHarness::replyStatus(QNetworkReply *reply)
{
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

QByteArray BrokerHarness::rawExchange(const QByteArray &request, int timeoutMs)
{
    QTcpSocket socket;
    QByteArray received;
    QEventLoop loop;
    QObject::connect(&socket, &QTcpSocket::connected, &socket, [&] { socket.write(request); });
    QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [&] { received += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    QObject::connect(&socket, &QTcpSocket::errorOccurred, &loop, &QEventLoop::quit);
    QTimer::singleShot(TestSupport::scaled(timeoutMs), &loop, &QEventLoop::quit);
    socket.connectToHost(QHostAddress::LocalHost, m_port);
    loop.exec();
    received += socket.readAll();
    return received;
}
