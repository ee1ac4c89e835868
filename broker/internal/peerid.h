#pragma once

#include "broker/internal/privateheader.h"

#include <QByteArray>
#include <QString>

namespace Broker::PeerId {

// docs/spec/peers-api.md §7.9: the first 8 lower-case hex characters of SHA-256 over the tty's UTF-8 bytes,
// so a session keeps its id (and its queued mail) across reconnects.
QString fromTty(const QString &tty);
// 8 characters from [a-z0-9] for sessions without a tty (CSPRNG, unlike the reference).
QString random();
// fromTty() when tty is non-empty, else random().
QString derive(const QString &tty);

} // namespace Broker::PeerId

namespace Broker::SessionSecret {

// 32 CSPRNG bytes as 64 lower-case hex characters (docs/protocol.md).
QByteArray generate();
// What the database keeps: SHA-256 of the secret as lower-case hex.
QByteArray hash(const QByteArray &secret);
// True for 64 lower-case hex characters (cheap filter before a database lookup).
bool looksLikeSecret(const QByteArray &credential);

} // namespace Broker::SessionSecret
