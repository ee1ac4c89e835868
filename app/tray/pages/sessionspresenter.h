#pragma once

#include "app/tray/pages/controlcalls.h"
#include "app/tray/pages/sessionsmodel.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <expected>

namespace App {

class OpenCodeActivity;

// What the Sessions page does, without widgets: lists projects and sessions (projects.list,
// models.list, session.list withStatus per directory, session.messages lastAssistant for the
// last answers), keeps the live status from OpenCodeActivity, and runs create / send / fork with
// an optional wait that can be cancelled. Every request is the `claude-peers … --json` twin's:
//   projects.list ↔ claude-peers projects --json;  models.list ↔ claude-peers models --json
//   session.list ↔ session list --dir D --with-status;  session.messages ↔ session messages
//   --session S --dir D --last-assistant;  session.create|send|fork ↔ session create|send|fork …
class SessionsPresenter : public QObject
{
    Q_OBJECT
public:
    static constexpr int PollMs = 10000; // while the page is shown; events update sooner
    static constexpr int ListLimit = 20; // sessions per directory

    struct Project
    {
        QString id;
        QString path;
        QString label;
        bool operator==(const Project &) const = default;
    };

    // What the pickers offer: models.list's defaults, favorites and recents; the agents the
    // service confirmed (its default, and those accepted by earlier prompts).
    struct Choices
    {
        QString defaultModel;
        QString defaultAgent;
        QString defaultVariant;
        QStringList models;
        QStringList agents;
        QStringList variants;
        bool operator==(const Choices &) const = default;
    };

    enum class Kind { Create, Send, Fork };
    struct PromptRequest
    {
        Kind kind = Kind::Create;
        QString directory; // create: this or projectId; send/fork: the session's
        QString projectId;
        QString sessionId; // send, fork
        QString messageId; // fork: where (empty: the whole session)
        QString title; // create
        QString prompt;
        QString model; // "provider/model" or empty
        QString agent;
        QString variant;
        bool wait = false;
        int timeoutSeconds = 0; // 0: the service's default (600)
    };

    // activity may be null: the presenter then keeps its own (no pushed events).
    SessionsPresenter(Broker::BrokerClient *client, OpenCodeActivity *activity, QObject *parent = nullptr);

    SessionsModel *model() const { return m_model; }
    OpenCodeActivity *activity() const { return m_activity; }
    const QList<Project> &projects() const { return m_projects; }
    const Choices &choices() const { return m_choices; }
    QStringList directories() const; // the projects' and those added, listed by refresh()
    bool isRefreshing() const { return m_listsPending > 0 || m_refreshStage != 0; }
    // Why the last refresh failed (the first failure, in plain words); empty when it did not.
    QString lastRefreshError() const { return m_lastRefreshError; }

    // The action and input a request means, as the CLI would send it; or what is missing.
    static QString actionFor(Kind kind);
    static std::expected<QJsonObject, QString> inputFor(const PromptRequest &request);
    // The models a models.list answer offers: the default, then favorites, then recents.
    static QStringList modelsOffered(const QJsonObject &modelsList);

    // Polls while active (the page is shown); refreshes at once when it becomes active.
    void setActive(bool active);
    void refresh();
    // Lists directory too from now on (a session created there, a schedule's session).
    void addDirectory(const QString &directory);
    // Makes sure the session has a row (refreshing its directory), for "open the session".
    void showSession(const QString &directory, const QString &sessionId);

    // Starts one create / send / fork; false (and actionFailed) when the request is incomplete
    // or another one runs.
    bool start(const PromptRequest &request);
    // Aborts the running action: the broker cancels its wait (nothing is reported afterwards).
    void cancel();
    bool isRunning() const { return m_actionId != 0; }
    QString runningAction() const { return m_runningAction; }
    bool isWaiting() const { return isRunning() && m_waiting; }
    qint64 runningMs() const { return isRunning() ? m_runningClock.elapsed() : 0; }

Q_SIGNALS:
    void projectsChanged();
    void choicesChanged();
    void refreshed(); // every directory answered (or failed)
    void refreshFailed(const QString &message);
    void actionStarted(const QString &action, bool wait);
    void actionFinished(const QString &action, const QJsonObject &result);
    // status: the service's (400/404 = the request is invalid), 0 when the broker was not reached.
    void actionFailed(const QString &action, int status, const QString &message);
    void actionCancelled(const QString &action);

private:
    void listProjects();
    void listModels();
    void listSessions();
    void onSessions(const QString &directory, const QJsonObject &result);
    void queueAnswer(const QString &directory, const QString &sessionId);
    void nextAnswer();
    void onActivity(const QString &sessionId);
    void finishAction(const QString &action, const ControlOutcome &outcome);
    void rememberAgent(const QString &agent);

    ControlCalls *m_calls;
    OpenCodeActivity *m_activity;
    SessionsModel *m_model;
    QTimer m_poll;
    QList<Project> m_projects;
    Choices m_choices;
    QStringList m_extraDirectories;
    int m_refreshStage = 0; // 1 projects, 2 models; 0 idle
    int m_listsPending = 0;
    bool m_refreshAgain = false;
    QString m_firstListError;
    QString m_lastRefreshError;
    QList<QPair<QString, QString>> m_answerQueue; // (directory, sessionId)
    bool m_answerRunning = false;
    QHash<QString, double> m_answerAskedFor; // sessionId → the time.updated its answer was read at
    quint64 m_actionId = 0;
    QString m_runningAction;
    bool m_waiting = false;
    QElapsedTimer m_runningClock;
};

} // namespace App
