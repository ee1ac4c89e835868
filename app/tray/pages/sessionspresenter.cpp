#include "app/tray/pages/sessionspresenter.h"

#include "app/tray/pages/opencodeactivity.h"

#include <QDir>
#include <QJsonArray>

namespace App {

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QString modelText(const QJsonValue &model)
{
    if (model.isString())
        return model.toString();
    const QJsonObject m = model.toObject();
    if (str(m, "providerID").isEmpty() || str(m, "modelID").isEmpty())
        return {};
    return str(m, "providerID") + QLatin1Char('/') + str(m, "modelID");
}

void appendUnique(QStringList &list, const QString &value)
{
    if (!value.isEmpty() && !list.contains(value))
        list.append(value);
}

} // namespace

SessionsPresenter::SessionsPresenter(Broker::BrokerClient *client, OpenCodeActivity *activity,
                                     QObject *parent)
    : QObject(parent),
      m_calls(new ControlCalls(client, this)),
      m_activity(activity ? activity : new OpenCodeActivity(this)),
      m_model(new SessionsModel(this))
{
    m_model->setClock([a = m_activity] { return a->now(); });
    m_poll.setInterval(PollMs);
    connect(&m_poll, &QTimer::timeout, this, &SessionsPresenter::refresh);
    connect(m_activity, &OpenCodeActivity::sessionChanged, this, &SessionsPresenter::onActivity);
}

QString SessionsPresenter::actionFor(Kind kind)
{
    switch (kind) {
    case Kind::Create:
        return QStringLiteral("session.create");
    case Kind::Send:
        return QStringLiteral("session.send");
    case Kind::Fork:
        return QStringLiteral("session.fork");
    }
    return {};
}

std::expected<QJsonObject, QString> SessionsPresenter::inputFor(const PromptRequest &r)
{
    QJsonObject input;
    const auto text = [&input](const char *key, const QString &value) {
        if (!value.trimmed().isEmpty())
            input.insert(QLatin1String(key), value.trimmed());
    };
    if (r.kind == Kind::Create) {
        if (!r.projectId.trimmed().isEmpty())
            text("projectId", r.projectId);
        else if (!r.directory.trimmed().isEmpty())
            text("directory", QDir::cleanPath(r.directory.trimmed()));
        else
            return std::unexpected(tr("Choose a project or a directory for the new session."));
        text("title", r.title);
    } else {
        if (r.sessionId.trimmed().isEmpty())
            return std::unexpected(tr("Choose the session to send the prompt to."));
        if (r.prompt.trimmed().isEmpty())
            return std::unexpected(tr("Write the prompt to send."));
        text("sessionId", r.sessionId);
        text("directory", r.directory);
    }
    text("prompt", r.prompt);
    const QString model = r.model.trimmed();
    if (!model.isEmpty()) {
        const qsizetype slash = model.indexOf(QLatin1Char('/'));
        if (slash <= 0 || slash == model.size() - 1)
            return std::unexpected(tr("The model must be written provider/model, e.g. openai/gpt-5."));
        input.insert(QStringLiteral("model"), model);
    }
    text("agent", r.agent);
    text("variant", r.variant);
    if (r.kind == Kind::Fork)
        text("messageId", r.messageId);
    if (r.wait) {
        input.insert(QStringLiteral("wait"), true);
        input.insert(QStringLiteral("lastAssistant"), true);
        if (r.timeoutSeconds > 0)
            input.insert(QStringLiteral("timeout"), r.timeoutSeconds);
    }
    return input;
}

QStringList SessionsPresenter::modelsOffered(const QJsonObject &modelsList)
{
    QStringList models;
    appendUnique(models, str(modelsList, "defaultModel"));
    for (const char *key : {"favoriteModels", "recentModels"})
        for (const QJsonValue &m : modelsList.value(QLatin1String(key)).toArray())
            appendUnique(models, modelText(m));
    return models;
}

QStringList SessionsPresenter::directories() const
{
    QStringList list;
    for (const Project &p : m_projects)
        appendUnique(list, p.path);
    for (const QString &d : m_extraDirectories)
        appendUnique(list, d);
    return list;
}

void SessionsPresenter::setActive(bool active)
{
    if (active == m_poll.isActive())
        return;
    if (active) {
        m_poll.start();
        refresh();
    } else {
        m_poll.stop();
    }
}

void SessionsPresenter::addDirectory(const QString &directory)
{
    if (!directory.isEmpty() && !directories().contains(directory))
        m_extraDirectories.append(directory);
}

