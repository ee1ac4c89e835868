#include "openchamber/actionrun.h"

#include "broker/clock.h"
#include "openchamber/actionrunsupport.h"
#include "openchamber/openchamberlogging.h"
#include "openchamber/opencodeevents.h"
#include "openchamber/sessionservice.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <memory>

namespace OpenChamber {

using namespace ActionRunSupport;

namespace {

const QString kCancelled = QStringLiteral("OpenChamber action was cancelled");

QJsonObject statusOf(const QJsonObject &map, const QString &sessionId)
{
    const QJsonValue entry = map.value(sessionId);
    return entry.isObject() ? entry.toObject()
                            : QJsonObject {{QStringLiteral("type"), QStringLiteral("idle")}};
}

} // namespace

ActionRun::ActionRun(SessionService &service, QString action, QJsonObject input, QString contextDirectory,
                     CancelToken cancel, ControlCallback done)
    : QObject(&service),
      m_service(service),
      m_client(service.openCode()),
      m_action(std::move(action)),
      m_input(std::move(input)),
      m_context(contextDirectory.trimmed()),
      m_cancel(std::move(cancel)),
      m_done(std::move(done))
{
    ++m_service.m_running;
}

ActionRun::~ActionRun()
{
    --m_service.m_running;
}

void ActionRun::start()
{
    QPointer<ActionRun> self(this);
    m_cancel.onCancel([self] {
        if (self)
            self->fail(ControlError {499, kCancelled, {}});
    });
    if (m_answered)
        return;
    if (m_action == QLatin1String("projects.list"))
        return succeed(m_service.settings().projectsJson());
    if (m_action == QLatin1String("models.list"))
        return succeed(m_service.settings().modelsJson());
    if (m_action == QLatin1String("session.list"))
        return listSessions();
    if (m_action == QLatin1String("session.status"))
        return sessionStatus();
    if (m_action == QLatin1String("session.messages"))
        return sessionMessages();
    sessionAction();
}

// ---- answers

void ActionRun::succeed(const QJsonObject &result)
{
    if (m_answered)
        return;
    m_answered = true;
    qCDebug(lcControl).noquote() << m_action << "done";
    stopEverything();
    const ControlCallback done = std::move(m_done);
    deleteLater();
    done(result);
}

void ActionRun::fail(ControlError error)
{
    if (m_answered)
        return;
    m_answered = true;
    for (auto it = m_partial.begin(); it != m_partial.end(); ++it)
        error.details.insert(it.key(), it.value());
    if (error.status >= 500)
        qCInfo(lcControl).noquote() << m_action << "failed:" << error.status << error.message;
    else
        qCDebug(lcControl).noquote() << m_action << "refused:" << error.status << error.message;
    stopEverything();
    const ControlCallback done = std::move(m_done);
    deleteLater();
    done(std::unexpected(std::move(error)));
}

void ActionRun::stopEverything()
{
    delete m_sleeper;
    m_sleeper = nullptr;
    stopGlobalEvents();
    // The answer may come from inside one of the stream's signals: let it finish emitting.
    if (m_events) {
        m_events->disconnect(this);
        m_events->deleteLater();
        m_events = nullptr;
    }
}

void ActionRun::failOpenCode(const OpenCodeError &error, const QString &prefix)
{
    if (prefix.isEmpty() || error.kind != OpenCodeError::Kind::Http)
        return fail(runtimeError(error.message));
    const QString body = QString::fromUtf8(error.body.left(500)).trimmed();
    fail(runtimeError(body.isEmpty()
                          ? QStringLiteral("%1 (%2)").arg(prefix).arg(error.httpStatus)
                          : QStringLiteral("%1 (%2): %3").arg(prefix).arg(error.httpStatus).arg(body)));
}

// ---- plumbing

void ActionRun::get(const QString &path, const QString &directory, const QUrlQuery &query,
                    Then<OpenCodeResult<QJsonValue>> then)
{
    m_client.get(path, directory, query, this, std::move(then));
}

void ActionRun::post(const QString &path, const QString &directory, const QJsonObject &body,
                     Then<OpenCodeResult<QJsonValue>> then)
{
    m_client.post(path, directory, body, this, std::move(then));
}

qint64 ActionRun::now() const
{
    return m_service.timers().clock->msecsSinceEpoch();
}

void ActionRun::sleep(qint64 ms, Step then)
{
    delete m_sleeper;
    m_sleeper = new QObject(this);
    m_afterSleep = std::move(then);
    QObject *sleeper = m_sleeper;
    m_service.timers().sleep(int(std::clamp<qint64>(ms, 0, 24 * 3600 * 1000)), sleeper, [this, sleeper] {
        if (m_sleeper != sleeper)
            return;
        m_sleeper = nullptr;
        sleeper->deleteLater();
        Step next = std::move(m_afterSleep);
        next();
    });
}

void ActionRun::wake()
{
    if (!m_sleeper)
        return;
    delete m_sleeper;
    m_sleeper = nullptr;
    Step next = std::move(m_afterSleep);
    next();
}

void ActionRun::ensureEvents(const QString &directory)
{
    if (m_events || !m_service.options().useEventStream)
        return;
    m_events = new OpenCodeEventStream(m_client, m_service.eventNetwork(), directory, this);
    connect(m_events, &OpenCodeEventStream::received, this, &ActionRun::onEvent);
}

void ActionRun::onEvent(const QJsonObject &event)
{
    if (eventSessionId(event) != m_sessionId || m_sessionId.isEmpty())
        return;
    const QString type = event.value(QStringLiteral("type")).toString();
    const QJsonObject properties = event.value(QStringLiteral("properties")).toObject();
    qCDebug(lcOpenCode).noquote() << "event" << type << "for" << m_sessionId;
    if (type == QLatin1String("session.status")) {
        const QJsonObject status = properties.value(QStringLiteral("status")).toObject();
        if (isActive(status)) {
            m_sawActivity = true;
            if (m_waiting)
                m_waiting->observed = true;
        }
        if (!isActive(status))
            wake();
    } else if (type == QLatin1String("session.idle") || type == QLatin1String("session.error") ||
               type == QLatin1String("message.updated")) {
        // A message landing (landing check) or completing (wait): poll now instead of later.
        wake();
    }
}

// ---- session.list (docs/spec/control-service.md §4.3)

void ActionRun::listSessions()
{
    std::optional<qint64> limit = 10;
    if (isPresent(m_input, QStringLiteral("limit"))) {
        limit = positiveSafeInteger(m_input.value(QStringLiteral("limit")));
        if (!limit)
            return fail(usageError(QStringLiteral("limit must be a positive integer")));
    }
    QString directory = str(m_input, "directory");
    if (directory.isEmpty())
        directory = m_context;
    const bool all = isTrue(m_input.value(QStringLiteral("all")));
    const bool withStatus = isTrue(m_input.value(QStringLiteral("withStatus")));
    get(QStringLiteral("/session"), directory, {}, [this, limit, directory, all, withStatus](auto answer) {
        if (!answer)
            return failOpenCode(answer.error());
        if (!answer->isArray())
            return fail(runtimeError(QStringLiteral("Invalid session list response")));
        QJsonArray sessions;
        for (const QJsonValue &v : answer->toArray()) {
            if (qint64(sessions.size()) >= *limit)
                break;
            const QJsonObject session = v.toObject();
            const QJsonValue archived =
                session.value(QStringLiteral("time")).toObject().value(QStringLiteral("archived"));
            if (!all && !archived.isUndefined() && !archived.isNull())
                continue;
            sessions.append(session);
        }
        auto result = std::make_shared<QJsonObject>(QJsonObject {
            {QStringLiteral("limit"), *limit},
            {QStringLiteral("directory"),
             directory.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(directory)},
            {QStringLiteral("archived"), all ? QStringLiteral("included") : QStringLiteral("excluded")}});
        if (!withStatus || sessions.isEmpty()) {
            result->insert(QStringLiteral("sessions"), sessions);
            return succeed(*result);
        }
        // One status request per distinct directory, in parallel; a failing one marks only its
        // own sessions unknown.
        QSet<QString> directories;
        for (const QJsonValue &v : sessions) {
            const QString dir = str(v.toObject(), "directory");
            if (!dir.isEmpty())
                directories.insert(dir);
        }
        auto statuses = std::make_shared<QHash<QString, std::optional<QJsonObject>>>();
        auto remaining = std::make_shared<int>(int(directories.size()));
        auto compose = [this, sessions, result, statuses] {
            QJsonArray out;
            for (const QJsonValue &v : sessions) {
                QJsonObject session = v.toObject();
                const QString dir = str(session, "directory");
                const std::optional<QJsonObject> map = dir.isEmpty() ? std::nullopt : statuses->value(dir);
                session.insert(QStringLiteral("status"),
                               map ? statusOf(*map, session.value(QStringLiteral("id")).toString())
                                   : QJsonObject {{QStringLiteral("type"), QStringLiteral("unknown")}});
                out.append(session);
            }
            result->insert(QStringLiteral("sessions"), out);
            succeed(*result);
        };
        if (directories.isEmpty())
            return compose();
        for (const QString &dir : std::as_const(directories)) {
            get(QStringLiteral("/session/status"), dir, {}, [dir, statuses, remaining, compose](auto status) {
                if (status && status->isObject())
                    statuses->insert(dir, status->toObject());
                else
                    statuses->insert(dir, std::nullopt);
                if (--*remaining == 0)
                    compose();
            });
        }
    });
}

// ---- session.status (docs/spec/control-service.md §4.7)

bool ActionRun::takeSessionAndDirectory(QString &sessionId, QString &directory)
{
    sessionId = str(m_input, "sessionId");
    if (sessionId.isEmpty()) {
        fail(usageError(QStringLiteral("sessionId is required")));
        return false;
    }
    directory = str(m_input, "directory");
    if (directory.isEmpty())
        directory = m_context;
    if (directory.isEmpty()) {
        fail(usageError(QStringLiteral("directory is required")));
        return false;
    }
    return true;
}

void ActionRun::fetchStatus(const QString &sessionId, const QString &directory, Then<QJsonObject> then)
{
    get(QStringLiteral("/session/status"), directory, {}, [this, sessionId, then](auto answer) {
        if (!answer)
            return failOpenCode(answer.error());
        if (!answer->isObject())
            return fail(runtimeError(QStringLiteral("Invalid session status response")));
        then(statusOf(answer->toObject(), sessionId));
    });
}

void ActionRun::sessionStatus()
{
    QString sessionId;
    QString directory;
    if (!takeSessionAndDirectory(sessionId, directory))
        return;
    fetchStatus(sessionId, directory, [this, sessionId, directory](const QJsonObject &status) {
        succeed({{QStringLiteral("sessionId"), sessionId},
                 {QStringLiteral("directory"), directory},
                 {QStringLiteral("sessionStatus"), status}});
    });
}

// ---- session.messages (docs/spec/control-service.md §4.8)

void ActionRun::sessionMessages()
{
    QString sessionId;
    QString directory;
    if (!takeSessionAndDirectory(sessionId, directory))
        return;
    const bool wait = isTrue(m_input.value(QStringLiteral("wait")));
    if (isPresent(m_input, QStringLiteral("timeout")) && !wait)
        return fail(usageError(QStringLiteral("timeout requires wait")));
    const bool lastAssistant = isTrue(m_input.value(QStringLiteral("lastAssistant")));
    QString roleText = str(m_input, "role");
    if (lastAssistant)
        roleText = QStringLiteral("assistant");
    if (roleText.isEmpty())
        roleText = QStringLiteral("all");
    MessageRole role = MessageRole::All;
    if (roleText == QLatin1String("user"))
        role = MessageRole::User;
    else if (roleText == QLatin1String("assistant"))
        role = MessageRole::Assistant;
    else if (roleText != QLatin1String("all"))
        return fail(usageError(QStringLiteral("role must be all, user, or assistant")));
    const bool all = isTrue(m_input.value(QStringLiteral("all")));
    const bool last = isTrue(m_input.value(QStringLiteral("last"))) || lastAssistant;
    const bool hasLimit = isPresent(m_input, QStringLiteral("limit"));
    if (all && (last || hasLimit))
        return fail(usageError(QStringLiteral("all cannot be combined with last or limit")));
    if (last && hasLimit)
        return fail(usageError(QStringLiteral("last cannot be combined with limit")));
    // Checked here, before any wait, rather than after it as the reference does
    // (docs/spec/control-service.md §14): an input error should not cost the caller a wait.
    std::optional<qint64> limit = 10;
    if (hasLimit) {
        limit = positiveSafeInteger(m_input.value(QStringLiteral("limit")));
        if (!limit)
            return fail(usageError(QStringLiteral("limit must be a positive integer")));
    }
    if (all)
        limit = std::nullopt;
    if (last)
        limit = 1;
    qint64 timeoutMs = 0;
    if (wait) {
        const auto timeout = waitTimeoutMs(m_input);
        if (!timeout)
            return fail(timeout.error());
        timeoutMs = *timeout;
    }
    m_sessionId = sessionId;
    auto withStatus = [this, sessionId, directory, role, roleText, limit](const QJsonObject &status) {
        fetchText(sessionId, directory, role, limit,
                  [this, sessionId, directory, roleText, status](QJsonArray messages) {
                      succeed({{QStringLiteral("sessionId"), sessionId},
                               {QStringLiteral("directory"), directory},
                               {QStringLiteral("role"), roleText},
                               {QStringLiteral("sessionStatus"), status},
                               {QStringLiteral("messages"), messages}});
                  });
    };
    if (wait) {
        ensureEvents(directory);
        Wait w;
        w.sessionId = sessionId;
        w.directory = directory;
        w.timeoutMs = timeoutMs;
        w.requireActivity = false;
        w.startedAt = now();
        w.then = withStatus;
        return waitForIdle(std::move(w));
    }
    fetchStatus(sessionId, directory, withStatus);
}

void ActionRun::fetchText(const QString &sessionId, const QString &directory, MessageRole role,
                          std::optional<qint64> limit, Then<QJsonArray> then)
{
    const QString path = OpenCodeClient::sessionPath(sessionId, QStringLiteral("/message"));
    auto unlimited = [this, path, directory, role, limit, then] {
        get(path, directory, {}, [this, role, limit, then](auto answer) {
            if (!answer)
                return failOpenCode(answer.error());
            QJsonArray messages = projectTextMessages(answer->toArray(), role);
            while (limit && messages.size() > *limit)
                messages.removeFirst();
            then(messages);
        });
    };
    if (!limit)
        return unlimited();
    const qint64 fetchLimit = std::max<qint64>(100, 4 * *limit);
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QString::number(fetchLimit));
    get(path, directory, query, [this, role, limit, fetchLimit, then, unlimited](auto answer) {
        if (!answer)
            return failOpenCode(answer.error());
        const QJsonArray raw = answer->toArray();
        QJsonArray messages = projectTextMessages(raw, role);
        if (messages.size() < *limit && raw.size() >= fetchLimit)
            return unlimited();
        while (messages.size() > *limit)
            messages.removeFirst();
        then(messages);
    });
}

