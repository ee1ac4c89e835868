// BrokerControl's fallbacks, which a well-behaved broker never triggers: a broker that refuses
// /shutdown or /reload is signalled only when its pid file and its /health name the same live
// process. The "broker" here is a tiny fake HTTP server plus a child process standing in for it.
#include "app/cli/command.h"
#include "app/cli/context.h"
#include "common/liveness.h"

#include "tests/support/testsupport.h"

#include <QBuffer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace Qt::StringLiterals;

namespace {

// Answers each request with handler(path); closes the listening socket on demand.
class FakeBroker : public QObject
{
public:
    std::function<QByteArray(const QByteArray &path)> handler;
    QList<QByteArray> paths;
    QHash<QByteArray, QByteArray> authorization; // last Authorization header per path

    FakeBroker()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] {
                    *buffer += s->readAll();
                    const qsizetype end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    const QByteArray head = buffer->left(end);
                    qsizetype length = 0;
                    QByteArray auth;
                    for (const QByteArray &line : head.split('\n')) {
                        if (line.toLower().startsWith("content-length:"))
                            length = line.mid(15).trimmed().toLongLong();
                        else if (line.toLower().startsWith("authorization:"))
                            auth = line.mid(14).trimmed();
                    }
                    if (buffer->size() < end + 4 + length)
                        return;
                    const QByteArray path = head.split(' ').value(1);
                    buffer->remove(0, end + 4 + length);
                    paths.append(path);
                    authorization.insert(path, auth);
                    const QByteArray body = handler(path);
                    if (body.isEmpty()) {
                        s->abort();
                        return;
                    }
                    const bool notFound = body == "404";
                    const QByteArray payload = notFound ? QByteArray(R"({"error":"not found"})") : body;
                    s->write((notFound ? "HTTP/1.1 404 Not Found" : "HTTP/1.1 200 OK") +
                             QByteArray("\r\nContent-Type: application/json\r\nContent-Length: ") +
                             QByteArray::number(payload.size()) + "\r\n\r\n" + payload);
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    QTcpServer m_server;
};

struct Run
{
    int code = -1;
    QString out;
    QString err;
};

} // namespace

class tst_BrokerControl : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    FakeBroker *m_fake = nullptr;
    QProcess *m_standIn = nullptr; // the process playing the broker

    QString pidPath() const { return m_home.filePath(u"db.pid"_s); }

    void writePidFile(qint64 pid)
    {
        QFile f(pidPath());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray::number(pid) + '\n');
    }

    void startStandIn(const QString &script)
    {
        m_standIn = new QProcess(this);
        m_standIn->start(u"/bin/sh"_s, {u"-c"_s, script});
        QVERIFY(m_standIn->waitForStarted(TestSupport::scaled(5000)));
    }

    QByteArray health(qint64 pid) const
    {
        return QJsonDocument(QJsonObject {{u"status"_s, u"ok"_s}, {u"peers"_s, 3}, {u"pid"_s, pid}})
            .toJson(QJsonDocument::Compact);
    }

    Run run(const QStringList &args)
    {
        QProcessEnvironment env;
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(m_fake->port()));
        env.insert(u"CLAUDE_PEERS_DB"_s, m_home.filePath(u"db"_s));
        env.insert(u"CLAUDE_PEERS_TOKEN"_s, m_home.filePath(u"token"_s));
        QBuffer out;
        QBuffer err;
        out.open(QIODevice::WriteOnly);
        err.open(QIODevice::WriteOnly);
        Cli::Context context(env, &out, &err, m_home.path());
        QSignalSpy finished(&context, &Cli::Context::finished);
        Cli::dispatch(context, args);
        Run r;
        if (finished.isEmpty() && !finished.wait(TestSupport::scaled(15000)))
            return r;
        r.code = finished.first().first().toInt();
        r.out = QString::fromUtf8(out.data());
        r.err = QString::fromUtf8(err.data());
        return r;
    }

