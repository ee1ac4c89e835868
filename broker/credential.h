#pragma once

#include <QString>

namespace Broker {

// Who is asking, once the request pipeline authenticated it: the main token (every right), a
// session secret (acts only as its peer), a federation peer (X-Claude-Peers-PSK), or nobody
// (a route open to anyone on the loopback interface).
struct Credential
{
    enum class Kind { None, MainToken, Session, Federation };
    Kind kind = Kind::None;
    QString peerId; // set for Session

    bool isValid() const { return kind != Kind::None; }
    bool isMain() const { return kind == Kind::MainToken; }
};

} // namespace Broker
