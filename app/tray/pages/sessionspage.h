#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QTimer;

namespace App {

class SessionsPresenter;

// The Sessions page (OpenCode): the sessions of the configured projects and of the directories
// used here, with live status (needs you / busy / retrying / idle), time in state and the last
// answer; a form to create a session or send to / fork the selected one, with model, agent and
// variant pickers, an optional wait with its indicator and Cancel, and the service's errors in
// plain words. A thin adapter over SessionsPresenter.
class SessionsPage : public QWidget
{
    Q_OBJECT
public:
    // Takes the presenter over when it has no parent.
    explicit SessionsPage(SessionsPresenter *presenter, QWidget *parent = nullptr);

    SessionsPresenter *presenter() const { return m_presenter; }
    QTableView *view() const { return m_view; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QComboBox *whereBox() const { return m_where; }
    QLineEdit *titleEdit() const { return m_title; }
    QPlainTextEdit *promptEdit() const { return m_prompt; }
    QComboBox *modelBox() const { return m_model; }
    QComboBox *agentBox() const { return m_agent; }
    QComboBox *variantBox() const { return m_variant; }
    QCheckBox *waitBox() const { return m_wait; }
    QSpinBox *timeoutBox() const { return m_timeout; }
    QPushButton *createButton() const { return m_create; }
    QPushButton *sendButton() const { return m_send; }
    QPushButton *forkButton() const { return m_fork; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *waitIndicator() const { return m_progress; }
    QLabel *waitLabel() const { return m_waitLabel; }
    QLabel *errorLabel() const { return m_error; }
    QLabel *statusLabel() const { return m_status; }
    QPlainTextEdit *answerView() const { return m_answer; }

    // The selected session's id ("" when none).
    QString selectedSessionId() const;
    // Selects the session (listing its directory if needed), e.g. a schedule's last run.
    void selectSession(const QString &directory, const QString &sessionId);

private:
    void fillWhere();
    void fillChoices();
    void startPrompt(int kind);
    void updateActions();
    void updateAnswer();
    void tick();
    void selectPending();

    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

    SessionsPresenter *m_presenter;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLabel *m_status;
    QPushButton *m_refresh;
    QPlainTextEdit *m_answer;
    QComboBox *m_where;
    QLineEdit *m_title;
    QPlainTextEdit *m_prompt;
    QComboBox *m_model;
    QComboBox *m_agent;
    QComboBox *m_variant;
    QCheckBox *m_wait;
    QSpinBox *m_timeout;
    QPushButton *m_create;
    QPushButton *m_send;
    QPushButton *m_fork;
    QProgressBar *m_progress;
    QLabel *m_waitLabel;
    QPushButton *m_cancel;
    QLabel *m_error;
    QTimer *m_ticker; // time in state and the wait indicator, every second while shown
    QString m_pendingSelection;
};

} // namespace App
