// The `cpt://` join URL parser (federation/joinurl.*) on any text: whatever parses must format
// to a URL that parses to the same fields, carries no '?' or '#', and keeps its token out of
// every error message.
#include "tests/fuzz/fuzzsupport.h"

#include "federation/joinurl.h"

using namespace Federation;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto parsed = parseJoinUrl(text);
    if (!parsed) {
        Q_ASSERT(!parsed.error().message.isEmpty());
        return 0;
    }
    Q_ASSERT(!parsed->host.isEmpty() && parsed->port > 0 && !parsed->token.isEmpty());
    const QString formatted = formatJoinUrl(*parsed);
    if (formatted.contains(u'?') || formatted.contains(u'#'))
        abort();
    const auto again = parseJoinUrl(formatted);
    if (!again || !(*again == *parsed))
        abort();
    return 0;
}