// ---- session.create / send / fork (docs/spec/control-service.md §4.4–4.6, §5, §6)

void ActionRun::sessionAction()
{
    const bool create = m_action == QLatin1String("session.create");
    const bool send = m_action == QLatin1String("session.send");
    const bool fork = m_action == QLatin1String("session.fork");
    Q_ASSERT(create || send || fork);
    Q_UNUSED(send);

    m_wait = isTrue(m_input.value(QStringLiteral("wait")));
    m_lastAssistant = isTrue(m_input.value(QStringLiteral("lastAssistant")));
    if (isPresent(m_input, QStringLiteral("timeout")) && !m_wait)
        return fail(usageError(QStringLiteral("timeout requires wait")));
    if (m_lastAssistant && !m_wait)
        return fail(usageError(QStringLiteral("lastAssistant requires wait")));
    if (m_wait) {
        // Validated before anything is dispatched (the reference checks it only when the wait
        // starts, after the prompt went out).
        const auto timeout = waitTimeoutMs(m_input);
        if (!timeout)
            return fail(timeout.error());
        m_timeoutMs = *timeout;
    }
    m_sourceSessionId = str(m_input, "sessionId");
    m_prompt = str(m_input, "prompt");
    m_title = str(m_input, "title");
    if (!create && m_sourceSessionId.isEmpty())
        return fail(usageError(QStringLiteral("sessionId is required")));
    if (!create && m_prompt.isEmpty())
        return fail(usageError(QStringLiteral("prompt is required")));
    const bool goal = isTrue(m_input.value(QStringLiteral("goal")));
    if (isPresent(m_input, QStringLiteral("goalTokenBudget")) && !goal)
        return fail(usageError(QStringLiteral("goalTokenBudget requires goal")));
    if (goal)
        return fail(usageError(
            QStringLiteral("goal is not supported by this service; send the objective as the prompt")));
    if (create && !takeWorktreeInput())
        return;
    if (isPresent(m_input, QStringLiteral("model"))) {
        // The reference ignores a malformed model silently and picks a default; a caller who
        // named a model should hear that it was not understood instead.
        m_requested.model = ModelRef::parse(str(m_input, "model"));
        if (!m_requested.model)
            return fail(usageError(QStringLiteral("model must be in provider/model format")));
    }
    m_requested.agent = str(m_input, "agent");
    m_requested.variant = str(m_input, "variant");
    m_startedAt = now();

    resolveScope([this, create, fork](const QString &directory) {
        m_directory = directory;
        // The event stream connects while the checks run, so that the prompt need not wait for it
        // (a worktree's session runs elsewhere: its stream opens once the worktree is there).
        if (!m_prompt.isEmpty() && (m_confirmLanding || m_wait) && m_worktreeName.isEmpty())
            ensureEvents(m_directory);
        waitReady([this, create, fork] {
            auto afterValidation = [this, create, fork] {
                if (create)
                    return m_worktreeName.isEmpty() ? createSession() : createWorktree();
                m_sessionId = m_sourceSessionId;
                if (fork)
                    return forkSession();
                baselineThenDispatch();
            };
            const bool validate = !m_requested.isEmpty() && (!create || !m_prompt.isEmpty());
            if (!validate)
                return afterValidation();
            selectionInputs(m_directory, [this, afterValidation](const SelectionInputs &inputs) {
                if (const auto error = validateRequestedSelection(m_requested, inputs, m_directory))
                    return fail(*error);
                afterValidation();
            });
        });
    });
}

