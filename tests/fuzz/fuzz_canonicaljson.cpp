// The federation's ordered JSON parser and canonical serializer (federation/jsonparser.*,
// canonicaljson.*) on any bytes: parse → stringify → parse → stringify must be stable (the
// second text equals the first), the signed form of any object must itself parse, and a double
// taken from the input must read back from its ECMAScript string exactly.
#include "tests/fuzz/fuzzsupport.h"

#include "federation/canonicaljson.h"
#include "federation/jsonparser.h"

#include <cmath>
#include <cstring>

using namespace Federation;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    if (size >= sizeof(double)) {
        double d = 0;
        std::memcpy(&d, data, sizeof d);
        const QByteArray text = CanonicalJson::numberToString(d);
        const auto back = parseJson(text);
        if (!back)
            abort();
        if (std::isfinite(d)) {
            if (!back->isNumber() || back->toNumber() != d)
                abort(); // -0 reads back as 0, which compares equal
        } else if (!back->isNull()) {
            abort();
        }
    }

    const auto parsed = parseJson(bytes, {4096, 32});
    if (!parsed) {
        Q_ASSERT(!parsed.error().message.isEmpty());
        Q_ASSERT(parsed.error().offset >= 0 && parsed.error().offset <= bytes.size());
        return 0;
    }
    const QByteArray first = CanonicalJson::stringify(*parsed);
    // What we write is valid JSON of the same depth (JSON.stringify never adds nesting).
    const auto reparsed = parseJson(first, {1 << 20, 32});
    if (!reparsed)
        abort();
    if (CanonicalJson::stringify(*reparsed) != first)
        abort();
    if (parsed->isObject()) {
        const auto signedForm = parseJson(CanonicalJson::signedForm(parsed->toObject()), {1 << 20, 32});
        if (!signedForm || !signedForm->isObject())
            abort();
        Q_ASSERT(!signedForm->toObject().contains(u"signature"));
    }
    return 0;
}
