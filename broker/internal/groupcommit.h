#pragma once

#include "broker/internal/privateheader.h"

#include "broker/http/httptypes.h"

#include <QList>
#include <QObject>
#include <QPair>

namespace Broker {

class Store;

// Group commit for the request path. SQLite's cost is per commit, so the writes of every
// request handled in one event-loop pass share one transaction, committed right after the
// pass. Answers given meanwhile are held and sent after the commit, so an answer never reports
// a write that is not durable yet (and a failed commit turns them into 500s). Held answers
// are memory the connections' write budgets cannot see: past maxHeldBytes the batch commits
// early and they go out.
class GroupCommit : public QObject
{
    Q_OBJECT
public:
    static constexpr qsizetype maxHeldBytes = 1024 * 1024;

    explicit GroupCommit(Store &store, QObject *parent = nullptr);
    ~GroupCommit() override;

    // Opens a batch unless one is open, and schedules its commit after this event-loop pass.
    void open();
    // Commits now and sends the held answers (also run by the scheduled commit and by stop()).
    void flush();
    // flush() when the held answers reached maxHeldBytes (called between requests).
    void flushIfHeavy();

    // A responder whose answers wait for the commit of the open batch, if any.
    Http::ResponderPtr wrap(const Http::ResponderPtr &responder);

    bool isHolding() const;
    void hold(const Http::ResponderPtr &responder, const Http::Response &response);

Q_SIGNALS:
    // A commit failed and the batch was rolled back: what it stored does not exist.
    void rolledBack();

private:
    Store &m_store;
    QList<QPair<Http::ResponderPtr, Http::Response>> m_held;
    qsizetype m_heldBytes = 0;
    bool m_scheduled = false;
};

} // namespace Broker
