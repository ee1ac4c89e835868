#pragma once

#include "app/tray/pages/messagelog.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace Broker {
class BrokerClient;
}

namespace App {

class MessageFilterModel;
class MessageLogFeed;
class MessageThreadsModel;
class OperatorPeer;

// Page "messages": the broker-wide log with its threads, filters and delivery ticks, and the
// operator's send box (to a peer, a scope or everyone; Reply in a thread). Live while visible
// (MessageLogFeed); nothing is asked of the broker while hidden.
class MessagesPage : public QWidget
{
    Q_OBJECT
public:
    MessagesPage(Broker::BrokerClient &client, OperatorPeer *operatorPeer, QWidget *parent = nullptr);

    // Shows the thread between the operator and peerId (a notification's "Open"), with the send
    // box aimed at that peer.
    void openPeer(const QString &peerId);
    // openPeer, then selects that message once the log holds it (a scheduled task's last run).
    void openMessage(const QString &peerId, qint64 messageId);

    MessageLogModel *logModel() const { return m_log; }
    MessageThreadsModel *threadsModel() const { return m_threads; }
    MessageFilterModel *filterModel() const { return m_filter; }
    MessageLogFeed *feed() const { return m_feed; }
    const PeerDirectory &peers() const { return m_peers; }
    QListView *threadsView() const { return m_threadsView; }
    QTableView *messagesView() const { return m_messagesView; }
    QLineEdit *searchEdit() const { return m_search; }
    QComboBox *targetCombo() const { return m_target; }
    QLineEdit *textEdit() const { return m_text; }
    QPushButton *sendButton() const { return m_send; }
    QPushButton *replyButton() const { return m_reply; }
    QLabel *statusLabel() const { return m_status; }

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void fillTargets();
    void fillFilters();
    void applyFilters();
    void onThreadSelected();
    void sendNow();
    void replyNow();
    void setStatus(const QString &text, bool error = false);
    void updateOperatorLabel();
    std::optional<Broker::Message> selectedMessage() const;
    void selectPendingMessage();

    OperatorPeer *m_operator;
    PeerDirectory m_peers;
    MessageLogModel *m_log;
    MessageThreadsModel *m_threads;
    QSortFilterProxyModel *m_threadsSorted;
    MessageFilterModel *m_filter;
    MessageLogFeed *m_feed;
    QListView *m_threadsView;
    QTableView *m_messagesView;
    QLineEdit *m_search;
    QComboBox *m_peerFilter;
    QComboBox *m_scopeFilter;
    QPushButton *m_older;
    QComboBox *m_target;
    QLineEdit *m_text;
    QPushButton *m_send;
    QPushButton *m_reply;
    QLabel *m_status;
    QLabel *m_operatorLabel;
    QTimer *m_searchDelay;
    bool m_followTail = true;
    bool m_targetChosen = false; // the user (or openPeer) picked the send box's target
    qint64 m_pendingMessage = 0; // openMessage's, until the log holds it
};

} // namespace App