void ActionRun::resolveScope(Then<QString> then)
{
    m_projectId = str(m_input, "projectId");
    if (!m_projectId.isEmpty()) {
        const auto project = m_service.settings().findProject(m_projectId);
        if (!project)
            return fail(ControlError {404, QStringLiteral("Project not found"), {}});
        const auto directory = validateDirectory(project->path);
        if (!directory)
            return fail(usageError(QStringLiteral("Invalid project directory")));
        return then(*directory);
    }
    const QString explicitDirectory = str(m_input, "directory");
    if (!explicitDirectory.isEmpty() || m_action == QLatin1String("session.create")) {
        const auto directory = validateDirectory(explicitDirectory.isEmpty() ? m_context : explicitDirectory);
        if (!directory)
            return fail(directory.error());
        return then(*directory);
    }
    // send/fork with no scope: the session's own directory from OpenCode's global list (its
    // prompt must run in its own instance), else the caller's context.
    get(QStringLiteral("/experimental/session"), {}, {}, [this, then](auto answer) {
        QString found;
        if (answer) {
            for (const QJsonValue &v : answer->toArray()) {
                if (v.toObject().value(QStringLiteral("id")).toString() == m_sourceSessionId) {
                    found = str(v.toObject(), "directory");
                    break;
                }
            }
        } else {
            qCDebug(lcControl).noquote() << "global session lookup failed:" << answer.error().message;
        }
        const auto directory = validateDirectory(found.isEmpty() ? m_context : found);
        if (!directory)
            return fail(directory.error());
        then(*directory);
    });
}

