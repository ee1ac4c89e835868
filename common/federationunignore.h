#pragma once

#include "common/wire.h"

namespace Broker {

// /federation/unignore: takes a machine off the federation's ignored list (by its pin), so DNS-SD
// may offer it for pairing again. Beside wire.h rather than in it while wire.h's field lists
// are being rewritten as one table (the refactor branch); it can join the other federation
// requests there afterwards.
struct FederationUnignoreRequest
{
    static constexpr const char *path = "/federation/unignore";
    using Answer = FederationAnswer;

    QString fingerprint;
    QJsonObject toJson() const { return {{QStringLiteral("fingerprint"), fingerprint}}; }
};

} // namespace Broker
