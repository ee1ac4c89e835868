#pragma once

#include <QList>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimeEdit;

namespace App {

class SchedulesPresenter;

// The Schedules page: every project's scheduled prompts, and the tasks that message a peer, with
// their target, next run, last run and last status; enable/disable, run now, delete (after a
// confirmation), open the last run's session (or its message on the Messages page); and a form to
// create a task — for a new OpenCode session in a project, or a message to a peer picked from the
// live ones (or typed: it need not be connected yet) — daily / weekly / once / cron, with a time
// zone, whose refusals by the service are shown under it. A thin adapter over SchedulesPresenter.
class SchedulesPage : public QWidget
{
    Q_OBJECT
public:
    using Confirm = std::function<bool(const QString &question)>;

    // Takes the presenter over when it has no parent.
    explicit SchedulesPage(SchedulesPresenter *presenter, QWidget *parent = nullptr);

    SchedulesPresenter *presenter() const { return m_presenter; }
    // Asks before deleting (a message box by default; tests answer themselves).
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }

    QTableView *view() const { return m_view; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QPushButton *toggleButton() const { return m_toggle; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *deleteButton() const { return m_delete; }
    QPushButton *openSessionButton() const { return m_openSession; } // or "Open the message"
    QComboBox *targetBox() const { return m_target; } // a new OpenCode session (0) or a peer (1)
    QComboBox *peerBox() const { return m_peer; }
    QComboBox *projectBox() const { return m_project; }
    QLineEdit *nameEdit() const { return m_name; }
    QPlainTextEdit *promptEdit() const { return m_prompt; }
    QComboBox *modelBox() const { return m_model; }
    QLineEdit *agentEdit() const { return m_agent; }
    QLineEdit *variantEdit() const { return m_variant; }
    QComboBox *kindBox() const { return m_kind; }
    QTimeEdit *timeEdit() const { return m_time; }
    QDateEdit *dateEdit() const { return m_date; }
    QLineEdit *cronEdit() const { return m_cron; }
    QList<QCheckBox *> weekdayBoxes() const { return m_weekdays; } // Sunday first
    QComboBox *timeZoneBox() const { return m_zone; }
    QCheckBox *disabledBox() const { return m_disabled; }
    QPushButton *createButton() const { return m_create; }
    QLabel *createErrorLabel() const { return m_createError; }
    QLabel *statusLabel() const { return m_status; }

    // Selects the task's row (tests, a notification about a failed run).
    void selectTask(const QString &projectId, const QString &taskId);

Q_SIGNALS:
    // "Open the session" of the selected task's last run.
    void openSessionRequested(const QString &directory, const QString &sessionId);
    // "Open the message" a peer task's last run sent.
    void openMessageRequested(const QString &peerId, qint64 messageId);

private:
    int selectedRow() const; // in the model; -1 when none
    void updateActions();
    void fillProjects();
    void fillModels();
    void fillPeers();
    void targetChanged();
    bool targetsPeer() const;
    void create();
    void kindChanged();

    void showEvent(QShowEvent *event) override;

    SchedulesPresenter *m_presenter;
    Confirm m_confirm;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLabel *m_status;
    QPushButton *m_refresh;
    QPushButton *m_toggle;
    QPushButton *m_run;
    QPushButton *m_delete;
    QPushButton *m_openSession;
    QComboBox *m_target;
    QComboBox *m_peer;
    QComboBox *m_project;
    QLineEdit *m_name;
    QPlainTextEdit *m_prompt;
    QComboBox *m_model;
    QLineEdit *m_agent;
    QLineEdit *m_variant;
    QComboBox *m_kind;
    QTimeEdit *m_time;
    QDateEdit *m_date;
    QLineEdit *m_cron;
    QList<QCheckBox *> m_weekdays;
    QWidget *m_weekdayRow;
    QComboBox *m_zone;
    QCheckBox *m_disabled;
    QPushButton *m_create;
    QLabel *m_createError;
};

} // namespace App
