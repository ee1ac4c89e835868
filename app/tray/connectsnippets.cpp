#include "app/tray/connectsnippets.h"

#include "common/claudehooks.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace App {

namespace {

QString findProgram(const QString &applicationDir, const QString &name)
{
    const QString beside = QDir(applicationDir).filePath(name);
    if (QFileInfo(beside).isExecutable())
        return beside;
    const QString onPath = QStandardPaths::findExecutable(name);
    return onPath.isEmpty() ? name : onPath;
}

// A path as one shell word: quoted when it holds anything but safe characters.
QString shellWord(const QString &path)
{
    for (const QChar c : path) {
        if (!(c.isLetterOrNumber() || QStringLiteral("/._-+:@%").contains(c)))
            return QLatin1Char('\'') + QString(path).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                QLatin1Char('\'');
    }
    return path;
}

} // namespace

ConnectSnippets ConnectSnippets::forInstalledPrograms(const QString &applicationDir)
{
    return {findProgram(applicationDir, QStringLiteral("claude-peers-mcp")),
            findProgram(applicationDir, QStringLiteral("claude-peers"))};
}

QString ConnectSnippets::claudeMcpAddLine() const
{
    return QStringLiteral("claude mcp add --scope user --transport stdio claude-peers -- ") +
        shellWord(helperPath);
}

QString ConnectSnippets::openCodeConfig() const
{
    const QJsonObject server {{QStringLiteral("type"), QStringLiteral("local")},
                              {QStringLiteral("command"), QJsonArray {helperPath}},
                              {QStringLiteral("enabled"), true}};
    const QJsonObject root {{QStringLiteral("$schema"), QStringLiteral("https://opencode.ai/config.json")},
                            {QStringLiteral("mcp"), QJsonObject {{QStringLiteral("claude-peers"), server}}}};
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

QString ConnectSnippets::claudeHooksSettings() const
{
    return QString::fromUtf8(Broker::ClaudeHooks::settingsSnippetText(cliPath));
}

} // namespace App
