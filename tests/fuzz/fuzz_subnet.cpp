// The federation subnet filter (federation/subnetfilter.*): the input's first line is a list
// of entries separated by commas, each later line an address to check. A filter that parses
// must re-parse from its own text to the same filter, and must decide the same for an address
// and its ::ffff: mapped form.
#include "tests/fuzz/fuzzsupport.h"

#include "federation/subnetfilter.h"

using namespace Federation;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const QStringList lines = text.split(u'\n');
    const auto filter = SubnetFilter::parse(lines.first().split(u','));
    if (!filter) {
        Q_ASSERT(!filter.error().message.isEmpty());
        return 0;
    }
    const auto again = SubnetFilter::parse(filter->toStringList());
    if (!again || !(*again == *filter))
        abort();
    for (qsizetype i = 1; i < lines.size() && i < 64; ++i) {
        const QHostAddress address(lines[i].trimmed());
        const bool allowed = filter->allows(address);
        if (address.protocol() == QAbstractSocket::IPv4Protocol) {
            const QHostAddress mapped(QStringLiteral("::ffff:") + address.toString());
            if (filter->allows(mapped) != allowed)
                abort();
        }
        if (filter->rejectionMessage(address).isEmpty())
            abort();
    }
    return 0;
}
