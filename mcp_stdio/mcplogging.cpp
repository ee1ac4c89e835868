#include "mcp_stdio/mcplogging.h"

#include <QByteArray>
#include <QDateTime>

#include <cerrno>
#include <cstdlib>
#include <unistd.h>

namespace Mcp {

Q_LOGGING_CATEGORY(lcStdio, "peers.mcp.stdio", QtInfoMsg)
Q_LOGGING_CATEGORY(lcRpc, "peers.mcp.rpc", QtInfoMsg)
Q_LOGGING_CATEGORY(lcTools, "peers.mcp.tools", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDelivery, "peers.mcp.delivery", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSession, "peers.mcp.session", QtInfoMsg)

namespace {

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "critical";
    case QtFatalMsg:
        return "fatal";
    }
    return "?";
}

void stderrHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    QByteArray line = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toUtf8();
    line += " [claude-peers-mcp ";
    line += QByteArray::number(qint64(::getpid()));
    line += "] ";
    line += levelName(type);
    line += ' ';
    line += context.category ? context.category : "default";
    line += ": ";
    // One record per line: a message must never be able to forge a second record.
    QByteArray text = message.toUtf8();
    text.replace('\n', "\\n");
    line += text;
    line += '\n';
    // write(2) directly: unbuffered, and nothing of stdio's stdout buffer is involved.
    const char *p = line.constData();
    qsizetype left = line.size();
    while (left > 0) {
        const ssize_t n = ::write(STDERR_FILENO, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // stderr gone or full: nothing better to do than drop the log line
        p += n;
        left -= n;
    }
    if (type == QtFatalMsg)
        std::abort();
}

} // namespace

void installStderrMessageHandler()
{
    qInstallMessageHandler(stderrHandler);
}

} // namespace Mcp
