// The DNS-SD TXT record parser (federation/discoverytxt.*) and the discovery decision on any
// bytes: whatever parses must encode to a record that parses to the same fields, and the
// decision never connects to a fingerprint that is not pinned.
#include "tests/fuzz/fuzzsupport.h"

#include "federation/discoverypolicy.h"

using namespace Federation;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray record(reinterpret_cast<const char *>(data), qsizetype(size));
    const DiscoveredService service {QStringLiteral("x"), QStringLiteral("10.0.0.2"), 7900, record};
    const DiscoveryContext context {QStringLiteral("self"),
                                    QStringLiteral("sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
                                    {QStringLiteral("sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA")},
                                    {}};
    const DiscoveryDecision decision = decideDiscovery(service, context);
    if (decision.action == DiscoveryAction::Connect &&
        !context.pinnedFingerprints.contains(decision.txt.fingerprint))
        abort();
    const auto parsed = parseDiscoveryTxt(record);
    if (!parsed) {
        if (parsed.error().isEmpty())
            abort();
        return 0;
    }
    if (parsed->legacyPskHash)
        return 0; // we never write psk_hash, so it cannot round-trip
    const auto again = parseDiscoveryTxt(encodeDiscoveryTxt(*parsed));
    if (!again || !(*again == *parsed))
        abort();
    return 0;
}
