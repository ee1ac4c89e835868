# Used when a tool the external tests need is missing: they must fail, not skip.
message(FATAL_ERROR "${PEERS_FAIL_MESSAGE}")
