// The helper's composition root in-process, its stdin and stdout on pipes: the tool list the
// model sees is the one of 0.7-compatible helpers byte for byte, and another module's tools
// (samplemodule.h) join through McpServer::tools() and answer at once, later, cancelled by
// the client, or too late because the helper is shutting down. No broker runs: the sample
// tools need none, and the built-in tools are covered by the process tests.
#include "mcp_stdio/mcpserver.h"
#include "mcp_stdio/toolregistry.h"
#include "tests/mcp_stdio/samplemodule.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace Mcp;

namespace {

// McpServer on two pipes; the test writes its stdin and reads its stdout line by line.
class PipedServer
{
public:
    PipedServer()
    {
        if (::pipe2(m_in, O_CLOEXEC) != 0 || ::pipe2(m_out, O_CLOEXEC | O_NONBLOCK) != 0)
            qFatal("pipe2 failed");
        McpServer::Options options;
        options.startupHello = false;
        options.stdinFd = m_in[0];
        options.stdoutFd = m_out[1];
        server = std::make_unique<McpServer>(options);
        SampleModule::addTools(server->tools(), probe);
        m_reader = std::make_unique<QSocketNotifier>(qintptr(m_out[0]), QSocketNotifier::Read);
        QObject::connect(m_reader.get(), &QSocketNotifier::activated, m_reader.get(), [this] { read(); });
    }
    ~PipedServer()
    {
        m_reader.reset();
        server.reset();
        for (int fd : {m_in[0], m_in[1], m_out[0], m_out[1]}) {
            if (fd >= 0)
                ::close(fd);
        }
    }

    void send(const QByteArray &line)
    {
        const QByteArray data = line + '\n';
        QVERIFY(::write(m_in[1], data.constData(), size_t(data.size())) == data.size());
    }
    void closeStdin()
    {
        ::close(m_in[1]);
        m_in[1] = -1;
    }
    // The raw line answering id (empty while none came).
    QByteArray lineFor(int id) const
    {
        for (const QByteArray &line : lines) {
            if (QJsonDocument::fromJson(line).object().value(QLatin1String("id")) == QJsonValue(id))
                return line;
        }
        return {};
    }
    QByteArray waitFor(int id)
    {
        QByteArray line;
        [&] { QTRY_VERIFY_WITH_TIMEOUT(!(line = lineFor(id)).isEmpty(), TestSupport::scaled(10000)); }();
        return line;
    }
    QJsonObject resultFor(int id)
    {
        return QJsonDocument::fromJson(waitFor(id)).object().value(QLatin1String("result")).toObject();
    }
    void initialize(const QString &clientName)
    {
        send(QJsonDocument(
                 QJsonObject {
                     {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("id"), 0},
                     {QStringLiteral("method"), QStringLiteral("initialize")},
                     {QStringLiteral("params"),
                      QJsonObject {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                                   {QStringLiteral("capabilities"), QJsonObject()},
                                   {QStringLiteral("clientInfo"),
                                    QJsonObject {{QStringLiteral("name"), clientName},
                                                 {QStringLiteral("version"), QStringLiteral("1")}}}}}})
                 .toJson(QJsonDocument::Compact));
        waitFor(0);
        send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    }
    void callTool(int id, const QString &name, const QJsonObject &arguments = {})
    {
        send(QJsonDocument(QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                        {QStringLiteral("id"), id},
                                        {QStringLiteral("method"), QStringLiteral("tools/call")},
                                        {QStringLiteral("params"),
                                         QJsonObject {{QStringLiteral("name"), name},
                                                      {QStringLiteral("arguments"), arguments}}}})
                 .toJson(QJsonDocument::Compact));
    }

    void readNow() { read(); }

    std::unique_ptr<McpServer> server;
    SampleModule::Probe probe;
    QList<QByteArray> lines; // stdout, without the "\n"

private:
    void read()
    {
        char buffer[65536];
        ssize_t n;
        while ((n = ::read(m_out[0], buffer, sizeof buffer)) > 0)
            m_pending.append(buffer, n);
        qsizetype end;
        while ((end = m_pending.indexOf('\n')) >= 0) {
            lines.append(m_pending.left(end));
            m_pending.remove(0, end + 1);
        }
    }

    int m_in[2] = {-1, -1};
    int m_out[2] = {-1, -1};
    QByteArray m_pending;
    std::unique_ptr<QSocketNotifier> m_reader;
};

