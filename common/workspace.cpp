#include "common/workspace.h"

#include "common/clientlogging.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <memory>

namespace Broker::Workspace {

// ---- pure formatting ----

QString projectName(const QString &gitRoot, const QString &cwd)
{
    const QString dir = gitRoot.isEmpty() ? cwd : gitRoot;
    const QString last = dir.section(QLatin1Char('/'), -1);
    return last.isEmpty() ? dir : last;
}

QString ttyTag(const QString &tty)
{
    if (tty.isEmpty())
        return {};
    QString t = tty;
    t.remove(QStringLiteral("/dev/"));
    return QLatin1Char(':') + t;
}

QString mcpAutoSummary(const SummaryContext &context)
{
    const QString project = projectName(context.gitRoot, context.cwd);
    const QString branch = context.branch.isEmpty() ? QStringLiteral("main") : context.branch;
    const QString tag = ttyTag(context.tty);

    QStringList parts;
    if (!context.branch.isEmpty() && context.branch != QLatin1String("main") &&
        context.branch != QLatin1String("master"))
        parts.append(QStringLiteral("on ") + context.branch);
    if (!context.recentFiles.isEmpty())
        parts.append(QStringLiteral("recently touched ") +
                     context.recentFiles.mid(0, 3).join(QStringLiteral(", ")));

    // Outside any git repository there is no branch to name (the reference says "main" anyway).
    const QString prefix = !context.sessionName.isEmpty()
        ? QStringLiteral("[%1%2]").arg(context.sessionName, tag)
        : context.gitRoot.isEmpty() ? QStringLiteral("[%1%2]").arg(project, tag)
                                    : QStringLiteral("[%1:%2%3]").arg(project, branch, tag);
    if (parts.isEmpty())
        return prefix + QStringLiteral(" Working in ") + project;
    return prefix + QLatin1Char(' ') + parts.join(QStringLiteral(", ")) + QStringLiteral(" in ") + project;
}

QString mcpFallbackSummary(const QString &sessionName, const QString &project)
{
    return QStringLiteral("[%1] Awaiting tasks in %2").arg(sessionName, project);
}

QString cliAutoSummary(const QString &repoName, const QString &branch, const QString &cwd,
                       std::optional<int> taskCount)
{
    const bool hasGit = !repoName.isEmpty() && !branch.isEmpty();
    const QString prefix = hasGit ? QStringLiteral("[%1:%2] ").arg(repoName, branch) : QString();
    if (hasGit && taskCount && *taskCount > 0)
        return prefix +
            QStringLiteral("%1 in-progress task%2")
                .arg(*taskCount)
                .arg(*taskCount == 1 ? QString() : QStringLiteral("s"));
    return prefix + QStringLiteral("Working in ") + cwd;
}

QStringList mergeRecentFiles(const QStringList &diffFiles, const QStringList &logFiles, int limit)
{
    if (limit <= 0)
        return {};
    if (diffFiles.size() >= limit)
        return diffFiles.mid(0, limit);
    QStringList all;
    for (const QStringList *list : {&diffFiles, &logFiles}) {
        for (const QString &f : *list) {
            if (!f.isEmpty() && !all.contains(f))
                all.append(f);
        }
    }
    return all.mid(0, limit);
}

QStringList outputLines(const QByteArray &output)
{
    QStringList lines;
    for (const QByteArray &line : output.split('\n')) {
        const QString t = QString::fromUtf8(line).trimmed();
        if (!t.isEmpty())
            lines.append(t);
    }
    return lines;
}

std::optional<int> parseTaskMasterList(const QByteArray &output)
{
    const QByteArray trimmed = output.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &error);
    if (error.error == QJsonParseError::NoError) {
        if (doc.isArray() && !doc.array().isEmpty())
            return int(doc.array().size());
        return std::nullopt;
    }
    int count = 0;
    for (const QString &line : outputLines(trimmed)) {
        if (!line.startsWith(QLatin1Char('-')) && !line.startsWith(QLatin1Char('=')) &&
            !line.startsWith(QLatin1String("ID")))
            ++count;
    }
    return count > 0 ? std::optional<int>(count) : std::nullopt;
}

