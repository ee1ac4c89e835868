// The /federation/relay body check (federation/relayenvelope.*) on any bytes: byte 0 picks the
// options (legacy accepted, clock), the rest is the body. Whatever parses as an object is also
// re-signed with the right key and checked again: then it must get past the signature, and
// whatever verifies must re-sign and verify the same.
#include "tests/fuzz/fuzzsupport.h"

#include "federation/canonicaljson.h"
#include "federation/jsonparser.h"
#include "federation/relayenvelope.h"
#include "federation/relaysignature.h"

using namespace Federation;

namespace {
const QByteArray key = QByteArrayLiteral("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    const uint8_t flags = input.byte();
    RelayVerifyOptions options;
    options.key = key;
    options.acceptLegacy = flags & 1;
    options.nowMs = (flags & 2) ? 1764470000123 : 0;
    options.localMachine = (flags & 4) ? QStringLiteral("rafi-macbook") : QString();
    const QByteArray body = input.rest();

    auto check = [](const std::expected<RelayEnvelope, RelayError> &result) {
        if (!result) {
            Q_ASSERT(!result.error().message.isEmpty());
            return;
        }
        Q_ASSERT(result->contentSize() >= result->message.text.size());
        const auto content = result->checkContent();
        Q_ASSERT(content || !content.error().message.isEmpty());
    };
    const auto result = verifyRelay(body, options);
    check(result);

    const auto parsed = parseJson(body, {RelayEnvelope::maxBodyBytes, RelayEnvelope::maxDepth});
    if (!parsed || !parsed->isObject())
        return 0;
    JsonObject resigned = parsed->toObject();
    resigned.insert(QStringLiteral("signature"),
                    JsonValue::string(QString::fromLatin1(RelaySignature::compute(resigned, key))));
    const QByteArray resignedBytes = CanonicalJson::stringify(resigned);
    if (resignedBytes.size() > RelayEnvelope::maxBodyBytes)
        return 0;
    const auto again = verifyRelay(resignedBytes, options);
    check(again);
    if (!again && again.error().kind == RelayError::Kind::BadSignature)
        abort(); // the right key's signature was refused
    if (again) {
        const auto replay = again->replay;
        const QByteArray ours = signRelay(again->message, replay, key);
        const auto ourResult = verifyRelay(ours, options);
        if (!ourResult || ourResult->message.text != again->message.text ||
            ourResult->replay.has_value() != replay.has_value())
            abort();
    }
    return 0;
}
