#pragma once

#include "openchamber/controlinput.h"
#include "openchamber/controlservice.h"
#include "openchamber/messageprojection.h"
#include "openchamber/opencodeclient.h"
#include "openchamber/opencodeevents.h"
#include "openchamber/selection.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>

namespace OpenChamber {

class SessionService;

// One execute() call of the session service, from validation to its single answer. It owns
// every request, timer and event stream of the call (they die with it), so an answer — success,
// error or cancellation — ends all of them. Deletes itself after answering.
class ActionRun : public QObject
{
    Q_OBJECT
public:
    ActionRun(SessionService &service, QString action, QJsonObject input, QString contextDirectory,
              CancelToken cancel, ControlCallback done);
    ~ActionRun() override;

    void start();
    // Off for scheduled runs (docs/spec/control-service.md §9.3): success is OpenCode accepting the prompt.
    void setConfirmLanding(bool confirm) { m_confirmLanding = confirm; }

private:
    template<typename T> using Then = std::function<void(T)>;
    using Step = std::function<void()>;

    // Answers
    void succeed(const QJsonObject &result);
    void fail(ControlError error);
    void failOpenCode(const OpenCodeError &error, const QString &prefix = {});
    void stopEverything(); // timers and the event stream; requests end with this object

    // Plumbing
    void get(const QString &path, const QString &directory, const QUrlQuery &query,
             Then<OpenCodeResult<QJsonValue>> then);
    void post(const QString &path, const QString &directory, const QJsonObject &body,
              Then<OpenCodeResult<QJsonValue>> then);
    void sleep(qint64 ms, Step then); // woken early by wake()
    void wake();
    qint64 now() const;
    void ensureEvents(const QString &directory);
    void onEvent(const QJsonObject &event);

    // sessionId (required) and directory (input, else context; required); false = answered.
    bool takeSessionAndDirectory(QString &sessionId, QString &directory);
    // GET /session/status of directory → the session's entry, idle when absent.
    void fetchStatus(const QString &sessionId, const QString &directory, Then<QJsonObject> then);

    // Actions
    void listSessions();
    void sessionStatus();
    void sessionMessages();
    void sessionAction(); // create, send, fork

    // Steps shared by the session actions
    void resolveScope(Then<QString> then);
    void waitReady(Step then);
    void selectionInputs(const QString &directory, Then<const SelectionInputs &> then);
    void createSession();

    // session.create with a worktree (docs/spec/control-service.md §5.1 step 7), in
    // actionworktree.cpp: OpenCode creates it (POST /experimental/worktree) and reports its
    // bootstrap on /global/event only, so that stream is open before the worktree is asked for; the
    // session is created once it is ready.
    bool takeWorktreeInput(); // false = answered (refused)
    void createWorktree();
    void postWorktree();
    void bootstrapStep();
    void onGlobalEvent(const QJsonObject &event);
    void globalEventsEnded(const QString &reason);
    void stopGlobalEvents();
    // The session the prompt goes to now exists: later errors carry it as a partial result.
    void targetCreated(const QString &sessionId, const QString &partialAction);
    void setDispatched(bool dispatched, bool asCommand);
    void forkSession();
    void baselineThenDispatch();
    void dispatch(bool reuse);
    void dispatchWith(Selection selection);
    void dispatchCommand(const Selection &selection, const QString &command, const QString &arguments);
    // A plain prompt and its landing check (docs/spec/control-service.md §6.4–6.5), in actionlanding.cpp.
    void dispatchPrompt(const Selection &selection);
    void postPrompt(const Selection &selection);
    void confirmLanding();
    void landed(bool yes);

    // The wait of docs/spec/control-service.md §8, in actionwait.cpp; finishSessionAction answers a
    // create/send/fork or waits.
    void finishSessionAction();
    struct Wait
    {
        QString sessionId;
        QString directory;
        qint64 deadline = 0;
        qint64 timeoutMs = 0;
        bool requireActivity = false;
        bool observed = false;
        QString baselineAssistant;
        qint64 startedAt = 0;
        Then<QJsonObject> then; // the final sessionStatus
    };
    void waitForIdle(Wait wait);
    void waitStep();
    void waitSleep();
    void fetchText(const QString &sessionId, const QString &directory, MessageRole role,
                   std::optional<qint64> limit, Then<QJsonArray> then);

    SessionService &m_service;
    OpenCodeClient &m_client;
    QString m_action;
    QJsonObject m_input;
    QString m_context;
    CancelToken m_cancel;
    ControlCallback m_done;
    bool m_answered = false;
    bool m_confirmLanding = true;
    bool m_freshSession = false; // created by this action: its baseline is empty
    QJsonObject m_partial; // details every error answer carries from now on

    QObject *m_sleeper = nullptr;
    Step m_afterSleep;
    OpenCodeEventStream *m_events = nullptr;
    OpenCodeEventStream *m_globalEvents = nullptr; // only while a worktree bootstraps
    qint64 m_readyDeadline = 0;
    bool m_sawActivity = false; // the event stream reported the session busy since it opened

    // Session actions' state
    QString m_prompt;
    QString m_title;
    Selection m_requested;
    qint64 m_timeoutMs = 0;
    bool m_wait = false;
    bool m_lastAssistant = false;
    qint64 m_startedAt = 0;
    QString m_directory;
    QString m_projectId;
    QString m_sessionId; // the target: the created session, the fork, or the session sent to
    QString m_sourceSessionId;
    QString m_worktreeName; // create: the new worktree's name; empty = none
    QJsonObject m_worktree; // {name, branch, path} once OpenCode created it
    QHash<QString, WorktreeNews> m_worktreeNews; // directory → what /global/event said of it
    qint64 m_bootstrapDeadline = 0;
    std::optional<SelectionInputs> m_inputs;
    QString m_baselineAssistant;
    QString m_baselineUser;
    qint64 m_landingDeadline = 0;
    QJsonObject m_result;

    std::optional<Wait> m_waiting;
};

} // namespace OpenChamber
