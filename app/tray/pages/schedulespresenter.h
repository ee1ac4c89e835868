#pragma once

#include "app/tray/pages/controlcalls.h"
#include "app/tray/pages/schedulesmodel.h"
#include "app/tray/pages/sessionspresenter.h"
#include "common/dto.h"

#include <QObject>

#include <expected>

namespace App {

// What the Schedules page does, without widgets. Each call is a CLI twin's:
//   projects.list ↔ claude-peers projects --json
//   schedule.list ↔ claude-peers schedule list --project P --json (for every project), and
//                   schedule list --peers --json (the tasks that message peers)
//   schedule.create ↔ schedule create --project P --name … --prompt … --model … --daily …,
//                     or schedule create --peer NAME --name … --prompt … --daily …
//   the live peers for the peer picker ↔ claude-peers peers --json
//   schedule.toggle ↔ schedule enable|disable --project P --task T
//   schedule.run ↔ schedule run --project P --task T;  schedule.delete ↔ schedule delete …
class SchedulesPresenter : public QObject
{
    Q_OBJECT
public:
    using Project = SessionsPresenter::Project;

    enum class Kind { Daily, Weekly, Once, Cron };
    struct ScheduleRequest
    {
        QString peer; // a peer's session name (or id): the task messages it; projectId, model… unused
        QString projectId;
        QString name;
        QString prompt;
        QString model; // provider/model
        QString agent;
        QString variant;
        Kind kind = Kind::Daily;
        QString time; // "HH:mm": daily, weekly, once
        QList<int> weekdays; // weekly, 0 = Sunday
        QString date; // once, "YYYY-MM-DD"
        QString cron;
        QString timezone; // IANA id; empty: the broker's
        bool disabled = false;
    };

    explicit SchedulesPresenter(Broker::BrokerClient *client, QObject *parent = nullptr);

    SchedulesModel *model() const { return m_model; }
    const QList<Project> &projects() const { return m_projects; }
    const QStringList &models() const { return m_models; } // for the model picker
    // The peers connected to this broker now (machine scope), for the peer picker.
    const QList<Broker::Peer> &livePeers() const { return m_livePeers; }
    bool isRefreshing() const { return m_pending > 0; }
    bool isBusy() const { return m_actions > 0; }
    // Why the last refresh failed (the first failure, in plain words); empty when it did not.
    QString lastRefreshError() const { return m_lastRefreshError; }

    // The input of schedule.create as the CLI builds it (the service validates the rest).
    static QJsonObject createInput(const ScheduleRequest &request);

    void refresh();
    void create(const ScheduleRequest &request);
    void setEnabled(const QString &projectId, const QString &taskId, bool enabled);
    void runNow(const QString &projectId, const QString &taskId);
    void remove(const QString &projectId, const QString &taskId);

Q_SIGNALS:
    void projectsChanged();
    void modelsChanged();
    void livePeersChanged();
    void refreshed();
    void refreshFailed(const QString &message);
    void created(const QString &projectId, const QString &taskId);
    // The create form's answer when the service refused the task (400/404): shown inline.
    void createRefused(const QString &message);
    void ran(const QString &projectId, const QString &taskId, const QString &sessionId);
    // A task that targets a peer ran: its message and the peer it went to.
    void messageSent(const QString &taskId, const QString &peerId, qint64 messageId);
    void actionFinished(const QString &action);
    void actionFailed(const QString &action, int status, const QString &message);

private:
    Project project(const QString &projectId) const;
    void listTasks();
    void listPeers();
    void act(const QString &action, const QJsonObject &input,
             std::function<void(const QJsonObject &)> succeeded);

    Broker::BrokerClient *m_client;
    ControlCalls *m_calls;
    SchedulesModel *m_model;
    QList<Project> m_projects;
    QStringList m_models;
    QList<Broker::Peer> m_livePeers;
    int m_pending = 0;
    int m_actions = 0;
    bool m_again = false;
    QString m_firstError;
    QString m_lastRefreshError;
};

} // namespace App