// ---- probing ----

namespace {

QStringList gitArgs(std::initializer_list<const char *> args)
{
    // Readable (unquoted) paths; no optional index lock, so probing never blocks a user's git.
    QStringList list {QStringLiteral("-c"), QStringLiteral("core.quotepath=off")};
    for (const char *a : args)
        list.append(QString::fromLatin1(a));
    return list;
}

const QStringList &rootArgs()
{
    static const QStringList a = gitArgs({"rev-parse", "--show-toplevel"});
    return a;
}
const QStringList &branchArgs()
{
    static const QStringList a = gitArgs({"rev-parse", "--abbrev-ref", "HEAD"});
    return a;
}
const QStringList &diffArgs()
{
    static const QStringList a = gitArgs({"diff", "--name-only", "HEAD"});
    return a;
}
const QStringList &logArgs()
{
    static const QStringList a = gitArgs({"log", "--name-only", "-5", "--format="});
    return a;
}

void prepare(QProcess &process, const QString &program, const QStringList &args, const QString &workingDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GIT_OPTIONAL_LOCKS"), QStringLiteral("0"));
    env.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    process.setProcessEnvironment(env);
    process.setProgram(program);
    process.setArguments(args);
    process.setWorkingDirectory(workingDir);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
}

QByteArray cutAtLastLine(QByteArray data)
{
    if (data.size() <= MaxProcessOutputBytes)
        return data;
    data.truncate(MaxProcessOutputBytes);
    const qsizetype nl = data.lastIndexOf('\n');
    data.truncate(nl < 0 ? 0 : nl + 1);
    return data;
}

std::optional<QByteArray> runSync(const QString &program, const QStringList &args, const QString &dir,
                                  int timeoutMs)
{
    QProcess process;
    prepare(process, program, args, dir);
    process.start();
    if (!process.waitForStarted(timeoutMs))
        return std::nullopt;
    if (!process.waitForFinished(timeoutMs)) {
        qCDebug(lcClientWorkspace) << program << args << "timed out in" << dir;
        process.kill();
        process.waitForFinished(1000);
        return std::nullopt;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return std::nullopt;
    return cutAtLastLine(process.readAllStandardOutput());
}

QString firstLine(const std::optional<QByteArray> &out)
{
    if (!out)
        return {};
    const QStringList lines = outputLines(*out);
    return lines.isEmpty() ? QString() : lines.first();
}

} // namespace

void runProcess(const QString &program, const QStringList &args, const QString &workingDir, int timeoutMs,
                QObject *context, ProcessCallback callback)
{
    Q_ASSERT(context);
    auto *process = new QProcess(context);
    prepare(*process, program, args, workingDir);

    struct State
    {
        QByteArray out;
        bool done = false;
    };
    auto state = std::make_shared<State>();
    QPointer<QProcess> guard(process);
    // Cleared as soon as the context starts dying, before it deletes the process (whose
    // destructor reports the kill): then the callback must not run.
    QPointer<QObject> alive(context);

    // Ends the job exactly once: stops the process if needed, then calls back.
    auto finish = [guard, alive, state, callback = std::move(callback)](std::optional<QByteArray> result) {
        if (state->done)
            return;
        state->done = true;
        if (guard) {
            guard->disconnect();
            if (guard->state() != QProcess::NotRunning) {
                // Deleted once reaped, so that no destructor has to wait for it.
                QObject::connect(guard, &QProcess::finished, guard, &QObject::deleteLater);
                guard->kill();
            } else {
                guard->deleteLater();
            }
        }
        if (callback && alive)
            callback(std::move(result));
    };

    auto *timer = new QTimer(process);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, process, [finish, program, args] {
        qCDebug(lcClientWorkspace) << program << args << "timed out";
        finish(std::nullopt);
    });
    QObject::connect(process, &QProcess::readyReadStandardOutput, process, [process, state, finish] {
        state->out += process->readAllStandardOutput();
        if (state->out.size() > MaxProcessOutputBytes)
            finish(cutAtLastLine(state->out));
    });
    QObject::connect(process, &QProcess::errorOccurred, process, [finish](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(std::nullopt);
    });
    QObject::connect(process, &QProcess::finished, process,
                     [process, state, finish](int exitCode, QProcess::ExitStatus status) {
                         state->out += process->readAllStandardOutput();
                         if (status != QProcess::NormalExit || exitCode != 0)
                             finish(std::nullopt);
                         else
                             finish(cutAtLastLine(state->out));
                     });
    timer->start(timeoutMs);
    process->start();
}

