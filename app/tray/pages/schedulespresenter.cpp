#include "app/tray/pages/schedulespresenter.h"

#include "common/brokerapi.h"

#include <QJsonArray>
#include <QPointer>

namespace App {

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

} // namespace

SchedulesPresenter::SchedulesPresenter(Broker::BrokerClient *client, QObject *parent)
    : QObject(parent),
      m_client(client),
      m_calls(new ControlCalls(client, this)),
      m_model(new SchedulesModel(this))
{
}

QJsonObject SchedulesPresenter::createInput(const ScheduleRequest &r)
{
    QJsonObject input;
    const auto text = [&input](const char *key, const QString &value) {
        if (!value.trimmed().isEmpty())
            input.insert(QLatin1String(key), value.trimmed());
    };
    if (r.peer.trimmed().isEmpty()) {
        text("projectId", r.projectId);
    } else {
        text("peer", r.peer);
    }
    text("name", r.name);
    text("prompt", r.prompt);
    if (r.peer.trimmed().isEmpty()) {
        text("model", r.model);
        text("agent", r.agent);
        text("variant", r.variant);
    }
    switch (r.kind) {
    case Kind::Daily:
        text("daily", r.time);
        break;
    case Kind::Weekly: {
        QStringList days;
        for (const int d : r.weekdays)
            days << QString::number(d);
        text("weekly", days.join(QLatin1Char(',')));
        text("time", r.time);
        break;
    }
    case Kind::Once:
        text("once", r.date);
        text("time", r.time);
        break;
    case Kind::Cron:
        text("cron", r.cron);
        break;
    }
    text("timezone", r.timezone);
    if (r.disabled)
        input.insert(QStringLiteral("disabled"), true);
    return input;
}

SchedulesPresenter::Project SchedulesPresenter::project(const QString &projectId) const
{
    for (const Project &p : m_projects)
        if (p.id == projectId)
            return p;
    return {projectId, {}, projectId};
}

void SchedulesPresenter::refresh()
{
    if (isRefreshing()) {
        m_again = true;
        return;
    }
    m_again = false;
    m_firstError.clear();
    m_pending = 1;
    listPeers();
    m_calls->run(QStringLiteral("models.list"), {}, [this](ControlOutcome outcome) {
        if (!outcome)
            return;
        const QStringList models = SessionsPresenter::modelsOffered(*outcome);
        if (models != m_models) {
            m_models = models;
            Q_EMIT modelsChanged();
        }
    });
    m_calls->run(QStringLiteral("projects.list"), {}, [this](ControlOutcome outcome) {
        if (!outcome) {
            m_pending = 0;
            m_lastRefreshError = ControlCalls::describe(outcome.error());
            Q_EMIT refreshFailed(m_lastRefreshError);
            Q_EMIT refreshed();
            return;
        }
        QList<Project> projects;
        QStringList ids;
        for (const QJsonValue &v : outcome->value(QLatin1String("projects")).toArray()) {
            const QJsonObject p = v.toObject();
            projects.append({str(p, "id"), str(p, "path"), str(p, "label")});
            ids << str(p, "id");
        }
        ids << QString(); // the tasks that target peers
        m_model->retainProjects(ids);
        if (projects != m_projects) {
            m_projects = projects;
            Q_EMIT projectsChanged();
        }
        listTasks();
    });
}

void SchedulesPresenter::listPeers()
{
    if (!m_client)
        return;
    Broker::ListPeersRequest request;
    request.scope = QStringLiteral("machine");
    Broker::BrokerApi(*m_client).call(
        request, [self = QPointer(this)](Broker::Result<Broker::ListPeersAnswer> answer) {
            if (!self || !answer)
                return; // the task lists say what is wrong
            if (answer->peers != self->m_livePeers) {
                self->m_livePeers = answer->peers;
                Q_EMIT self->livePeersChanged();
            }
        });
}

