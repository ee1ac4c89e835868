#pragma once

#include "broker/internal/privateheader.h"

#include "broker/http/httptypes.h"
#include "common/result.h"

#include <QString>

namespace Broker {

class Clock;
class Store;

// `Idempotency-Key` on /send-message and /broadcast (docs/decisions.md, "A re-sent
// /send-message is stored once"): a client that sends a request again after its connection
// closed before the answer (a broker that closed an idle keep-alive connection as the request
// went out, or one that died after storing) sends the same key, and a broker that already
// answered it gives the first answer again instead of storing the message twice. The answer is
// recorded in the batch of what the request stored, so both are committed or neither. Optional:
// without the header (0.7 clients) nothing changes. Answers echo the key, which tells a client
// that this broker honours it.
namespace RequestKey {

inline constexpr QByteArrayView headerName = "idempotency-key";
inline constexpr QByteArrayView echoName = "Idempotency-Key";
inline constexpr qsizetype maxLength = 128;
// How long an answer is kept: re-sends come at once, within a request's timeout.
inline constexpr qint64 keepMs = 10 * 60 * 1000;

bool appliesTo(QByteArrayView path);
// 1 to maxLength visible ASCII characters; else a 400 error that says so.
Result<QString> validated(QByteArrayView header);
// The first answer, given again, with the key echoed.
Http::Response replay(const QByteArray &answer, const QString &key);
// Answers through inner, echoing the key; a 200 answer is recorded for (sender, key) first.
Http::ResponderPtr recording(Http::ResponderPtr inner, Store &store, const Clock &clock, QString sender,
                             QString key);

} // namespace RequestKey

} // namespace Broker