void ActionRun::waitReady(Step then)
{
    if (m_readyDeadline == 0)
        m_readyDeadline = now() + m_service.options().readyTimeoutMs;
    get(QStringLiteral("/global/health"), {}, {}, [this, then](auto answer) {
        if (answer && isTrue(answer->toObject().value(QStringLiteral("healthy"))))
            return then();
        if (!answer &&
            (answer.error().kind == OpenCodeError::Kind::Unauthorized ||
             answer.error().kind == OpenCodeError::Kind::CannotRun))
            return failOpenCode(answer.error());
        if (now() >= m_readyDeadline) {
            if (!answer)
                return failOpenCode(answer.error());
            return fail(runtimeError(
                QStringLiteral("OpenCode at %1 does not report itself healthy (GET /global/health)")
                    .arg(m_client.baseUrl().toString())));
        }
        sleep(m_service.options().readyIntervalMs, [this, then] { waitReady(then); });
    });
}

void ActionRun::selectionInputs(const QString &directory, Then<const SelectionInputs &> then)
{
    if (m_inputs)
        return then(*m_inputs);
    // Three lookups in parallel; each failure leaves its part empty
    // (docs/spec/control-service.md §6.1), never an error.
    auto inputs = std::make_shared<SelectionInputs>();
    auto remaining = std::make_shared<int>(3);
    auto oneDone = [this, inputs, remaining, then] {
        if (--*remaining > 0)
            return;
        m_inputs = *inputs;
        then(*m_inputs);
    };
    get(QStringLiteral("/config/providers"), directory, {}, [inputs, oneDone](auto answer) {
        if (answer)
            inputs->providers = answer->toObject().value(QStringLiteral("providers")).toArray();
        oneDone();
    });
    get(QStringLiteral("/agent"), directory, {}, [inputs, oneDone](auto answer) {
        if (answer)
            inputs->agents = answer->toArray();
        oneDone();
    });
    get(QStringLiteral("/config"), directory, {}, [inputs, oneDone](auto answer) {
        if (answer)
            inputs->config = answer->toObject();
        oneDone();
    });
}

