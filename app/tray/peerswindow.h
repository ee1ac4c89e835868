#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace App {

class PeersModel;
class TrayPresenter;

// The local peers in a sortable, filterable table, with the broker's status line underneath
// (and a Retry button when it is not running, for desktops without a system tray).
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

    // Brings the window up, raised and focused (from the tray menu or a second click).
    void showAndRaise();

Q_SIGNALS:
    void retryRequested();

private:
    void updateStatus();

    TrayPresenter *m_presenter;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLineEdit *m_filter;
    QLabel *m_status;
    QPushButton *m_retry;
};

} // namespace App
