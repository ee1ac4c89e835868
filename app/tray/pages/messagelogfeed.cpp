#include "app/tray/pages/messagelogfeed.h"

#include "app/tray/pages/messagelog.h"

#include <QSet>

#include <algorithm>
#include <limits>

namespace App {

MessageLogFeed::MessageLogFeed(Broker::BrokerClient &client, MessageLogModel *model, PeerDirectory *peers,
                               QObject *parent)
    : QObject(parent), m_api(client), m_model(model), m_peers(peers)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(IntervalMs);
    m_timer.callOnTimeout(this, &MessageLogFeed::refresh);
}

void MessageLogFeed::setActive(bool active)
{
    if (m_active == active)
        return;
    m_active = active;
    if (active) {
        refresh();
    } else {
        m_timer.stop();
        ++m_generation; // answers of a round still running are still merged, but it stops there
    }
}

void MessageLogFeed::scheduleNext()
{
    m_inFlight = false;
    if (m_active)
        m_timer.start();
}

bool MessageLogFeed::take(const Broker::Result<Broker::HistoryAnswer> &answer, bool endsRound)
{
    if (!answer) {
        Q_EMIT failed(answer.error().message);
        if (endsRound)
            scheduleNext();
        return false;
    }
    m_model->merge(answer->messages, answer->handouts);
    return true;
}

void MessageLogFeed::advanceFetched(const Broker::HistoryAnswer &answer)
{
    for (const Broker::Message &m : answer.messages)
        m_fetchedUpTo = std::max(m_fetchedUpTo, m.id);
}

void MessageLogFeed::refresh()
{
    if (m_inFlight)
        return;
    m_inFlight = true;
    m_timer.stop();
    if (m_ticks++ % PeersEveryTicks == 0)
        fetchPeers();
    if (m_loaded) {
        fetchNew();
        return;
    }
    const quint64 generation = m_generation;
    Broker::HistoryRequest request;
    request.limit = FirstPage;
    m_api.call(request, [this, generation](Broker::Result<Broker::HistoryAnswer> answer) {
        if (!take(answer, true))
            return;
        advanceFetched(*answer);
        m_loaded = true;
        if (generation != m_generation) {
            m_inFlight = false;
            return;
        }
        fetchNew();
    });
}

void MessageLogFeed::fetchNew()
{
    const quint64 generation = m_generation;
    Broker::HistoryRequest request;
    request.afterId = m_fetchedUpTo;
    request.ascending = true;
    request.limit = PageSize;
    m_api.call(request, [this, generation](Broker::Result<Broker::HistoryAnswer> answer) {
        if (!take(answer, true))
            return;
        advanceFetched(*answer);
        if (generation != m_generation) {
            m_inFlight = false;
            return;
        }
        if (answer->more) {
            fetchNew();
            return;
        }
        Q_EMIT caughtUp();
        refreshStates();
    });
}

void MessageLogFeed::refreshStates()
{
    const QList<qint64> ids = m_model->unsettledIds(RefreshIds, m_refreshBelow);
    m_refreshBelow = ids.size() < RefreshIds ? 0 : ids.last();
    if (ids.isEmpty()) {
        scheduleNext();
        return;
    }
    Broker::HistoryRequest request;
    request.ids = ids;
    request.limit = RefreshIds;
    m_api.call(request, [this, ids](Broker::Result<Broker::HistoryAnswer> answer) {
        if (!take(answer, true))
            return;
        // Newest first: when the size bound cut the answer, ids below the last one are unknown.
        QSet<qint64> found;
        qint64 lowestFound = std::numeric_limits<qint64>::max();
        for (const Broker::Message &m : std::as_const(answer->messages)) {
            found.insert(m.id);
            lowestFound = std::min(lowestFound, m.id);
        }
        QList<qint64> missing;
        for (qint64 id : ids) {
            if (!found.contains(id) && (!answer->more || id > lowestFound))
                missing.append(id);
        }
        m_model->markMissing(missing);
        scheduleNext();
    });
}

void MessageLogFeed::fetchPeers()
{
    Broker::ListPeersRequest request;
    request.scope = QStringLiteral("lan");
    m_api.call(request, [this](Broker::Result<Broker::ListPeersAnswer> answer) {
        if (!answer)
            return; // the log's own requests say what is wrong
        m_peers->update(answer->peers);
        m_model->peersChanged();
        Q_EMIT peersUpdated();
    });
}

void MessageLogFeed::loadOlder()
{
    Broker::HistoryRequest request;
    request.beforeId = m_model->lowestId();
    request.limit = OlderPage;
    m_api.call(request, [this](Broker::Result<Broker::HistoryAnswer> answer) {
        if (take(answer, false))
            Q_EMIT olderLoaded(int(answer->messages.size()), answer->more);
    });
}

void MessageLogFeed::search(const QString &text)
{
    if (text.isEmpty())
        return;
    Broker::HistoryRequest request;
    request.search = text.left(int(Broker::HistoryRequest::maxFilterBytes / 3));
    request.limit = OlderPage;
    m_api.call(request, [this](Broker::Result<Broker::HistoryAnswer> answer) { take(answer, false); });
}

} // namespace App