void ActionRun::createSession()
{
    QJsonObject body {{QStringLiteral("directory"), m_directory}};
    if (!m_title.isEmpty())
        body.insert(QStringLiteral("title"), m_title);
    post(QStringLiteral("/session"), m_directory, body, [this](auto answer) {
        if (!answer)
            return failOpenCode(answer.error(), QStringLiteral("session create failed"));
        const QJsonObject session = answer->toObject();
        QString id = str(session, "id");
        if (id.isEmpty())
            id = str(session.value(QStringLiteral("data")).toObject(), "id");
        if (id.isEmpty())
            return fail(runtimeError(QStringLiteral("failed to create session")));
        // Unlike the reference, a failure from here on says the session exists
        // (docs/spec/control-service.md §5.1 quirk).
        targetCreated(id, QStringLiteral("session-created"));
        m_freshSession = true;
        m_result = {{QStringLiteral("sessionId"), id}, {QStringLiteral("directory"), m_directory}};
        if (!m_projectId.isEmpty())
            m_result.insert(QStringLiteral("projectId"), m_projectId);
        if (!m_title.isEmpty())
            m_result.insert(QStringLiteral("title"), m_title);
        if (!m_worktree.isEmpty())
            m_result.insert(QStringLiteral("worktree"), m_worktree);
        if (m_prompt.isEmpty()) {
            setDispatched(false, false);
            return finishSessionAction();
        }
        dispatch(false);
    });
}

