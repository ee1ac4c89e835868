#pragma once

// Every header of broker/internal/ includes this one. The broker's own sources compile with
// PEERS_BROKER_INTERNALS; hosts and modules only see the public headers at broker/ (the
// extension points in brokermodule.h). Tests and the fuzz harness reach the internals through
// the test-only target Peers::brokerInternals, never through the public include path.
#ifndef PEERS_BROKER_INTERNALS
#error "broker/internal/ is private to Peers::broker (tests only: link Peers::brokerInternals)"
#endif
