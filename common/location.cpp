#include "common/location.h"

#include <QDir>

namespace Broker {

QUrl Location::baseUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port);
    return url;
}

QString Location::lockPath() const
{
    return databasePath + QStringLiteral(".lock");
}

QString Location::pidPath() const
{
    return databasePath + QStringLiteral(".pid");
}

Location Location::fromEnvironment(const QProcessEnvironment &env)
{
    Location loc;
    QString home = env.value(QStringLiteral("HOME"));
    if (home.isEmpty())
        home = QDir::homePath();

    bool ok = false;
    const int port = env.value(QStringLiteral("CLAUDE_PEERS_PORT")).toInt(&ok);
    if (ok && port > 0 && port < 65536)
        loc.port = quint16(port);

    const QString token = env.value(QStringLiteral("CLAUDE_PEERS_TOKEN"));
    loc.tokenPathExplicit = !token.isEmpty();
    loc.tokenPath = token.isEmpty() ? home + QStringLiteral("/.claude-peers-token") : token;

    const QString db = env.value(QStringLiteral("CLAUDE_PEERS_DB"));
    loc.databasePath = db.isEmpty() ? home + QStringLiteral("/.claude-peers.db") : db;

    loc.configPath = home + QStringLiteral("/.claude-peers-config.json");
    return loc;
}

} // namespace Broker