void ActionRun::targetCreated(const QString &sessionId, const QString &partialAction)
{
    m_sessionId = sessionId;
    m_partial = {{QStringLiteral("partial"), true},
                 {QStringLiteral("partialAction"), partialAction},
                 {QStringLiteral("sessionId"), sessionId},
                 {QStringLiteral("directory"), m_directory}};
}

void ActionRun::setDispatched(bool dispatched, bool asCommand)
{
    m_result.insert(QStringLiteral("promptDispatched"), dispatched);
    m_result.insert(QStringLiteral("dispatchedAsCommand"), asCommand);
}

void ActionRun::forkSession()
{
    QJsonObject body;
    const QString messageId = str(m_input, "messageId");
    if (!messageId.isEmpty())
        body.insert(QStringLiteral("messageID"), messageId);
    post(OpenCodeClient::sessionPath(m_sourceSessionId, QStringLiteral("/fork")), m_directory, body,
         [this](auto answer) {
             if (!answer)
                 return failOpenCode(answer.error(), QStringLiteral("session fork failed"));
             const QJsonObject session = answer->toObject();
             const QString id = str(session, "id");
             if (id.isEmpty())
                 return fail(runtimeError(QStringLiteral("failed to fork session")));
             targetCreated(id, QStringLiteral("fork-created"));
             m_result = {{QStringLiteral("action"), QStringLiteral("fork")},
                         {QStringLiteral("sessionId"), id},
                         {QStringLiteral("sourceSessionId"), m_sourceSessionId},
                         {QStringLiteral("directory"), m_directory}};
             const QString title = str(session, "title");
             if (!title.isEmpty())
                 m_result.insert(QStringLiteral("title"), title);
             baselineThenDispatch();
         });
}

