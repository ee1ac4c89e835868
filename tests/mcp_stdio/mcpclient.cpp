#include "tests/mcp_stdio/mcpclient.h"

#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QTest>

McpClient::McpClient(QProcessEnvironment env, QString program, QObject *parent)
    : QObject(parent), m_program(program.isEmpty() ? TestSupport::mcpExe() : program)
{
    m_process.setProcessEnvironment(env);
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &McpClient::onStdout);
}

McpClient::~McpClient()
{
    kill();
}

bool McpClient::start(const QStringList &arguments)
{
    m_process.start(m_program, arguments);
    if (!m_process.waitForStarted(TestSupport::scaled(5000)))
        return false;
    m_pid = m_process.processId();
    return true;
}

void McpClient::setClientInfo(const QString &name, const QJsonObject &capabilities)
{
    m_clientName = name;
    m_capabilities = capabilities;
}

QJsonObject McpClient::channelCapabilities()
{
    return QJsonObject {
        {QStringLiteral("experimental"), QJsonObject {{QStringLiteral("claude/channel"), QJsonObject()}}}};
}

bool McpClient::initialize(bool sendInit, const QString &protocolVersion)
{
    const QJsonObject answer =
        call(QStringLiteral("initialize"),
             QJsonObject {{QStringLiteral("protocolVersion"), protocolVersion},
                          {QStringLiteral("capabilities"), m_capabilities},
                          {QStringLiteral("clientInfo"),
                           QJsonObject {{QStringLiteral("name"), m_clientName},
                                        {QStringLiteral("version"), QStringLiteral("1")}}}});
    if (!answer.contains(QLatin1String("result")))
        return false;
    if (sendInit)
        sendInitialized();
    return true;
}

void McpClient::sendInitialized()
{
    sendRaw(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
}

bool McpClient::waitRegistered(const QString &peerId, int timeoutMs)
{
    return waitUntil(
        [&] { return text(callTool(QStringLiteral("whoami"))).startsWith(QStringLiteral("ID: ") + peerId); },
        TestSupport::scaled(timeoutMs));
}

void McpClient::sendRaw(const QByteArray &line)
{
    m_process.write(line + '\n');
}

int McpClient::request(const QString &method, const QJsonObject &params)
{
    const int id = m_nextId++;
    QJsonObject o {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                   {QStringLiteral("id"), id},
                   {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        o.insert(QStringLiteral("params"), params);
    sendRaw(QJsonDocument(o).toJson(QJsonDocument::Compact));
    return id;
}

std::optional<QJsonObject> McpClient::waitResponse(int id, int timeoutMs)
{
    std::optional<QJsonObject> found;
    waitUntil(
        [&] {
            for (const QJsonObject &o : std::as_const(m_lines)) {
                if (!o.contains(QLatin1String("method")) && o.value(QLatin1String("id")) == QJsonValue(id)) {
                    found = o;
                    return true;
                }
            }
            return false;
        },
        timeoutMs);
    return found;
}

QJsonObject McpClient::call(const QString &method, const QJsonObject &params, int timeoutMs)
{
    return waitResponse(request(method, params), TestSupport::scaled(timeoutMs)).value_or(QJsonObject());
}

QJsonObject McpClient::callTool(const QString &name, const QJsonObject &arguments, int timeoutMs)
{
    QJsonObject params {{QStringLiteral("name"), name}};
    if (!arguments.isEmpty())
        params.insert(QStringLiteral("arguments"), arguments);
    return call(QStringLiteral("tools/call"), params, timeoutMs).value(QLatin1String("result")).toObject();
}

QString McpClient::text(const QJsonObject &toolResult)
{
    return toolResult.value(QLatin1String("content"))
        .toArray()
        .at(0)
        .toObject()
        .value(QLatin1String("text"))
        .toString();
}

bool McpClient::isError(const QJsonObject &toolResult)
{
    return toolResult.value(QLatin1String("isError")).toBool();
}

QList<QJsonObject> McpClient::channelMessages() const
{
    QList<QJsonObject> out;
    for (const QJsonObject &o : m_lines) {
        if (o.value(QLatin1String("method")) != QLatin1String("notifications/claude/channel"))
            continue;
        const QJsonObject params = o.value(QLatin1String("params")).toObject();
        if (params.value(QLatin1String("meta")).toObject().value(QLatin1String("message_id")) ==
            QLatin1String("startup-hello"))
            continue;
        out << params;
    }
    return out;
}

int McpClient::helloCount() const
{
    int n = 0;
    for (const QJsonObject &o : m_lines) {
        n += o.value(QLatin1String("method")) == QLatin1String("notifications/claude/channel") &&
            o.value(QLatin1String("params"))
                    .toObject()
                    .value(QLatin1String("meta"))
                    .toObject()
                    .value(QLatin1String("message_id")) == QLatin1String("startup-hello");
    }
    return n;
}

qsizetype McpClient::indexOfLine(const std::function<bool(const QJsonObject &)> &match) const
{
    for (qsizetype i = 0; i < m_lines.size(); ++i) {
        if (match(m_lines.at(i)))
            return i;
    }
    return -1;
}

bool McpClient::waitForChannelMessages(int count, int timeoutMs)
{
    return waitUntil([&] { return channelMessages().size() >= count; }, TestSupport::scaled(timeoutMs));
}

QByteArray McpClient::stderrOutput()
{
    m_stderr += m_process.readAllStandardError();
    return m_stderr;
}

bool McpClient::waitForExit(int timeoutMs)
{
    return waitUntil([&] { return m_process.state() == QProcess::NotRunning; },
                     TestSupport::scaled(timeoutMs));
}

void McpClient::closeStdin()
{
    m_process.closeWriteChannel();
}

void McpClient::kill()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.kill();
    m_process.waitForFinished(5000);
}

bool McpClient::waitUntil(const std::function<bool()> &condition, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!condition()) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(5);
    }
    return true;
}

void McpClient::onStdout()
{
    m_buffer += m_process.readAllStandardOutput();
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(nl);
        m_buffer.remove(0, nl + 1);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError)
            m_nonJson << line;
        else if (doc.isArray())
            m_batches << doc.array();
        else
            m_lines << doc.object();
        const QJsonObject o = doc.object();
        if (m_answerPings && o.value(QLatin1String("method")) == QLatin1String("ping") &&
            o.contains(QLatin1String("id")))
            sendRaw(QJsonDocument(QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                               {QStringLiteral("id"), o.value(QLatin1String("id"))},
                                               {QStringLiteral("result"), QJsonObject()}})
                        .toJson(QJsonDocument::Compact));
    }
}
