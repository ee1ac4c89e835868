#pragma once

#include "common/brokerapi.h"

#include <QObject>
#include <QTimer>

namespace App {

class MessageLogModel;
class PeerDirectory;

// Keeps the log model in step with the broker while the page is visible (nothing while hidden):
// every second the messages after the newest listed (oldest first, again at once while the
// broker says "more"), the state of up to 500 unsettled messages (walking down the list, so
// every one is refreshed in turn), and every 5 s the peers (/list-peers, scope lan) for labels
// and ticks. All over the broker's routes (POST /messages, main token), so it works with any
// broker process, and `claude-peers messages --json` shows the same.
class MessageLogFeed : public QObject
{
    Q_OBJECT
public:
    static constexpr int IntervalMs = 1000;
    static constexpr int PeersEveryTicks = 5;
    static constexpr int FirstPage = 500; // newest messages loaded when the page opens
    static constexpr int PageSize = 1000;
    static constexpr int OlderPage = 200;
    static constexpr int RefreshIds = 500; // HistoryRequest::maxIds

    MessageLogFeed(Broker::BrokerClient &client, MessageLogModel *model, PeerDirectory *peers,
                   QObject *parent = nullptr);

    // Visible: fetch now and every IntervalMs; hidden: stop.
    void setActive(bool active);
    bool isActive() const { return m_active; }
    // One round now (new messages, states, peers when due).
    void refresh();
    // The page before the oldest listed.
    void loadOlder();
    // Search the whole log (the broker's substring search), merged into the list.
    void search(const QString &text);

Q_SIGNALS:
    void peersUpdated();
    void failed(const QString &message);
    void caughtUp(); // a round found no more new messages
    void olderLoaded(int count, bool more);

private:
    void fetchNew();
    void refreshStates();
    void fetchPeers();
    void scheduleNext();
    // Merges the answer's messages; false after reporting a failure (and, for a step of the
    // round, scheduling the next round).
    bool take(const Broker::Result<Broker::HistoryAnswer> &answer, bool endsRound);
    void advanceFetched(const Broker::HistoryAnswer &answer);

    Broker::BrokerApi m_api;
    MessageLogModel *m_model;
    PeerDirectory *m_peers;
    QTimer m_timer;
    bool m_active = false;
    bool m_inFlight = false; // a round is running: the timer waits for it
    bool m_loaded = false; // the first page came
    // The newest id the first page and the live tail brought: the next round asks after it.
    // Not the model's newest row: the page merges messages out of band (the operator's own,
    // search results), and asking after those would skip older ones never fetched.
    qint64 m_fetchedUpTo = 0;
    int m_ticks = 0;
    qint64 m_refreshBelow = 0; // where the state refresh walks on from
    quint64 m_generation = 0;
};

} // namespace App