void ActionRun::baselineThenDispatch()
{
    if (m_result.isEmpty())
        m_result = {{QStringLiteral("action"), QStringLiteral("send")},
                    {QStringLiteral("sessionId"), m_sessionId},
                    {QStringLiteral("directory"), m_directory}};
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("100"));
    get(OpenCodeClient::sessionPath(m_sessionId, QStringLiteral("/message")), m_directory, query,
        [this](auto answer) {
            if (answer)
                m_baselineAssistant = latestCompletedAssistantId(answer->toArray());
            dispatch(true);
        });
}

void ActionRun::dispatch(bool reuse)
{
    Selection selection = m_requested;
    auto withDefaults = [this](Selection selection) {
        if (selection.model && !selection.agent.isEmpty())
            return dispatchWith(std::move(selection));
        selectionInputs(m_directory, [this, selection](const SelectionInputs &inputs) mutable {
            const Selection defaults = resolveDefaultSelection(m_service.settings(), inputs);
            if (!selection.model) {
                selection.model = defaults.model;
                if (selection.variant.isEmpty())
                    selection.variant = defaults.variant;
            }
            if (selection.agent.isEmpty())
                selection.agent = defaults.agent;
            dispatchWith(std::move(selection));
        });
    };
    if (!reuse || (selection.model && !selection.agent.isEmpty()))
        return withDefaults(std::move(selection));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("20"));
    get(OpenCodeClient::sessionPath(m_sessionId, QStringLiteral("/message")), m_directory, query,
        [selection, withDefaults](auto answer) mutable {
            const std::optional<Selection> previous =
                answer ? lastUserSelection(answer->toArray()) : std::optional<Selection>();
            if (previous) {
                if (!selection.model) {
                    selection.model = previous->model;
                    if (selection.variant.isEmpty())
                        selection.variant = previous->variant;
                }
                if (selection.agent.isEmpty())
                    selection.agent = previous->agent;
            }
            withDefaults(std::move(selection));
        });
}

void ActionRun::dispatchWith(Selection selection)
{
    if (!selection.model)
        return fail(
            usageError(QStringLiteral("No model is configured or available for the requested directory")));
    m_result.insert(QStringLiteral("model"), selection.model->toJson());
    if (!selection.agent.isEmpty())
        m_result.insert(QStringLiteral("agent"), selection.agent);
    if (!selection.variant.isEmpty())
        m_result.insert(QStringLiteral("variant"), selection.variant);
    if (!m_prompt.startsWith(QLatin1Char('/')))
        return dispatchPrompt(selection);
    const QString firstLine = m_prompt.section(QLatin1Char('\n'), 0, 0).trimmed();
    const qsizetype space = firstLine.indexOf(QRegularExpression(QStringLiteral("\\s")));
    const QString command = (space < 0 ? firstLine : firstLine.left(space)).mid(1);
    const QString arguments = space < 0 ? QString() : firstLine.mid(space + 1).trimmed();
    if (command.isEmpty())
        return dispatchPrompt(selection);
    get(QStringLiteral("/command"), m_directory, {}, [this, selection, command, arguments](auto answer) {
        bool known = false;
        if (answer) {
            for (const QJsonValue &v : answer->toArray())
                known = known || v.toObject().value(QStringLiteral("name")).toString() == command;
        }
        if (known)
            return dispatchCommand(selection, command, arguments);
        dispatchPrompt(selection);
    });
}

void ActionRun::dispatchCommand(const Selection &selection, const QString &command, const QString &arguments)
{
    QJsonObject body {{QStringLiteral("command"), command},
                      {QStringLiteral("arguments"), arguments},
                      {QStringLiteral("model"), selection.model->toString()}};
    if (!selection.agent.isEmpty())
        body.insert(QStringLiteral("agent"), selection.agent);
    if (!selection.variant.isEmpty())
        body.insert(QStringLiteral("variant"), selection.variant);
    // The command runs to its end before OpenCode answers: it gets the wait's time, not 15 s.
    const int timeoutMs = int(std::max<qint64>(m_timeoutMs, 600 * 1000));
    m_client.post(
        OpenCodeClient::sessionPath(m_sessionId, QStringLiteral("/command")), m_directory, body, this,
        [this](auto answer) {
            if (!answer)
                return failOpenCode(answer.error(), QStringLiteral("command failed"));
            setDispatched(true, true);
            Q_EMIT m_service.promptDispatched(m_directory, m_sessionId);
            finishSessionAction();
        },
        timeoutMs);
}

} // namespace OpenChamber
