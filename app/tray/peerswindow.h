#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace App {

class PeersModel;
class TrayPresenter;

// The Peers page: local and LAN peers in a sortable, filterable table, with the broker's status
// line underneath (and a Retry button when it is not running, for desktops without a system tray).
class PeersWindow : public QWidget
{
    Q_OBJECT
public:
    PeersWindow(PeersModel *model, TrayPresenter *presenter, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QLineEdit *filterEdit() const { return m_filter; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *retryButton() const { return m_retry; }

    // Selects the peer's row and scrolls to it (a peer entry of the tray menu); the window
    // that holds this page brings itself up.
    void selectPeer(const QString &peerId);

Q_SIGNALS:
    void retryRequested();

private:
    void updateStatus();

    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

    PeersModel *m_model;
    TrayPresenter *m_presenter;
    QTimer *m_times; // moves the times in state on while the window is shown
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLineEdit *m_filter;
    QLabel *m_status;
    QPushButton *m_retry;
};

} // namespace App