void probeGit(const QString &dir, QObject *context, std::function<void(GitInfo)> callback, int timeoutMs,
              bool withRecentFiles)
{
    struct Probe
    {
        std::optional<QByteArray> root, branch, diff, log;
        int remaining = 0;
        std::function<void(GitInfo)> callback;
    };
    auto probe = std::make_shared<Probe>();
    probe->callback = std::move(callback);
    probe->remaining = withRecentFiles ? 4 : 2;

    auto done = [probe] {
        if (--probe->remaining > 0)
            return;
        GitInfo info;
        info.root = firstLine(probe->root);
        if (info.isRepository()) {
            info.branch = firstLine(probe->branch);
            const QStringList diff = probe->diff ? outputLines(*probe->diff) : QStringList();
            const QStringList log = probe->log ? outputLines(*probe->log) : QStringList();
            info.recentFiles = mergeRecentFiles(diff, log, RecentFilesLimit);
        }
        if (probe->callback)
            probe->callback(std::move(info));
    };
    const QString git = QStringLiteral("git");
    runProcess(git, rootArgs(), dir, timeoutMs, context, [probe, done](auto out) {
        probe->root = std::move(out);
        done();
    });
    runProcess(git, branchArgs(), dir, timeoutMs, context, [probe, done](auto out) {
        probe->branch = std::move(out);
        done();
    });
    if (withRecentFiles) {
        runProcess(git, diffArgs(), dir, timeoutMs, context, [probe, done](auto out) {
            probe->diff = std::move(out);
            done();
        });
        runProcess(git, logArgs(), dir, timeoutMs, context, [probe, done](auto out) {
            probe->log = std::move(out);
            done();
        });
    }
}

void taskMasterInProgress(const QString &dir, QObject *context,
                          std::function<void(std::optional<int>)> callback, int timeoutMs)
{
    const QString exe = QStandardPaths::findExecutable(QStringLiteral("task-master"));
    if (exe.isEmpty()) {
        // Same contract as the running case: the callback comes later, from the event loop.
        QMetaObject::invokeMethod(
            context, [callback = std::move(callback)] { callback(std::nullopt); }, Qt::QueuedConnection);
        return;
    }
    runProcess(exe, {QStringLiteral("list"), QStringLiteral("--status=in-progress")}, dir, timeoutMs, context,
               [callback = std::move(callback)](std::optional<QByteArray> out) {
                   callback(out ? parseTaskMasterList(*out) : std::nullopt);
               });
}

QString gitRoot(const QString &dir, int timeoutMs)
{
    return firstLine(runSync(QStringLiteral("git"), rootArgs(), dir, timeoutMs));
}

QString gitBranch(const QString &dir, int timeoutMs)
{
    return firstLine(runSync(QStringLiteral("git"), branchArgs(), dir, timeoutMs));
}

QStringList recentFiles(const QString &dir, int limit, int timeoutMs)
{
    const auto diff = runSync(QStringLiteral("git"), diffArgs(), dir, timeoutMs);
    const QStringList diffFiles = diff ? outputLines(*diff) : QStringList();
    if (diffFiles.size() >= limit)
        return diffFiles.mid(0, limit);
    const auto log = runSync(QStringLiteral("git"), logArgs(), dir, timeoutMs);
    return mergeRecentFiles(diffFiles, log ? outputLines(*log) : QStringList(), limit);
}

} // namespace Broker::Workspace
