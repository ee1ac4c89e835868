#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

namespace Broker {

// Where the local broker lives and where its files are, resolved once from the environment
// (docs/spec/peers-api.md §10.2). The one rendezvous function shared by broker, helper, CLI and tray, so
// the sides cannot disagree. HOME comes from the environment, never from XDG or TMPDIR, which
// launchers of MCP servers may drop.
struct Location
{
    quint16 port = 7899;
    QString tokenPath; // CLAUDE_PEERS_TOKEN (a file path) or $HOME/.claude-peers-token
    QString databasePath; // CLAUDE_PEERS_DB or $HOME/.claude-peers.db
    QString configPath; // $HOME/.claude-peers-config.json
    bool tokenPathExplicit = false;

    QUrl baseUrl() const;
    QString lockPath() const; // beside the database: one broker per database
    QString pidPath() const;

    static Location
    fromEnvironment(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
};

} // namespace Broker
