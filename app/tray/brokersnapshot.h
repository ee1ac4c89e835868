#pragma once

#include "common/dto.h"

#include <QList>
#include <QMetaType>
#include <QStringList>

namespace Broker {
class BrokerServer;
}

namespace App {

// What the GUI shows of the broker, as a value: computed on the broker thread (where SQLite
// is) and handed to the GUI thread in a queued signal, so the GUI never reads the broker.
struct BrokerSnapshot
{
    QList<Broker::Peer> peers; // local peers (liveness-pruned, in the broker's order), then the lan's
    qint64 pendingMessages = 0; // stored and not yet acknowledged
    QStringList federationWarnings; // e.g. the PSK is still a copy of the local token

    bool operator==(const BrokerSnapshot &) const = default;

    // On the broker thread only: a peers SELECT with a kill(pid, 0) per peer, the federation
    // module's remote peers and warnings (kept in memory, plus its legacy-use count) and the counts.
    static BrokerSnapshot of(const Broker::BrokerServer &server);
};

} // namespace App

Q_DECLARE_METATYPE(App::BrokerSnapshot)
