// claude-peers-mcp: the MCP stdio helper every AI session starts. Thin: builds the server and
// runs the event loop. stdout carries only MCP protocol lines; logs go to stderr.
#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/mcpserver.h"
#include "mcp_stdio/serverinfo.h"
#include "openchamber/tool/controltool.h"

#include <QCoreApplication>

#include <csignal>
#include <cstdio>
#include <cstring>

int main(int argc, char *argv[])
{
    // A write to a pipe whose reader is gone must fail with EPIPE, not kill us.
    ::signal(SIGPIPE, SIG_IGN);
    Mcp::installStderrMessageHandler();

    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("claude-peers-mcp %s\n", PEERS_VERSION);
            return 0;
        }
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::printf(
                "Usage: claude-peers-mcp\n\n"
                "MCP server over stdio for one AI coding session (Claude Code, OpenCode, any MCP client).\n"
                "Register it with:\n"
                "  claude mcp add --scope user --transport stdio claude-peers -- %s\n"
                "See docs/mcp-helper.md for the environment variables.\n",
                argv[0]);
            return 0;
        }
    }

    // Qt's own event dispatcher instead of glib's: fewer wake-ups and less work per wake-up
    // for a process that is idle nearly all the time (measured). Not passed on to children.
    const bool hadNoGlib = qEnvironmentVariableIsSet("QT_NO_GLIB");
    if (!hadNoGlib)
        qputenv("QT_NO_GLIB", "1");
    QCoreApplication app(argc, argv);
    if (!hadNoGlib)
        qunsetenv("QT_NO_GLIB");
    QCoreApplication::setApplicationName(QStringLiteral("claude-peers-mcp"));
    QCoreApplication::setApplicationVersion(Mcp::ServerInfo::version());

    Mcp::McpServer server(Mcp::McpServer::defaultOptions());
    OpenChamber::addControlTool(server);
    QObject::connect(&server, &Mcp::McpServer::finished, &app, &QCoreApplication::exit);
    server.start();
    return app.exec();
}
