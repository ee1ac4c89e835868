// session.create with a worktree (docs/spec/control-service.md §5.1 step 7). OpenCode
// (1.18.33) creates git worktrees itself: POST /experimental/worktree {name} answers at once with
// {name, branch: "opencode/<name>", directory} while it populates and boots the worktree in the
// background, and says how that ended only on its global event stream (worktree.ready or
// worktree.failed, with the worktree's directory). It has no status route to poll, so the
// "bootstrap status" polled here every 150 ms is what that stream reported.
#include "openchamber/actionrun.h"

#include "broker/clock.h"
#include "openchamber/actionrunsupport.h"
#include "openchamber/openchamberlogging.h"
#include "openchamber/sessionservice.h"

#include <QTimer>

namespace OpenChamber {

using namespace ActionRunSupport;

bool ActionRun::takeWorktreeInput()
{
    if (isPresent(m_input, QStringLiteral("worktree"))) {
        m_worktreeName = str(m_input, "worktree");
        if (m_worktreeName.isEmpty()) {
            fail(usageError(QStringLiteral("worktree.name is required when worktree is provided")));
            return false;
        }
    }
    // OpenCode's worktree API takes a name only: it would silently ignore these (measured), so
    // a caller who asked for them hears so instead of getting something else.
    const struct
    {
        const char *key;
        const char *refusal;
    } unsupported[] = {
        {"branch", "branch is not supported: OpenCode names the worktree's branch opencode/<worktree>"},
        {"startRef", "startRef is not supported: OpenCode starts the worktree at the repository's HEAD"},
    };
    for (const auto &option : unsupported) {
        const QString key = QString::fromLatin1(option.key);
        if (!isPresent(m_input, key))
            continue;
        fail(usageError(m_worktreeName.isEmpty() ? QStringLiteral("%1 requires worktree").arg(key)
                                                 : QString::fromLatin1(option.refusal)));
        return false;
    }
    if (isPresent(m_input, QStringLiteral("setUpstream"))) {
        if (m_worktreeName.isEmpty()) {
            fail(usageError(QStringLiteral("setUpstream requires worktree")));
            return false;
        }
        // false is what OpenCode does anyway (the branch is local).
        if (isTrue(m_input.value(QStringLiteral("setUpstream")))) {
            fail(usageError(QStringLiteral("setUpstream is not supported: OpenCode's worktree branch is "
                                           "local; push it with -u yourself")));
            return false;
        }
    }
    return true;
}

void ActionRun::createWorktree()
{
    // Listen before asking: the worktree may be ready before OpenCode's answer reaches us.
    m_globalEvents = new OpenCodeEventStream(m_client, m_service.eventNetwork(), {}, this,
                                             OpenCodeEventStream::GlobalPath);
    connect(m_globalEvents, &OpenCodeEventStream::received, this, &ActionRun::onGlobalEvent);
    connect(m_globalEvents, &OpenCodeEventStream::ended, this, &ActionRun::globalEventsEnded);
    connect(m_globalEvents, &OpenCodeEventStream::connected, this, &ActionRun::postWorktree,
            Qt::SingleShotConnection);
    // Opening a stream is a request like any other: it has the client's deadline, in real time.
    QTimer::singleShot(m_client.options().timeoutMs, m_globalEvents, [this] {
        if (m_globalEvents && !m_globalEvents->isConnected())
            globalEventsEnded(QStringLiteral("no answer within %1 ms").arg(m_client.options().timeoutMs));
    });
}

void ActionRun::postWorktree()
{
    qCDebug(lcControl).noquote() << "creating worktree" << m_worktreeName << "of" << m_directory;
    post(QStringLiteral("/experimental/worktree"), m_directory, {{QStringLiteral("name"), m_worktreeName}},
         [this](auto answer) {
             if (!answer) {
                 // 400 is OpenCode refusing this directory or name (not a git repository, …).
                 if (answer.error().kind == OpenCodeError::Kind::Http && answer.error().httpStatus == 400) {
                     const QString body = QString::fromUtf8(answer.error().body.left(500)).trimmed();
                     return fail(usageError(QStringLiteral("worktree create failed (400): %1").arg(body)));
                 }
                 return failOpenCode(answer.error(), QStringLiteral("worktree create failed"));
             }
             const QJsonObject created = answer->toObject();
             const QString path = str(created, "directory");
             if (path.isEmpty())
                 return fail(runtimeError(QStringLiteral("failed to create worktree")));
             m_worktree = {{QStringLiteral("name"), str(created, "name")}, {QStringLiteral("path"), path}};
             if (const QString branch = str(created, "branch"); !branch.isEmpty())
                 m_worktree.insert(QStringLiteral("branch"), branch);
             // From here on an error says the worktree exists, so the caller can use or remove it.
             m_partial = {{QStringLiteral("partial"), true},
                          {QStringLiteral("partialAction"), QStringLiteral("worktree-created")},
                          {QStringLiteral("directory"), path}};
             m_bootstrapDeadline = now() + m_service.options().worktreeBootstrapTimeoutMs;
             bootstrapStep();
         });
}

void ActionRun::bootstrapStep()
{
    const QString path = m_worktree.value(QStringLiteral("path")).toString();
    if (const auto news = m_worktreeNews.constFind(path); news != m_worktreeNews.cend()) {
        if (!news->ready)
            return fail(runtimeError(
                QStringLiteral("Worktree bootstrap failed: %1")
                    .arg(news->message.isEmpty() ? QStringLiteral("unknown error") : news->message)));
        qCDebug(lcControl).noquote() << "worktree ready:" << path;
        stopGlobalEvents();
        m_directory = path;
        return createSession();
    }
    const qint64 remaining = m_bootstrapDeadline - now();
    if (remaining <= 0)
        return fail(runtimeError(QStringLiteral("Timed out waiting for the worktree bootstrap")));
    sleep(std::min<qint64>(m_service.options().worktreePollMs, remaining), [this] { bootstrapStep(); });
}

void ActionRun::onGlobalEvent(const QJsonObject &event)
{
    const std::optional<WorktreeNews> news = worktreeNews(event);
    if (!news)
        return;
    qCDebug(lcOpenCode).noquote() << "worktree" << news->directory << (news->ready ? "ready" : "failed");
    m_worktreeNews.insert(news->directory, *news);
    if (news->directory == m_worktree.value(QStringLiteral("path")).toString())
        wake();
}

void ActionRun::globalEventsEnded(const QString &reason)
{
    // Without the stream nothing would ever say the worktree is ready: say so now rather than
    // after the bootstrap's 60 s.
    fail(runtimeError(
        QStringLiteral("OpenCode's event stream (GET /global/event) %1 (%2); it is where OpenCode reports "
                       "a worktree's bootstrap")
            .arg(m_worktree.isEmpty() ? QStringLiteral("did not open")
                                      : QStringLiteral("ended before the worktree was ready"),
                 reason)));
}

void ActionRun::stopGlobalEvents()
{
    // May run inside one of the stream's signals: let it finish emitting.
    if (!m_globalEvents)
        return;
    m_globalEvents->disconnect(this);
    m_globalEvents->deleteLater();
    m_globalEvents = nullptr;
}

} // namespace OpenChamber
