#include "mcp_stdio/claudesessionwatch.h"

#include "common/processtty.h"
#include "mcp_stdio/mcplogging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>

#include <unistd.h>

namespace Mcp {

namespace {
constexpr int MaxAncestors = 6;
} // namespace

ClaudeSessionWatch::ClaudeSessionWatch(QObject *parent)
    : QObject(parent), m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &ClaudeSessionWatch::reread);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &ClaudeSessionWatch::reread);
}

QString ClaudeSessionWatch::findSessionFile(const QString &sessionsDir, const QString &messagingSocket)
{
    // The session id changes on /clear and resume; the socket path stays for the session's life.
    if (!messagingSocket.isEmpty()) {
        const QFileInfoList files = QDir(sessionsDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files);
        for (const QFileInfo &f : files) {
            QFile file(f.filePath());
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const auto record = ClaudeSessionFile::parse(file.read(ClaudeSessionFile::MaxBytes + 1));
            if (record && record->messagingSocketPath == messagingSocket)
                return f.filePath();
        }
    }
    qint64 pid = qint64(::getppid());
    for (int depth = 0; depth < MaxAncestors && pid > 1; ++depth, pid = Broker::ProcessTty::parentOf(pid)) {
        const QString candidate = QStringLiteral("%1/%2.json").arg(sessionsDir).arg(pid);
        if (QFileInfo::exists(candidate))
            return candidate;
    }
    return {};
}

void ClaudeSessionWatch::start(const QString &path)
{
    m_path = path;
    reread();
}

void ClaudeSessionWatch::watch()
{
    // The file while it exists (Claude Code rewrites it in place); the folder only while it does
    // not, to see it appear: every other session's file changes there too, and those would wake
    // this helper for nothing.
    const QString dir = QFileInfo(m_path).absolutePath();
    if (QFileInfo::exists(m_path)) {
        if (!m_watcher->files().contains(m_path))
            m_watcher->addPath(m_path); // also after a replacement, which drops it from the watcher
        if (m_watcher->directories().contains(dir) && m_watcher->files().contains(m_path))
            m_watcher->removePath(dir);
    } else if (!m_watcher->directories().contains(dir)) {
        m_watcher->addPath(dir);
    }
}

void ClaudeSessionWatch::reread()
{
    watch();
    ClaudeSessionFile::State next;
    QFile file(m_path);
    if (file.open(QIODevice::ReadOnly)) {
        const auto record = ClaudeSessionFile::parse(file.read(ClaudeSessionFile::MaxBytes + 1));
        if (!record) {
            // Perhaps caught in the middle of an in-place write: the next change event rereads it.
            qCDebug(lcSession).noquote() << "session file" << m_path << "not read:" << record.error().message;
            return;
        }
        next = ClaudeSessionFile::stateOf(*record);
    }
    if (m_state == next)
        return;
    m_state = next;
    Q_EMIT stateChanged(next);
}

} // namespace Mcp
