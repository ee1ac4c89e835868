// The token file reader (common/tokenfile.cpp) on arbitrary file contents, and the
// check of an Authorization credential against what it read.
#include "tests/fuzz/fuzzsupport.h"

#include "common/tokenfile.h"

#include <QFile>

using namespace Broker;

namespace {
QString g_path;
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    g_path = Fuzz::scratchDir() + QStringLiteral("/token");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray contents(reinterpret_cast<const char *>(data), qsizetype(size));
    {
        QFile file(g_path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            abort();
        file.write(contents);
    }
    const auto token = TokenFile::read(g_path);
    if (token) {
        Q_ASSERT(!token->isEmpty());
        Q_ASSERT(token->size() <= 4096);
        Q_ASSERT(*token == token->trimmed());
    } else {
        Q_ASSERT(!token.error().message.isEmpty());
        Q_ASSERT(contents.left(4096).trimmed().isEmpty());
    }
    // An empty or blank file gets a fresh token; anything else is kept as it is.
    const auto created = TokenFile::readOrCreate(g_path);
    Q_ASSERT(created.has_value());
    Q_ASSERT(!token || *created == *token);
    return 0;
}