void SchedulesPresenter::listTasks()
{
    m_pending = int(m_projects.size()) + 1;
    const auto done = [this] {
        if (--m_pending > 0)
            return;
        m_lastRefreshError = m_firstError;
        if (!m_firstError.isEmpty())
            Q_EMIT refreshFailed(m_firstError);
        Q_EMIT refreshed();
        if (m_again)
            refresh();
    };
    m_calls->run(QStringLiteral("schedule.list"), {{QStringLiteral("peers"), true}},
                 [this, done](ControlOutcome outcome) {
                     if (outcome)
                         m_model->setProjectTasks({}, {}, {},
                                                  outcome->value(QLatin1String("tasks")).toArray());
                     else if (m_firstError.isEmpty())
                         m_firstError = ControlCalls::describe(outcome.error());
                     done();
                 });
    for (const Project &p : std::as_const(m_projects)) {
        m_calls->run(QStringLiteral("schedule.list"), {{QStringLiteral("projectId"), p.id}},
                     [this, p, done](ControlOutcome outcome) {
                         if (outcome)
                             m_model->setProjectTasks(p.id, p.label, p.path,
                                                      outcome->value(QLatin1String("tasks")).toArray());
                         else if (m_firstError.isEmpty())
                             m_firstError = ControlCalls::describe(outcome.error());
                         done();
                     });
    }
}

void SchedulesPresenter::act(const QString &action, const QJsonObject &input,
                             std::function<void(const QJsonObject &)> succeeded)
{
    ++m_actions;
    m_calls->run(action, input, [this, action, succeeded = std::move(succeeded)](ControlOutcome outcome) {
        --m_actions;
        if (!outcome) {
            const QString message = ControlCalls::describe(outcome.error());
            if (action == QLatin1String("schedule.create") && outcome.error().isValidation())
                Q_EMIT createRefused(message);
            Q_EMIT actionFailed(action, outcome.error().status, message);
            return;
        }
        succeeded(*outcome);
        Q_EMIT actionFinished(action);
    });
}

void SchedulesPresenter::create(const ScheduleRequest &request)
{
    const QString projectId = request.peer.trimmed().isEmpty() ? request.projectId : QString();
    act(QStringLiteral("schedule.create"), createInput(request), [this, projectId](const QJsonObject &r) {
        const QJsonObject task = r.value(QLatin1String("task")).toObject();
        const Project p = project(projectId);
        m_model->upsertTask(projectId, p.label, p.path, task);
        Q_EMIT created(projectId, str(task, "id"));
    });
}

void SchedulesPresenter::setEnabled(const QString &projectId, const QString &taskId, bool enabled)
{
    act(QStringLiteral("schedule.toggle"),
        {{QStringLiteral("projectId"), projectId},
         {QStringLiteral("taskId"), taskId},
         {QStringLiteral("disabled"), !enabled}},
        [this, projectId](const QJsonObject &r) {
            const Project p = project(projectId);
            m_model->upsertTask(projectId, p.label, p.path, r.value(QLatin1String("task")).toObject());
        });
}

void SchedulesPresenter::runNow(const QString &projectId, const QString &taskId)
{
    act(QStringLiteral("schedule.run"),
        {{QStringLiteral("projectId"), projectId}, {QStringLiteral("taskId"), taskId}},
        [this, projectId, taskId](const QJsonObject &r) {
            const Project p = project(projectId);
            m_model->upsertTask(projectId, p.label, p.path, r.value(QLatin1String("task")).toObject());
            if (r.contains(QLatin1String("messageId")))
                Q_EMIT messageSent(taskId, str(r, "peerId"), r.value(QLatin1String("messageId")).toInteger());
            else
                Q_EMIT ran(projectId, taskId, str(r, "sessionId"));
        });
}

void SchedulesPresenter::remove(const QString &projectId, const QString &taskId)
{
    act(QStringLiteral("schedule.delete"),
        {{QStringLiteral("projectId"), projectId}, {QStringLiteral("taskId"), taskId}},
        [this, projectId, taskId](const QJsonObject &) { m_model->removeTask(projectId, taskId); });
}

} // namespace App