void SessionsPresenter::showSession(const QString &directory, const QString &sessionId)
{
    addDirectory(directory);
    if (m_model->rowOf(sessionId) < 0) {
        SessionsModel::Row row;
        row.session = m_activity->session(sessionId).value_or(
            OpenCodeSession {sessionId, directory, {}, {}, {}, {}, {}, m_activity->now()});
        if (row.session.directory.isEmpty())
            row.session.directory = directory;
        m_model->upsert(row);
        queueAnswer(row.session.directory, sessionId);
    }
    refresh();
}

void SessionsPresenter::refresh()
{
    if (isRefreshing()) {
        m_refreshAgain = true;
        return;
    }
    m_refreshAgain = false;
    m_firstListError.clear();
    listProjects();
}

void SessionsPresenter::listProjects()
{
    m_refreshStage = 1;
    m_calls->run(QStringLiteral("projects.list"), {}, [this](ControlOutcome outcome) {
        if (!outcome) {
            m_firstListError = ControlCalls::describe(outcome.error());
        } else {
            QList<Project> projects;
            for (const QJsonValue &v : outcome->value(QLatin1String("projects")).toArray()) {
                const QJsonObject p = v.toObject();
                projects.append({str(p, "id"), str(p, "path"), str(p, "label")});
            }
            if (projects != m_projects) {
                m_projects = projects;
                Q_EMIT projectsChanged();
            }
        }
        listModels();
    });
}

void SessionsPresenter::listModels()
{
    m_refreshStage = 2;
    m_calls->run(QStringLiteral("models.list"), {}, [this](ControlOutcome outcome) {
        if (outcome) {
            Choices next = m_choices;
            next.defaultModel = str(*outcome, "defaultModel");
            next.defaultAgent = str(*outcome, "defaultAgent");
            next.defaultVariant = str(*outcome, "defaultVariant");
            QStringList models = modelsOffered(*outcome);
            for (const QString &m : std::as_const(m_choices.models))
                appendUnique(models, m);
            next.models = models;
            appendUnique(next.agents, next.defaultAgent);
            appendUnique(next.variants, next.defaultVariant);
            if (next != m_choices) {
                m_choices = next;
                Q_EMIT choicesChanged();
            }
        } else if (m_firstListError.isEmpty()) {
            m_firstListError = ControlCalls::describe(outcome.error());
        }
        m_refreshStage = 0;
        listSessions();
    });
}

void SessionsPresenter::listSessions()
{
    const QStringList dirs = directories();
    m_listsPending = int(dirs.size());
    const auto done = [this] {
        if (--m_listsPending > 0)
            return;
        m_lastRefreshError = m_firstListError;
        if (!m_firstListError.isEmpty())
            Q_EMIT refreshFailed(m_firstListError);
        Q_EMIT refreshed();
        nextAnswer();
        if (m_refreshAgain)
            refresh();
    };
    if (dirs.isEmpty()) {
        m_listsPending = 1;
        done();
        return;
    }
    for (const QString &directory : dirs) {
        const QJsonObject input {{QStringLiteral("directory"), directory},
                                 {QStringLiteral("withStatus"), true},
                                 {QStringLiteral("limit"), ListLimit}};
        m_calls->run(QStringLiteral("session.list"), input, [this, directory, done](ControlOutcome outcome) {
            if (outcome)
                onSessions(directory, *outcome);
            else if (m_firstListError.isEmpty())
                m_firstListError = ControlCalls::describe(outcome.error());
            done();
        });
    }
}

void SessionsPresenter::onSessions(const QString &directory, const QJsonObject &result)
{
    QList<SessionsModel::Row> rows;
    for (const QJsonValue &v : result.value(QLatin1String("sessions")).toArray()) {
        const QJsonObject s = v.toObject();
        const QString id = str(s, "id");
        if (id.isEmpty())
            continue;
        const QString sessionDirectory = str(s, "directory").isEmpty() ? directory : str(s, "directory");
        const QString status =
            s.value(QLatin1String("status")).toObject().value(QLatin1String("type")).toString();
        m_activity->noteListed(sessionDirectory, id, str(s, "title"), status);
        SessionsModel::Row row;
        row.session = m_activity->session(id).value_or(OpenCodeSession {});
        row.session.directory = directory; // the listing's key, so the next listing replaces it
        row.updatedAt = s.value(QLatin1String("time")).toObject().value(QLatin1String("updated")).toDouble();
        // Its last answer is read again only when OpenCode says the session changed.
        const auto asked = m_answerAskedFor.constFind(id);
        if (asked == m_answerAskedFor.cend() || *asked != row.updatedAt) {
            m_answerAskedFor.insert(id, row.updatedAt);
            queueAnswer(sessionDirectory, id);
        }
        rows.append(row);
    }
    m_model->setDirectorySessions(directory, rows);
}

void SessionsPresenter::queueAnswer(const QString &directory, const QString &sessionId)
{
    const QPair<QString, QString> item {directory, sessionId};
    if (!m_answerQueue.contains(item))
        m_answerQueue.append(item);
    if (!isRefreshing())
        nextAnswer();
}

