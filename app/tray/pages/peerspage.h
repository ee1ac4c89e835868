#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTimer;
class QTreeView;

namespace Broker {
class BrokerClient;
}

namespace App {

class PeersByMachineModel;
class PeersModel;
class TrayPresenter;

// The Peers page: local and remote peers grouped by machine (this machine first), who needs you
// first within each machine; per row name, state and time in it, id, project and branch,
// summary, reachability badge and a same-folder marker; a filter; a details panel with every
// field (copyable) and a rename box. The broker's status line sits underneath, with Retry when
// it is not running (for desktops without a tray). Renaming goes through the broker's
// /set-name with the main token, like `claude-peers rename <peer-id> <name> --json`.
class PeersPage : public QWidget
{
    Q_OBJECT
public:
    // client may be null (no rename then).
    PeersPage(PeersModel *model, TrayPresenter *presenter, Broker::BrokerClient *client,
              QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    PeersByMachineModel *tree() const { return m_tree; }
    QLineEdit *filterEdit() const { return m_filter; }
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
    QString selectedPeerId() const;

Q_SIGNALS:
    void retryRequested();
    // The broker confirmed a rename (the table follows with the next snapshot).
    void peerRenamed(const QString &peerId, const QString &name);

private:
    void updateStatus();
    void updateDetails();
    void rename();

    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

    PeersModel *m_model;
    TrayPresenter *m_presenter;
    Broker::BrokerClient *m_client;
    PeersByMachineModel *m_tree;
    QTimer *m_times; // moves the times in state and the badges on while the page is shown
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    QLineEdit *m_filter;
    QPlainTextEdit *m_details;
    QPushButton *m_copyDetails;
    QLineEdit *m_nameEdit;
    QPushButton *m_rename;
    QLabel *m_renameStatus;
    QLabel *m_status;
    QPushButton *m_retry;
    QString m_detailsPeer; // whose details show (the rename box is filled only when it changes)
};

} // namespace App
