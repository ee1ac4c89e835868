#pragma once

#include <QPointer>
#include <QWidget>

#include <functional>

class QCheckBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QTableView;
class QTimer;
class QVBoxLayout;

namespace App {

class FederationPresenter;

// The Federation page ("federation"): this machine (on/off, join URL, fingerprint, one-time
// pairing code with its countdown and QR code), pairing requests as cards with the
// confirm-the-code step, federation warnings with the command that fixes each, paired machines
// with their live link and Revoke, and the audit trail of refused attempts. Everything it does
// goes through FederationPresenter, whose actions are the CLI's (its header lists the twins).
class FederationPage : public QWidget
{
    Q_OBJECT
public:
    explicit FederationPage(FederationPresenter *presenter, QWidget *parent = nullptr);

    FederationPresenter *presenter() const { return m_presenter; }
    QCheckBox *enabledBox() const { return m_enabled; }
    QLabel *statusLabel() const { return m_status; }
    QLineEdit *joinUrlEdit() const { return m_joinUrl; }
    QLineEdit *fingerprintEdit() const { return m_fingerprint; }
    QPushButton *pairCodeButton() const { return m_pairCodeButton; }
    QLabel *codeLabel() const { return m_code; }
    QLabel *countdownLabel() const { return m_countdown; }
    QLabel *qrLabel() const { return m_qr; }
    QWidget *requestsBox() const { return m_requests; }
    QWidget *warningsBox() const { return m_warnings; }
    QTableView *pairedView() const { return m_pairedView; }
    QPushButton *revokeButton() const { return m_revokeButton; }
    QPushButton *rotateKeyButton() const { return m_rotateButton; }
    QFrame *confirmBar() const { return m_confirmBar; }
    QPushButton *confirmYesButton() const { return m_confirmYes; }
    QTableView *attemptsView() const { return m_attemptsView; }
    QTableView *ignoredView() const { return m_ignoredView; }
    QPushButton *unignoreButton() const { return m_unignoreButton; }
    QLabel *messageLabel() const { return m_message; }
    // The card of a pairing request (objectName "pendingCard-<id>"), null when not shown.
    QFrame *cardOf(const QString &id) const;

public Q_SLOTS:
    // What a notification's "Open" does once the window shows this page: the request's card is
    // shown (even if dismissed), scrolled to and focused.
    void showPendingRequest(const QString &id);

private:
    void updateOverview();
    void updateCode();
    void rebuildCards();
    void rebuildWarnings();
    void askToConfirm(const QString &question, const QString &yes, std::function<void()> action);
    void showMessage(const QString &action, bool ok, const QString &message);
    QFrame *makeCard(const QString &id);

    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

    FederationPresenter *m_presenter;
    QScrollArea *m_scroll;
    QCheckBox *m_enabled;
    QLabel *m_status;
    QLineEdit *m_hostname;
    QLineEdit *m_joinUrl;
    QLineEdit *m_fingerprint;
    QPushButton *m_pairCodeButton;
    QLabel *m_code;
    QLabel *m_countdown;
    QLabel *m_qr;
    QTimer *m_tick;
    QWidget *m_requests;
    QVBoxLayout *m_requestsLayout;
    QWidget *m_warnings;
    QVBoxLayout *m_warningsLayout;
    QTableView *m_pairedView;
    QPushButton *m_revokeButton;
    QPushButton *m_rotateButton;
    QFrame *m_confirmBar;
    QLabel *m_confirmText;
    QPushButton *m_confirmYes;
    QPushButton *m_confirmNo;
    std::function<void()> m_confirmAction;
    QTableView *m_attemptsView;
    QTableView *m_ignoredView;
    QPushButton *m_unignoreButton;
    QLabel *m_message;
    QString m_shownCode; // the code the QR image was drawn for
};

} // namespace App
