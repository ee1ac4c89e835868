#pragma once

#include "app/tray/peerscope.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QTreeView;

namespace Broker {
class BrokerClient;
}

namespace App {

class OpenCodeActivity;
class OpenCodeRowsModel;
class PeersByMachineModel;
class PeersFilterProxy;
class PeersModel;
class TrayPresenter;

// The Peers page: local and remote peers grouped by machine (this machine first), with this
// machine's OpenCode sessions among its peers (showOpenCodeSessions), who needs you first
// within each machine; per row name, state and time in it, id, project and branch, scope,
// summary, reachability badge and a same-folder marker; a scope filter (machine / repo /
// folder, 0.7's scopes) and a text filter; a details panel with every field (copyable), a
// rename box, and the row's action: Message (a peer: the Messages page on its thread) or Send,
// fork or wait (an OpenCode session: the Sessions page on it). The broker's status line sits
// underneath, with Retry when it is not running (for desktops without a tray). Renaming goes
// through the broker's /set-name with the main token, like `claude-peers rename <peer-id>
// <name> --json`.
class PeersPage : public QWidget
{
    Q_OBJECT
public:
    // client may be null (no rename then).
    PeersPage(PeersModel *model, TrayPresenter *presenter, Broker::BrokerClient *client,
              QWidget *parent = nullptr);

    // The OpenCode sessions the control service drives join this machine's peers.
    void showOpenCodeSessions(OpenCodeActivity *activity);

    QTreeView *view() const { return m_view; }
    PeersFilterProxy *proxy() const { return m_proxy; }
    PeersByMachineModel *tree() const { return m_tree; }
    OpenCodeRowsModel *openCodeRows() const { return m_openCodeRows; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *scopeBox() const { return m_scope; }
    QPushButton *messageButton() const { return m_message; }
    QPushButton *openSessionButton() const { return m_openSession; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *retryButton() const { return m_retry; }
    QPlainTextEdit *detailsView() const { return m_details; }
    QPushButton *copyDetailsButton() const { return m_copyDetails; }
    QLineEdit *nameEdit() const { return m_nameEdit; }
    QPushButton *renameButton() const { return m_rename; }
    QLabel *renameStatus() const { return m_renameStatus; }

    // Selects the peer's row and scrolls to it (a peer entry of the tray menu, a notification's
    // Open); the window that holds this page brings itself up.
    void selectPeer(const QString &peerId);
    QString selectedPeerId() const; // "" when none or an OpenCode session is selected
    void selectSession(const QString &sessionId);
    QString selectedSessionId() const; // "" when none or a peer is selected

Q_SIGNALS:
    void retryRequested();
    // Message: the operator writes to the peer (the Messages page on its thread).
    void messageRequested(const QString &peerId);
    // Send, fork or wait: the Sessions page on the session, where those actions live.
    void openSessionRequested(const QString &directory, const QString &sessionId);
    // The broker confirmed a rename (the table follows with the next snapshot).
    void peerRenamed(const QString &peerId, const QString &name);

private:
    void updateStatus();
    void updateDetails();
    void showDetails(const QString &text);
    void updateScopes();
    void rename();
    void select(const QModelIndex &treeIndex);
    void actOn(const QModelIndex &index); // the row's action (double click, Enter)
    void refreshTimes();

    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

    PeersModel *m_model;
    TrayPresenter *m_presenter;
    Broker::BrokerClient *m_client;
    PeersByMachineModel *m_tree;
    OpenCodeRowsModel *m_openCodeRows = nullptr;
    QTimer *m_times; // moves the times in state and the badges on while the page is shown
    PeersFilterProxy *m_proxy;
    QTreeView *m_view;
    QLineEdit *m_filter;
    QComboBox *m_scope;
    QList<PeerScope> m_scopes; // the scope box's entries, in its order
    QPlainTextEdit *m_details;
    QPushButton *m_copyDetails;
    QPushButton *m_message;
    QPushButton *m_openSession;
    QLineEdit *m_nameEdit;
    QPushButton *m_rename;
    QLabel *m_renameStatus;
    QLabel *m_status;
    QPushButton *m_retry;
    QString m_detailsPeer; // whose details show (the rename box is filled only when it changes)
};

} // namespace App
