#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

// What a session is working on: git probing (via QProcess, each call bounded by a timeout)
// and the two deterministic summary formats. The formatting functions are pure and separate
// from the probing so that they unit-test without git.
//
// Two ways to probe:
// - asynchronous (probeGit, runProcess, taskMasterInProgress): for event-loop code such as the
//   MCP helper; the callback runs later on the context's thread, never from inside the call;
//   it is dropped if the context object is destroyed first.
// - synchronous (gitRoot, gitBranch, recentFiles): block the caller up to timeoutMs per git
//   invocation; for one-shot tools and tests only, never on a broker or helper path.
namespace Broker::Workspace {

// ---- pure formatting ----

struct SummaryContext
{
    QString cwd;
    QString gitRoot; // empty = not a repository
    QString branch; // empty = unknown
    QStringList recentFiles;
    QString sessionName;
    QString tty; // e.g. "pts/44" or "/dev/pts/44"; empty = none
};

// Last path component of gitRoot, or of cwd when gitRoot is empty (docs/spec/peers-api.md §7.10).
QString projectName(const QString &gitRoot, const QString &cwd);
// ":" + tty without "/dev/", or empty.
QString ttyTag(const QString &tty);
// The MCP helper's summary (docs/spec/peers-api.md §7.10), e.g.
// "[AUTH_WORKER:pts/44] recently touched auth.ts in my-project".
QString mcpAutoSummary(const SummaryContext &context);
// "[<name>] Awaiting tasks in <project>": shown until the real summary is ready.
QString mcpFallbackSummary(const QString &sessionName, const QString &project);
// The CLI's auto-summary (docs/spec/peers-api.md §8 / §12 item 33): "[<repo>:<branch>] <n> in-progress
// task(s)" when both are known and n > 0, "[<repo>:<branch>] Working in <cwd>" when both are
// known, else "Working in <cwd>". Empty strings mean unknown.
QString cliAutoSummary(const QString &repoName, const QString &branch, const QString &cwd,
                       std::optional<int> taskCount);
// Files from `git diff --name-only HEAD`, topped up from `git log --name-only -5` when fewer
// than limit, without duplicates, at most limit (docs/spec/peers-api.md §7.10).
QStringList mergeRecentFiles(const QStringList &diffFiles, const QStringList &logFiles, int limit = 10);
// Non-empty lines of a command's output, each trimmed.
QStringList outputLines(const QByteArray &output);
// Count of in-progress tasks from `task-master list --status=in-progress`: a JSON array's
// length, else the non-empty lines that are not table decoration; nullopt for none.
std::optional<int> parseTaskMasterList(const QByteArray &output);

// ---- probing ----

constexpr int DefaultGitTimeoutMs = 2000;
constexpr int RecentFilesLimit = 10;
constexpr qint64 MaxProcessOutputBytes = 4 * 1024 * 1024;

struct GitInfo
{
    QString root; // empty = not a repository (or git missing)
    QString branch;
    QStringList recentFiles;
    bool isRepository() const { return !root.isEmpty(); }
};

// stdout of a successful run (exit 0); nullopt when it failed to start, exited non-zero,
// crashed or overran timeoutMs (then it is killed). Output beyond MaxProcessOutputBytes is cut
// at the last full line. stdin and stderr are /dev/null.
using ProcessCallback = std::function<void(std::optional<QByteArray>)>;
void runProcess(const QString &program, const QStringList &args, const QString &workingDir, int timeoutMs,
                QObject *context, ProcessCallback callback);

// Root, branch and (optionally) recent files of dir; the git calls run in parallel.
void probeGit(const QString &dir, QObject *context, std::function<void(GitInfo)> callback,
              int timeoutMs = DefaultGitTimeoutMs, bool withRecentFiles = true);

// In-progress task count from task-master when it is installed (reference: 2 s timeout).
void taskMasterInProgress(const QString &dir, QObject *context,
                          std::function<void(std::optional<int>)> callback, int timeoutMs = 2000);

// Synchronous variants (see the note at the top). Empty results mean unknown.
QString gitRoot(const QString &dir, int timeoutMs = DefaultGitTimeoutMs);
QString gitBranch(const QString &dir, int timeoutMs = DefaultGitTimeoutMs);
QStringList recentFiles(const QString &dir, int limit = RecentFilesLimit,
                        int timeoutMs = DefaultGitTimeoutMs);

} // namespace Broker::Workspace