QString textOf(const QJsonObject &result)
{
    return result.value(QLatin1String("content"))
        .toArray()
        .at(0)
        .toObject()
        .value(QLatin1String("text"))
        .toString();
}

} // namespace

class tst_McpServer : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSupport::TestHome> m_home;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_home = std::make_unique<TestSupport::TestHome>();
        // Read by McpServer's parts when they are built: a home of our own, a port nothing
        // listens on, and no broker to start.
        const QProcessEnvironment env = m_home->environment();
        for (const QString &name : {QStringLiteral("HOME"), QStringLiteral("CLAUDE_PEERS_PORT"),
                                    QStringLiteral("CLAUDE_PEERS_DB"), QStringLiteral("CLAUDE_PEERS_TOKEN")})
            qputenv(name.toLatin1(), env.value(name).toUtf8());
        qputenv("CLAUDE_PEERS_BROKER_EXE", (m_home->path() + QStringLiteral("/no-broker")).toUtf8());
        qputenv("CLAUDE_PEERS_TTY", "");
    }

    void toolsListIsTheSameBytesAsBefore_data()
    {
        QTest::addColumn<QString>("client");
        QTest::addColumn<QString>("golden");
        // Written by the helper before its tools became a registry (commit d0407ab).
        QTest::newRow("claude-code") << QStringLiteral("claude-code")
                                     << QStringLiteral("toolslist-claude-code.jsonl");
        QTest::newRow("opencode") << QStringLiteral("opencode") << QStringLiteral("toolslist-other.jsonl");
        QTest::newRow("other") << QStringLiteral("tst") << QStringLiteral("toolslist-other.jsonl");
    }
    void toolsListIsTheSameBytesAsBefore()
    {
        QFETCH(QString, client);
        QFETCH(QString, golden);
        QFile file(QStringLiteral(PEERS_SOURCE_DIR "/tests/mcp_stdio/data/") + golden);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray expected = file.readAll().trimmed();

        // Without the sample module: only the built-in tools.
        int in[2], out[2];
        QVERIFY(::pipe2(in, O_CLOEXEC) == 0 && ::pipe2(out, O_CLOEXEC) == 0);
        McpServer::Options options;
        options.startupHello = false;
        options.stdinFd = in[0];
        options.stdoutFd = out[1];
        QByteArray line;
        {
            McpServer server(options);
            server.start();
            const QByteArray init =
                QByteArrayLiteral(
                    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":")") +
                client.toUtf8() + QByteArrayLiteral(R"(","version":"1"}}})") + '\n' +
                QByteArrayLiteral(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})") + '\n';
            QVERIFY(::write(in[1], init.constData(), size_t(init.size())) == init.size());
            QByteArray buffer;
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    char chunk[65536];
                    ::fcntl(out[0], F_SETFL, O_NONBLOCK);
                    ssize_t n;
                    while ((n = ::read(out[0], chunk, sizeof chunk)) > 0)
                        buffer.append(chunk, n);
                    return buffer.contains("\"id\":2,");
                }(),
                TestSupport::scaled(10000));
            for (const QByteArray &l : buffer.split('\n')) {
                if (l.contains("\"id\":2,"))
                    line = l;
            }
        }
        for (int fd : {in[0], in[1], out[0], out[1]})
            ::close(fd);
        QCOMPARE(line, expected);
    }

    void moduleToolsFollowTheBuiltInOnes()
    {
        PipedServer h;
        h.server->start();
        h.initialize(QStringLiteral("claude-code"));
        h.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
        const QJsonArray tools = QJsonDocument::fromJson(h.waitFor(1))
                                     .object()
                                     .value(QLatin1String("result"))
                                     .toObject()
                                     .value(QLatin1String("tools"))
                                     .toArray();
        QStringList names;
        for (const QJsonValue &t : tools)
            names << t.toObject().value(QLatin1String("name")).toString();
        QCOMPARE(names,
                 QStringList({QStringLiteral("list_peers"), QStringLiteral("send_message"),
                              QStringLiteral("set_summary"), QStringLiteral("set_name"),
                              QStringLiteral("check_messages"), QStringLiteral("broadcast_message"),
                              QStringLiteral("message_status"), QStringLiteral("channel_health"),
                              QStringLiteral("whoami"), QStringLiteral("sample_echo"),
                              QStringLiteral("sample_later")}));
        QCOMPARE(tools.at(9).toObject().value(QLatin1String("description")).toString(),
                 QStringLiteral("Echo, worded for Claude Code."));
    }

    void moduleToolAnswersAtOnceAndLater()
    {
        PipedServer h;
        h.server->start();
        h.initialize(QStringLiteral("opencode"));
        h.callTool(1, QStringLiteral("sample_echo"), {{QStringLiteral("text"), QStringLiteral("now")}});
        // The piggyback (banner, broker trouble) may follow: the tool's words come first.
        QVERIFY2(textOf(h.resultFor(1)).startsWith(QLatin1String("now (for opencode)")),
                 qPrintable(textOf(h.resultFor(1))));
        h.callTool(2, QStringLiteral("sample_later"),
                   {{QStringLiteral("text"), QStringLiteral("later")}, {QStringLiteral("ms"), 20}});
        h.callTool(3, QStringLiteral("sample_echo"), {});
        const QJsonObject fault = h.resultFor(3);
        QCOMPARE(fault.value(QLatin1String("isError")), QJsonValue(true));
        QVERIFY(textOf(fault).startsWith(
            QLatin1String("Missing required parameter: text (the words to echo back)")));
        QVERIFY(textOf(h.resultFor(2)).startsWith(QLatin1String("later")));
    }

    void slowModuleToolIsCancelledByTheClient()
    {
        PipedServer h;
        h.server->start();
        h.initialize(QStringLiteral("claude-code"));
        const int slowMs = TestSupport::scaled(300);
        h.callTool(5, QStringLiteral("sample_later"),
                   {{QStringLiteral("text"), QStringLiteral("never")}, {QStringLiteral("ms"), slowMs}});
        QTRY_COMPARE_WITH_TIMEOUT(h.probe.timersRunning, 1, TestSupport::scaled(5000));
        h.send(
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}})");
        QTRY_COMPARE_WITH_TIMEOUT(h.probe.cancelled, 1, TestSupport::scaled(5000));
        QCOMPARE(h.probe.timersRunning, 0);
        QCOMPARE(h.server->tools().callsInFlight(), 0);
        // Long past the moment the tool would have answered, and after a later request that
        // was answered: nothing for the cancelled call.
        QTest::qWait(3 * slowMs);
        h.send(R"({"jsonrpc":"2.0","id":6,"method":"ping"})");
        h.waitFor(6);
        QCOMPARE(h.lineFor(5), QByteArray());
    }

    void answerAfterShutdownBeganIsDropped()
    {
        PipedServer h;
        QSignalSpy finished(h.server.get(), &McpServer::finished);
        h.server->start();
        h.initialize(QStringLiteral("claude-code"));
        h.callTool(1, QStringLiteral("sample_later"), {{QStringLiteral("text"), QStringLiteral("held")}});
        h.callTool(2, QStringLiteral("sample_later"), {{QStringLiteral("text"), QStringLiteral("held")}});
        QTRY_COMPARE_WITH_TIMEOUT(h.probe.held.size(), 2, TestSupport::scaled(5000));
        h.send(R"({"jsonrpc":"2.0","id":3,"method":"ping"})");
        h.waitFor(3);
        const qsizetype linesBefore = h.lines.size();
        // One answer comes in the middle of the shutdown, from work that ends with it.
        QObject context;
        const ToolReply during = h.probe.held.at(0);
        during.onCancelled(&context, [during] { during.text(QStringLiteral("during shutdown")); });

        h.closeStdin(); // the client went away: the helper shuts down
        QVERIFY(finished.wait(TestSupport::scaled(5000)));
        QCOMPARE(finished.at(0).at(0).toInt(), 0);
        QCOMPARE(h.probe.cancelled, 2);
        QVERIFY(during.isAnswered());
        h.probe.held.at(1).text(QStringLiteral("after shutdown"));
        h.readNow(); // the writer writes at once: a line would be there
        QCOMPARE(h.lines.size(), linesBefore);

        // And once the helper is gone entirely.
        h.server.reset();
        h.probe.held.at(1).text(QStringLiteral("later still"));
        QCoreApplication::processEvents();
        h.readNow();
        QCOMPARE(h.lines.size(), linesBefore);
        QCOMPARE(h.lineFor(1), QByteArray());
        QCOMPARE(h.lineFor(2), QByteArray());
    }
};

QTEST_GUILESS_MAIN(tst_McpServer)
#include "tst_mcpserver.moc"
