#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <variant>

// The messages two broker processes exchange on the hand-over socket (docs/decisions.md
// "Listening sockets handed over"). One JSON object per SOCK_SEQPACKET message; the offer
// carries the listening sockets as SCM_RIGHTS in the same message, in the order it names them.
//
//   successor → running broker:  {"handover":1,"pid":P,"database":"/path/.claude-peers.db"}
//   running broker → successor:  {"offer":1,"pid":P,"listeners":[{"name":"local","port":7899},…]}
//                            or  {"refused":"why"}
//   running broker → successor:  {"done":true}  (its database is closed: the successor may open it)
//                            or  {"done":false,"error":"why"}
namespace Broker::Handover {

inline constexpr int kProtocolVersion = 1;
inline constexpr int kMaxMessageBytes = 4096; // a longer message is refused unread
inline constexpr int kMaxListeners = 4;

struct Request
{
    qint64 pid = 0;
    QString databasePath;
    bool operator==(const Request &) const = default;
};

struct Listener
{
    QString name; // "local" (the API port), "federation"
    quint16 port = 0;
    bool operator==(const Listener &) const = default;
};

struct Offer
{
    qint64 pid = 0;
    QList<Listener> listeners; // one descriptor each, in this order
    bool operator==(const Offer &) const = default;
};

struct Refusal
{
    QString reason;
    bool operator==(const Refusal &) const = default;
};

struct Done
{
    bool ok = true;
    QString error;
    bool operator==(const Done &) const = default;
};

using Message = std::variant<Request, Offer, Refusal, Done>;

QByteArray encode(const Message &message);
// Errors (kind BadRequest): too large, not a JSON object, an unknown kind, a missing or
// out-of-range field, another protocol version.
Result<Message> decode(QByteArrayView bytes);

// Where the broker serving `port` listens for a successor: $XDG_RUNTIME_DIR (Qt's runtime
// location, owner-only) + claude-peers-broker-<port>.handover.
QString socketPath(quint16 port);

} // namespace Broker::Handover
