// The real claude-peers-mcp binary as a client sees it: handshake, framing, bad input,
// lifecycle (EOF, parent death, SIGTERM), broker start, linked libraries.
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

using namespace TestSupport;

class tst_McpProcess : public QObject
{
    Q_OBJECT

    static QStringList peerIds(const TestHome &home)
    {
        const HttpResult r = httpPostJson(home.port(), QStringLiteral("/list-peers"),
                                          QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")},
                                                       {QStringLiteral("cwd"), QStringLiteral("/")}},
                                          home.token());
        QStringList ids;
        for (const QJsonValue &p : r.json().toArray())
            ids << p.toObject().value(QLatin1String("id")).toString();
        return ids;
    }

    // Exited: no such process, or a zombie whose new parent has not reaped it yet.
    static bool processGone(qint64 pid)
    {
        if (::kill(pid_t(pid), 0) != 0)
            return true;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            return true;
        const QByteArray line = stat.readAll();
        return line.mid(line.lastIndexOf(')') + 2, 1) == "Z";
    }

    static int errorCode(const QJsonObject &response)
    {
        return response.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!mcpExe().isEmpty() && QFileInfo::exists(mcpExe()), "claude-peers-mcp not built");
        QVERIFY2(!brokerExe().isEmpty() && QFileInfo::exists(brokerExe()), "claude-peers-broker not built");
    }

    void answersInitializeWithoutABroker()
    {
        TestHome home;
        QProcessEnvironment env = helperEnvironment(home, false);
        env.insert(QStringLiteral("CLAUDE_PEERS_TOOL_WAIT_MS"), QStringLiteral("300"));
        McpClient c(env);
        QVERIFY(c.start());
        const QJsonObject init =
            c.call(QStringLiteral("initialize"),
                   QJsonObject {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")}});
        const QJsonObject result = init.value(QLatin1String("result")).toObject();
        QCOMPARE(init.value(QLatin1String("id")), QJsonValue(1));
        QCOMPARE(result.value(QLatin1String("protocolVersion")).toString(), QStringLiteral("2025-06-18"));
        QCOMPARE(result.value(QLatin1String("serverInfo")).toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("claude-peers"));
        c.sendInitialized();

        const QJsonArray tools = c.call(QStringLiteral("tools/list"))
                                     .value(QLatin1String("result"))
                                     .toObject()
                                     .value(QLatin1String("tools"))
                                     .toArray();
        QStringList names;
        for (const QJsonValue &t : tools) {
            names << t.toObject().value(QLatin1String("name")).toString();
            QCOMPARE(t.toObject()
                         .value(QLatin1String("inputSchema"))
                         .toObject()
                         .value(QLatin1String("type"))
                         .toString(),
                     QStringLiteral("object"));
            QVERIFY(!t.toObject().value(QLatin1String("description")).toString().isEmpty());
        }
        QCOMPARE(names,
                 (QStringList {QStringLiteral("list_peers"), QStringLiteral("send_message"),
                               QStringLiteral("set_summary"), QStringLiteral("set_name"),
                               QStringLiteral("check_messages"), QStringLiteral("broadcast_message"),
                               QStringLiteral("message_status"), QStringLiteral("channel_health"),
                               QStringLiteral("whoami"), QStringLiteral("openchamber")}));

        // A tool that needs the broker waits a bounded time, then says so plainly.
        const QJsonObject send = c.callTool(QStringLiteral("send_message"),
                                            QJsonObject {{QStringLiteral("to_id"), QStringLiteral("x")},
                                                         {QStringLiteral("message"), QStringLiteral("y")}});
        QVERIFY(McpClient::isError(send));
        QVERIFY2(McpClient::text(send).startsWith(
                     QLatin1String("Not registered with broker yet. Try /mcp reconnect, or check "
                                   "if broker is running: claude-peers status")),
                 qPrintable(McpClient::text(send)));
        QVERIFY2(McpClient::text(send).contains(QLatin1String("CLAUDE_PEERS_BROKER_EXE=")),
                 qPrintable(McpClient::text(send)));
        // whoami and channel_health work regardless.
        const QJsonObject who = c.callTool(QStringLiteral("whoami"));
        QVERIFY(!McpClient::isError(who));
        QVERIFY(McpClient::text(who).startsWith(QLatin1String("ID: (not registered yet")));
        const QJsonObject health = c.callTool(QStringLiteral("channel_health"));
        QVERIFY(!McpClient::isError(health));
        QVERIFY(McpClient::text(health).contains(QLatin1String("Broker: unreachable")));
        QVERIFY(c.nonJsonLines().isEmpty());
    }

    void toolCallWaitsForALateBroker()
    {
        TestHome home;
        QProcessEnvironment env = helperEnvironment(home, false);
        McpClient c(env);
        c.setClientInfo(QStringLiteral("claude-code")); // the reference's texts
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        const int id =
            c.request(QStringLiteral("tools/call"),
                      QJsonObject {{QStringLiteral("name"), QStringLiteral("list_peers")},
                                   {QStringLiteral("arguments"),
                                    QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")}}}});
        QTest::qWait(300);
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const auto answer = c.waitResponse(id, scaled(15000));
        QVERIFY(answer);
        const QJsonObject result = answer->value(QLatin1String("result")).toObject();
        QVERIFY2(!McpClient::isError(result), qPrintable(McpClient::text(result)));
        QCOMPARE(McpClient::text(result),
                 QStringLiteral("No other Claude Code instances found (scope: machine)."));
    }

    void stdoutHoldsOnlyJsonLines()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        QProcessEnvironment env = helperEnvironment(home, false, QStringLiteral("pts/91"));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("*.debug=true"));
        McpClient c(env);
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        const QJsonObject who = c.callTool(QStringLiteral("whoami"));
        QVERIFY(McpClient::text(who).contains(QLatin1String("pts/91")));
        QTRY_VERIFY_WITH_TIMEOUT(
            McpClient::text(c.callTool(QStringLiteral("whoami"))).startsWith(QLatin1String("ID: ")) &&
                !McpClient::text(c.callTool(QStringLiteral("whoami")))
                     .contains(QLatin1String("not registered")),
            scaled(10000));
        const QString self =
            McpClient::text(c.callTool(QStringLiteral("whoami"))).section(QLatin1Char('\n'), 0, 0).mid(4);
        QVERIFY(!McpClient::isError(
            c.callTool(QStringLiteral("send_message"),
                       QJsonObject {{QStringLiteral("to_id"), self},
                                    {QStringLiteral("message"), QStringLiteral("to myself\nsecond line")}})));
        QVERIFY(c.waitForChannelMessages(1, 10000));
        c.sendRaw("not json at all");
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"nope\"}");
        QVERIFY(c.waitResponse(77, scaled(5000)));
        c.closeStdin();
        QVERIFY(c.waitForExit(5000));
        QCOMPARE(c.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(c.process().exitCode(), 0);
        QVERIFY2(c.nonJsonLines().isEmpty(), c.nonJsonLines().value(0).constData());
        // Every line was an object with jsonrpc 2.0; the logs went to stderr.
        for (const QJsonObject &o : c.allLines())
            QCOMPARE(o.value(QLatin1String("jsonrpc")).toString(), QStringLiteral("2.0"));
        const QByteArray err = c.stderrOutput();
        QVERIFY(err.contains("peers.mcp.session"));
        QVERIFY(err.contains("peers.mcp.rpc"));
        // Message bodies are logged at debug level at most: never the text itself above it.
        for (const QByteArray &line : err.split('\n')) {
            if (!line.contains(" debug "))
                QVERIFY2(!line.contains("to myself"), line.constData());
        }
    }

    void malformedInputIsAnsweredAndTheHelperKeepsRunning()
    {
        TestHome home;
        McpClient c(helperEnvironment(home, false));
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":1,"); // truncated
        c.sendRaw("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]"); // batch in 2025-11-25
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"ping\"}"); // string id
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ping\"}"); // id 0
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\"}");
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/list\"}");
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}");
        c.sendRaw(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":42}}");
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":[]}");
        c.sendRaw(QByteArray(20 * 1024 * 1024, 'x')); // 20 MB line
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
        QVERIFY(c.waitResponse(8, scaled(20000)));
        const QList<QJsonObject> lines = c.allLines();
        auto byId = [&](const QJsonValue &id) {
            for (const QJsonObject &o : lines) {
                if (o.value(QLatin1String("id")) == id && !o.contains(QLatin1String("method")))
                    return o;
            }
            return QJsonObject();
        };
        QList<QJsonObject> nullIdErrors;
        for (const QJsonObject &o : lines) {
            if (o.value(QLatin1String("id")).isNull())
                nullIdErrors << o;
        }
        QCOMPARE(nullIdErrors.size(), 3);
        QCOMPARE(errorCode(nullIdErrors.at(0)), -32700);
        QCOMPARE(errorCode(nullIdErrors.at(1)), -32600);
        QCOMPARE(errorCode(nullIdErrors.at(2)), -32600);
        QVERIFY(nullIdErrors.at(2)
                    .value(QLatin1String("error"))
                    .toObject()
                    .value(QLatin1String("message"))
                    .toString()
                    .startsWith(QLatin1String("Line too long (limit 16777216 bytes)")));
        QVERIFY(byId(QJsonValue(QStringLiteral("s-1"))).contains(QLatin1String("result")));
        QVERIFY(byId(QJsonValue(0)).contains(QLatin1String("result")));
        QCOMPARE(errorCode(byId(QJsonValue(QStringLiteral("d")))), -32601);
        QCOMPARE(errorCode(byId(QJsonValue(5))), -32601);
        QCOMPARE(errorCode(byId(QJsonValue(6))), -32602);
        QCOMPARE(errorCode(byId(QJsonValue(7))), -32602);
        QVERIFY(byId(QJsonValue(8)).contains(QLatin1String("result")));
        QCOMPARE(c.process().state(), QProcess::Running);
        QVERIFY(c.nonJsonLines().isEmpty());
    }

    void exitsOnStdinEofAndUnregisters()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        McpClient c(helperEnvironment(home, false, QStringLiteral("pts/44")));
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        QTRY_VERIFY_WITH_TIMEOUT(peerIds(home).contains(QStringLiteral("d92a5e28")), scaled(10000));
        QElapsedTimer t;
        t.start();
        c.closeStdin();
        QVERIFY(c.waitForExit(5000));
        QVERIFY2(t.elapsed() < scaled(3000), qPrintable(QString::number(t.elapsed())));
        QCOMPARE(c.process().exitCode(), 0);
        QVERIFY(!peerIds(home).contains(QStringLiteral("d92a5e28")));
    }

    void exitsOnSigterm()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        McpClient c(helperEnvironment(home, false, QStringLiteral("pts/45")));
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        QTRY_VERIFY_WITH_TIMEOUT(peerIds(home).size() == 1, scaled(10000));
        ::kill(pid_t(c.pid()), SIGTERM);
        QVERIFY(c.waitForExit(5000));
        QCOMPARE(c.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(c.process().exitCode(), 0);
        QVERIFY(peerIds(home).isEmpty());
    }

    void exitsWhenItsParentDies()
    {
        // sh starts the helper with a FIFO as its stdin and is then killed. We hold the FIFO
        // open for writing, so the helper never sees EOF: only the parent watch can end it.
        TestHome home;
        const QString fifo = home.path() + QStringLiteral("/stdin.fifo");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const int writer = ::open(QFile::encodeName(fifo).constData(), O_RDWR | O_CLOEXEC);
        QVERIFY(writer >= 0);
        const QString out = home.path() + QStringLiteral("/stdout.txt");
        const QString err = home.path() + QStringLiteral("/stderr.txt");
        QProcess sh;
        sh.setProcessEnvironment(helperEnvironment(home, false));
        sh.start(QStringLiteral("/bin/sh"),
                 {QStringLiteral("-c"), QStringLiteral("\"$0\" <\"$1\" >\"$2\" 2>\"$3\" & echo $!; wait"),
                  mcpExe(), fifo, out, err});
        QVERIFY(sh.waitForStarted());
        const QByteArray ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
        QCOMPARE(::write(writer, ping.constData(), size_t(ping.size())), ssize_t(ping.size()));
        QByteArray pidText;
        QTRY_VERIFY_WITH_TIMEOUT((pidText += sh.readAllStandardOutput(), pidText.contains('\n')),
                                 scaled(10000));
        const qint64 helper = pidText.trimmed().toLongLong();
        QVERIFY(helper > 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QFile f(out);
                return f.open(QIODevice::ReadOnly) && f.readAll().contains("\"id\":1");
            }(),
            scaled(10000));
        sh.kill();
        sh.waitForFinished();
        // It notices (pidfd at once, else within the poll interval) and exits for that reason.
        QTRY_VERIFY_WITH_TIMEOUT(processGone(helper), scaled(10000));
        QFile log(err);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray text = log.readAll();
        QVERIFY2(text.contains("shutting down: parent process died"), text.constData());
        ::close(writer);
        if (::kill(pid_t(helper), 0) == 0)
            ::kill(pid_t(helper), SIGKILL); // at most a zombie is left at this point
    }

    void registersWithTheTtyDerivedId_data()
    {
        QTest::addColumn<QString>("tty");
        QTest::addColumn<QString>("id");
        QTest::newRow("pts/44") << QStringLiteral("pts/44") << QStringLiteral("d92a5e28");
        QTest::newRow("pts/0") << QStringLiteral("pts/0") << QStringLiteral("478e3862");
        QTest::newRow("ttys001") << QStringLiteral("ttys001") << QStringLiteral("380ea400");
    }
    void registersWithTheTtyDerivedId()
    {
        QFETCH(QString, tty);
        QFETCH(QString, id);
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        McpClient c(helperEnvironment(home, false, tty));
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        QTRY_VERIFY_WITH_TIMEOUT(
            McpClient::text(c.callTool(QStringLiteral("whoami"))).startsWith(QStringLiteral("ID: ") + id),
            scaled(10000));
    }

    void startsADetachedBrokerWhenNoneAnswers()
    {
        TestHome home;
        HelperBrokerGuard guard {home};
        qint64 brokerPid = 0;
        {
            McpClient c(helperEnvironment(home, true, QStringLiteral("pts/46")));
            QVERIFY(c.start());
            QVERIFY(c.initialize());
            QTRY_VERIFY_WITH_TIMEOUT(!McpClient::text(c.callTool(QStringLiteral("whoami")))
                                          .contains(QLatin1String("not registered")),
                                     scaled(20000));
            brokerPid = brokerPidFromFile(home);
            QVERIFY(brokerPid > 0);
            // Its own session: neither our signals nor the helper's terminal reach it.
            qInfo() << "broker pid" << brokerPid << "sid" << ::getsid(pid_t(brokerPid)) << "helper sid"
                    << ::getsid(pid_t(c.pid())) << "our sid" << ::getsid(0);
            QVERIFY(::getsid(pid_t(brokerPid)) != ::getsid(pid_t(c.pid())));
            QVERIFY(::getsid(pid_t(brokerPid)) != ::getsid(0));
            c.closeStdin();
            QVERIFY(c.waitForExit(5000));
        }
        // It outlives the helper.
        QCOMPARE(httpGet(home.port(), QStringLiteral("/health")).status, 200);
        ::kill(pid_t(brokerPid), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(home.port(), QStringLiteral("/health"), 300).status == 0,
                                 scaled(10000));
    }

    void linksOnlyQtCore()
    {
        // docs/architecture.md: the helper links Qt Core and Network at most (no Sql, HttpServer, Widgets,
        // Gui); it needs only Core, so Network would be a regression in start-up cost.
        const RunResult r = run(QStringLiteral("readelf"), {QStringLiteral("-d"), mcpExe()},
                                QProcessEnvironment::systemEnvironment());
        QCOMPARE(r.exitCode, 0);
        static const QRegularExpression needed(
            QStringLiteral("\\(NEEDED\\)\\s+Shared library: \\[([^\\]]+)\\]"));
        QStringList libs;
        for (auto it = needed.globalMatch(QString::fromUtf8(r.out)); it.hasNext();)
            libs << it.next().captured(1);
        QVERIFY(!libs.isEmpty());
        // The sanitizer runtimes are there in the make test-asan build only.
        static const QRegularExpression allowed(
            QStringLiteral("^(libQt6Core|libstdc\\+\\+|libgcc_s|libc|libm|ld-linux[^.]*|"
                           "libasan|libubsan)\\.so[.0-9]*$"));
        for (const QString &lib : std::as_const(libs))
            QVERIFY2(allowed.match(lib).hasMatch(),
                     qPrintable(QStringLiteral("unexpected NEEDED entry: ") + lib));
        QVERIFY(libs.contains(QStringLiteral("libQt6Core.so.6")));
        // Spelled out although the list above already excludes it: the helper never links the
        // keychain (only the broker hosts do).
        for (const QString &lib : std::as_const(libs))
            QVERIFY2(!lib.contains(QLatin1String("keychain")) && !lib.contains(QLatin1String("DBus")),
                     qPrintable(lib));
        qInfo() << "NEEDED:" << libs;
    }
};

QTEST_GUILESS_MAIN(tst_McpProcess)
#include "tst_mcpprocess.moc"