private Q_SLOTS:
    void init()
    {
        QFile::remove(pidPath());
        QFile token(m_home.filePath(u"token"_s));
        QVERIFY(token.open(QIODevice::WriteOnly | QIODevice::Truncate));
        token.write("t\n");
        m_fake = new FakeBroker;
    }

    void cleanup()
    {
        if (m_standIn) {
            m_standIn->kill();
            m_standIn->waitForFinished(TestSupport::scaled(5000));
            delete m_standIn;
            m_standIn = nullptr;
        }
        delete m_fake;
        m_fake = nullptr;
    }

    void refusedShutdownFallsBackToSigtermOfTheVerifiedPid()
    {
        startStandIn(u"while :; do sleep 0.05; done"_s);
        const qint64 pid = m_standIn->processId();
        writePidFile(pid);
        m_fake->handler = [this, pid](const QByteArray &path) -> QByteArray {
            if (path == "/shutdown")
                return "404"; // an old broker without /shutdown
            // The "broker" stops answering once its process is gone.
            if (!Broker::Liveness::isProcessAlive(pid)) {
                QFile::remove(pidPath());
                return {};
            }
            return health(pid);
        };
        const Run r = run({u"kill-broker"_s});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(u"Broker has 3 peer(s). Shutting down..."_s));
        QVERIFY(r.out.contains(u"sent SIGTERM to pid %1"_s.arg(pid)));
        QVERIFY(r.out.endsWith(u"Broker stopped.\n"_s));
        QVERIFY(m_fake->paths.contains("/shutdown"));
        QTRY_COMPARE(m_standIn->state(), QProcess::NotRunning);
        QCOMPARE(m_standIn->exitStatus(), QProcess::CrashExit); // killed by the signal
    }

    void mismatchedPidIsNeverSignalled()
    {
        startStandIn(u"while :; do sleep 0.05; done"_s);
        const qint64 pid = m_standIn->processId();
        writePidFile(pid);
        m_fake->handler = [this, pid](const QByteArray &path) -> QByteArray {
            return path == "/shutdown" ? QByteArray("404") : health(pid + 100000);
        };
        const Run r = run({u"kill-broker"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"cannot be signalled"_s), qPrintable(r.err));
        QVERIFY(r.err.contains(u"reports pid %1"_s.arg(pid + 100000)));
        QVERIFY(Broker::Liveness::isProcessAlive(pid));
    }

    void missingPidFileIsNeverSignalled()
    {
        startStandIn(u"while :; do sleep 0.05; done"_s);
        const qint64 pid = m_standIn->processId();
        m_fake->handler = [this, pid](const QByteArray &path) -> QByteArray {
            return path == "/shutdown" ? QByteArray("404") : health(pid);
        };
        const Run r = run({u"kill-broker"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"no pid file"_s));
        QVERIFY(Broker::Liveness::isProcessAlive(pid));
    }

    void brokerThatDoesNotExitTimesOut()
    {
        startStandIn(u"while :; do sleep 0.05; done"_s);
        const qint64 pid = m_standIn->processId();
        writePidFile(pid);
        // Accepts /shutdown but keeps running and answering.
        m_fake->handler = [this, pid](const QByteArray &path) -> QByteArray {
            return path == "/shutdown" ? QByteArray(R"({"ok":true})") : health(pid);
        };
        QElapsedTimer t;
        t.start();
        const Run r = run({u"kill-broker"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.contains(u"Waiting for the broker (pid %1) to exit..."_s.arg(pid)));
        QVERIFY(r.err.contains(u"did not stop within 5 s"_s));
        QVERIFY(t.elapsed() >= 4500);
    }

    void refusedReloadFallsBackToSighup()
    {
        const QString marker = m_home.filePath(u"hup"_s);
        const QString ready = m_home.filePath(u"trap-installed"_s);
        // SIGHUP before the shell has installed its trap would kill it: wait for the trap.
        startStandIn(
            u"trap 'echo hup > \"%1\"' HUP; : > \"%2\"; while :; do sleep 0.05; done"_s.arg(marker, ready));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(ready), TestSupport::scaled(5000));
        const qint64 pid = m_standIn->processId();
        writePidFile(pid);
        m_fake->handler = [this, pid](const QByteArray &path) -> QByteArray {
            return path == "/reload" ? QByteArray("404") : health(pid);
        };
        const Run r = run({u"reload-broker"_s});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(r.out, u"Broker hot-reloaded (SIGHUP sent). 3 peer(s) stay connected.\n"_s);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), TestSupport::scaled(5000));
        QVERIFY(Broker::Liveness::isProcessAlive(pid));
    }

    void refusedReloadWithoutPidFails()
    {
        m_fake->handler = [this](const QByteArray &path) -> QByteArray {
            return path == "/reload" ? QByteArray("404") : health(0);
        };
        const Run r = run({u"reload-broker"_s});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.out, u"Broker PID not found.\n"_s);
    }

    // A broker without POST /rotate-token (0.7): the CLI writes the file and asks for /reload.
    void rotateTokenAuthenticatesReloadWithTheOldToken()
    {
        m_fake->handler = [this](const QByteArray &path) -> QByteArray {
            if (path == "/rotate-token")
                return "404";
            return path == "/reload" ? QByteArray(R"({"ok":true,"peers":3})") : health(0);
        };
        const Run r = run({u"rotate-token"_s});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(u"The broker picked it up"_s));
        QFile token(m_home.filePath(u"token"_s));
        QVERIFY(token.open(QIODevice::ReadOnly));
        const QByteArray fresh = token.readAll().trimmed();
        QCOMPARE(fresh.size(), 64);
        // The broker only knows the old token until it has re-read the file.
        QCOMPARE(m_fake->authorization.value("/reload"), QByteArray("Bearer t"));
    }

    void rotateTokenAsksTheBrokerWhereItHasTheEndpoint()
    {
        m_fake->handler = [this](const QByteArray &path) -> QByteArray {
            if (path == "/rotate-token")
                return R"({"ok":true,"local_token":{"store":"keychain","where":"Secret Service","token_file":"/x/t"}})";
            return path == "/reload" ? QByteArray("404") : health(0);
        };
        const Run r = run({u"rotate-token"_s});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(r.out,
                 u"Token rotated in the OS keychain (Secret Service). New token written to /x/t. The broker "
                 u"picked it up; sessions switch to it on their next request.\n"_s);
        QCOMPARE(m_fake->authorization.value("/rotate-token"), QByteArray("Bearer t"));
        QVERIFY(!m_fake->authorization.contains("/reload"));
        QFile token(m_home.filePath(u"token"_s));
        QVERIFY(token.open(QIODevice::ReadOnly));
        QCOMPARE(token.readAll().trimmed(), QByteArray("t")); // the broker writes it, not the CLI
    }
};

QTEST_GUILESS_MAIN(tst_BrokerControl)
#include "tst_brokercontrol.moc"