void SessionsPresenter::nextAnswer()
{
    // One at a time: a page of sessions must not open twenty connections at once.
    if (m_answerRunning || m_answerQueue.isEmpty())
        return;
    // Named copies, not a structured binding: clang 15 cannot capture those in the lambda below.
    const QPair<QString, QString> next = m_answerQueue.takeFirst();
    const QString directory = next.first;
    const QString sessionId = next.second;
    m_answerRunning = true;
    const QJsonObject input {{QStringLiteral("sessionId"), sessionId},
                             {QStringLiteral("directory"), directory},
                             {QStringLiteral("lastAssistant"), true}};
    m_calls->run(QStringLiteral("session.messages"), input, [this, sessionId](ControlOutcome outcome) {
        m_answerRunning = false;
        if (outcome) {
            const QJsonArray messages = outcome->value(QLatin1String("messages")).toArray();
            if (!messages.isEmpty())
                m_model->setLastAssistant(sessionId, str(messages.last().toObject(), "text"));
        }
        nextAnswer();
    });
}

void SessionsPresenter::onActivity(const QString &sessionId)
{
    const std::optional<OpenCodeSession> session = m_activity->session(sessionId);
    if (!session)
        return;
    const int index = m_model->rowOf(sessionId);
    if (index < 0) {
        // A session the watcher follows that no listing showed yet (created elsewhere).
        SessionsModel::Row row;
        row.session = *session;
        if (row.session.directory.isEmpty())
            return;
        addDirectory(row.session.directory);
        m_model->upsert(row);
        // Events carry no title: one listing of its folder names it everywhere (OpenCodeActivity
        // learns it from the listing), also while the Sessions page is hidden.
        refresh();
        return;
    }
    const bool wasIdle = m_model->rowAt(index).session.status == QLatin1String("idle");
    m_model->updateLive(*session);
    if (!wasIdle && session->status == QLatin1String("idle"))
        queueAnswer(m_model->rowAt(index).session.directory, sessionId); // a run ended: its answer
}

bool SessionsPresenter::start(const PromptRequest &request)
{
    const QString action = actionFor(request.kind);
    if (isRunning()) {
        Q_EMIT actionFailed(action, 400, tr("Wait for %1 to finish, or cancel it.").arg(m_runningAction));
        return false;
    }
    const std::expected<QJsonObject, QString> input = inputFor(request);
    if (!input) {
        Q_EMIT actionFailed(action, 400, input.error());
        return false;
    }
    m_runningAction = action;
    m_waiting = request.wait;
    m_runningClock.start();
    m_actionId = m_calls->run(action, *input, [this, action](ControlOutcome outcome) {
        m_actionId = 0;
        finishAction(action, outcome);
    });
    Q_EMIT actionStarted(action, request.wait);
    return true;
}

void SessionsPresenter::cancel()
{
    if (!isRunning())
        return;
    m_calls->cancel(std::exchange(m_actionId, 0));
    Q_EMIT actionCancelled(m_runningAction);
}

void SessionsPresenter::finishAction(const QString &action, const ControlOutcome &outcome)
{
    if (!outcome) {
        const Broker::ControlFailure &failure = outcome.error();
        // A fork created before a later step failed is a session all the same.
        const QString forked = failure.partial.value(QLatin1String("sessionId")).toString();
        if (!forked.isEmpty())
            showSession(failure.partial.value(QLatin1String("directory")).toString(), forked);
        Q_EMIT actionFailed(action, failure.status, ControlCalls::describe(failure));
        return;
    }
    const QJsonObject &r = *outcome;
    const QString sessionId = str(r, "sessionId");
    const QString directory = str(r, "directory");
    if (!sessionId.isEmpty()) {
        addDirectory(directory);
        const QString status =
            r.value(QLatin1String("sessionStatus")).toObject().value(QLatin1String("type")).toString();
        const std::optional<OpenCodeSession> known = m_activity->session(sessionId);
        const QString title = str(r, "title").isEmpty() && known ? known->title : str(r, "title");
        m_activity->noteListed(directory, sessionId, title, status);
        SessionsModel::Row row;
        row.session = m_activity->session(sessionId).value_or(OpenCodeSession {});
        row.lastAssistant =
            r.value(QLatin1String("lastAssistantMessage")).toObject().value(QLatin1String("text")).toString();
        m_model->upsert(row);
    }
    rememberAgent(str(r, "agent"));
    Q_EMIT actionFinished(action, r);
}

void SessionsPresenter::rememberAgent(const QString &agent)
{
    if (agent.isEmpty() || m_choices.agents.contains(agent))
        return;
    m_choices.agents.append(agent);
    Q_EMIT choicesChanged();
}

} // namespace App
